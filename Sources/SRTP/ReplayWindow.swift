/// The receiver's sliding replay window over packet indices (RFC 3711 3.3.2), 128
/// packets wide like libsrtp's default.
///
/// `check` runs before authentication and `accept` only after it, so forged packets
/// cannot move the window.
struct ReplayWindow {
    static let size: UInt64 = 128

    /// The highest index accepted so far; nil before the first packet.
    private(set) var highest: UInt64?
    /// Bit n set: index `highest - n` was received.
    private var seen: UInt128 = 0

    /// Whether `index` is new and not older than the window.
    func check(_ index: UInt64) -> Bool {
        guard let highest, index <= highest else { return true }
        let age = highest - index
        return age < ReplayWindow.size && seen & (1 << age) == 0
    }

    /// Records an authenticated `index`.
    mutating func accept(_ index: UInt64) {
        guard let current = highest else {
            highest = index
            seen = 1
            return
        }
        if index > current {
            let shift = index - current
            seen = shift >= ReplayWindow.size ? 1 : (seen << shift) | 1
            highest = index
        } else {
            seen |= 1 << (current - index)
        }
    }
}
