import CShims
import RTCBase

/// The send buffers of one loop, shared by its UDP sockets: each queued datagram takes the
/// next free slot, a socket chains its own slots in the order it queued them, and at the
/// end of the loop iteration (or when every slot is taken) each socket that queued sends
/// its chain with one `sendmmsg`, in the order the sockets first queued.
///
/// A buffer per socket was 32 KB of every publisher (16 slots of 2 KB) and 4 KB of every
/// player; one arena per loop costs `slotCount` slots whatever the number of peers. A
/// socket's datagrams still leave together however other sockets' sends interleave with
/// them (a publisher's audio and video frames come from two encoders' fan-outs).
final class SendArena {
    /// 512 KB per loop: the datagrams of an iteration's fan-out to many publishers fill it
    /// several times over (300 publishers' video frames are some 1,200 datagrams), which
    /// only sends them a little before the iteration ends.
    static let slotCount = 256

    private let batch = DatagramBatch(count: SendArena.slotCount, slotBytes: UDPSocket.slotBytes)
    /// Per slot, the next slot of the same socket's chain (-1 ends it).
    private var nextSlot = [Int32](repeating: -1, count: SendArena.slotCount)
    /// One socket's chain gathered into consecutive entries for `sendmmsg`.
    private var gathered: [rs_datagram]
    private var used = 0
    /// Sockets with a chain queued this iteration, in the order they first queued.
    private var senders: [UDPSocket] = []
    private unowned let loop: EventLoop

    init(loop: EventLoop) {
        self.loop = loop
        gathered = batch.slots
    }

    /// Copies `payload` (at most `UDPSocket.slotBytes`) into a free slot for `socket` and
    /// returns the slot; `previous` is the socket's last queued slot, nil when it has none.
    func queue(_ payload: UnsafeRawBufferPointer, to destination: SocketAddress, for socket: UDPSocket, after previous: Int?)
        -> Int
    {
        var previous = previous
        if used == Self.slotCount {
            sendAll()
            previous = nil  // sent with the rest: the socket's chain starts anew
        }
        let slot = used
        used += 1
        batch.slots[slot].address = destination.cAddress
        batch.slots[slot].length = UInt32(payload.count)
        if let base = payload.baseAddress { batch.buffer(slot).copyMemory(from: base, byteCount: payload.count) }
        nextSlot[slot] = -1
        if let previous {
            nextSlot[previous] = Int32(slot)
        } else {
            if senders.isEmpty { loop.atEndOfIteration { [unowned self] in self.sendAll() } }
            senders.append(socket)
        }
        return slot
    }

    /// Calls `body` with `count` queued datagrams of the chain starting at `first`, laid out
    /// for one `sendmmsg`.
    func withChain(from first: Int, count: Int, _ body: (UnsafeBufferPointer<rs_datagram>) -> Void) {
        var slot = first
        for index in 0..<count {
            gathered[index] = batch.slots[slot]
            slot = Int(nextSlot[slot])
        }
        gathered.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<count])) }
    }

    /// Each socket with a chain sends it; every slot is free again.
    func sendAll() {
        // A socket sending may not queue, so the list is not changed while it is walked.
        let sending = senders
        senders.removeAll(keepingCapacity: true)
        for socket in sending { socket.flush() }
        used = 0
    }
}
