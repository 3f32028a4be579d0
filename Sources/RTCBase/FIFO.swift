/// A first-in first-out queue with O(1) `append` and `popFirst`, for the outputs and
/// events state machines hand to their driver (an array's `removeFirst` is O(n)).
public struct FIFO<Element: Sendable>: Sendable {
    private var storage: [Element] = []
    private var head = 0

    public init() {}

    public var isEmpty: Bool { head == storage.count }
    public var count: Int { storage.count - head }
    /// The oldest element, left in place.
    public var first: Element? { head < storage.count ? storage[head] : nil }

    public mutating func append(_ element: Element) { storage.append(element) }

    public mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 && head * 2 >= storage.count {
            storage.removeSubrange(0..<head)
            head = 0
        }
        return element
    }

    /// Removes and returns everything, oldest first.
    public mutating func removeAll() -> [Element] {
        defer {
            storage.removeAll(keepingCapacity: true)
            head = 0
        }
        return Array(storage[head...])
    }
}
