import CShims

/// Buffers for `recvmmsg` or `sendmmsg` calls: `count` slots of `slotBytes` each, in one
/// allocation. Used on its loop's thread only.
final class DatagramBatch {
    let slotBytes: Int
    private let arena: UnsafeMutableRawPointer
    var slots: [rs_datagram]

    init(count: Int, slotBytes: Int) {
        self.slotBytes = slotBytes
        let arena = UnsafeMutableRawPointer.allocate(byteCount: count * slotBytes, alignment: 16)
        self.arena = arena
        slots = (0..<count).map { index in
            rs_datagram(buffer: (arena + index * slotBytes).assumingMemoryBound(to: UInt8.self),
                        capacity: UInt32(slotBytes), length: 0, truncated: 0, address: rs_address(), received_ns: 0)
        }
    }

    /// Where slot `index` keeps its bytes.
    func buffer(_ index: Int) -> UnsafeMutableRawPointer { arena + index * slotBytes }

    deinit { arena.deallocate() }
}
