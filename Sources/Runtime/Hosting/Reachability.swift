import EventLoop
import RTCBase

/// Checks that a server accepts TCP connections before a run starts, so an unreachable
/// target is "could not run" (exit 3) with the reason, not a thousand failed peers.
public enum Reachability {
    public static func check(_ address: SocketAddress, loop: EventLoop, timeout: Duration) throws(TargetError) {
        let connection: TCPConnection
        do {
            connection = try TCPConnection.connect(loop: loop, to: address)
        } catch {
            throw TargetError("cannot reach \(address): \(error)")
        }
        var result: SystemError?? = .none
        connection.onConnect = { result = .some($0) }
        loop.run(until: { result != nil }, timeout: timeout)
        connection.close()
        switch result {
        case .none: throw TargetError("cannot reach \(address): no answer within \(timeout)")
        case .some(.some(let error)): throw TargetError("cannot reach \(address): \(error)")
        case .some(.none): return
        }
    }
}
