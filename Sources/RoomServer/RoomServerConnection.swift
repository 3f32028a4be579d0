import Net
import RTCBase
import Signaling

/// One client connection of the room server, from its first HTTP bytes to its close:
/// an HTTP request (`/stats`, or an upgrade), then either Socket.IO or plain JSON
/// messages over a WebSocket.
final class RoomServerConnection {
    enum Transport {
        case http
        case socketIO
        case plain
    }

    let id: Int
    var http: HTTPServerConnection
    var webSocket: WebSocketConnection?
    var transport = Transport.http
    /// The Socket.IO session, once upgraded to `/socket.io/`.
    var session: SocketIOServerSession?
    /// The member id the room protocol uses (the Socket.IO socket id, or one we made).
    var memberID: String?
    var closed = false
    /// Token bucket for the message rate limit.
    var tokens: Double
    var lastRefill: Instant
    var rateViolations = 0

    init(id: Int, now: Instant, burst: Double) {
        self.id = id
        http = HTTPServerConnection(now: now)
        tokens = burst
        lastRefill = now
    }

    /// When this connection next needs `handleTimeout`.
    var deadline: Instant? {
        switch transport {
        case .http: return http.pollTimeout()
        case .socketIO: return [webSocket?.pollTimeout(), session?.pollTimeout()].compactMap { $0 }.min()
        case .plain: return webSocket?.pollTimeout()
        }
    }

    /// Takes one message from the bucket; false when the client is over its rate.
    func admitMessage(now: Instant, rate: Double) -> Bool {
        let burst = rate * 2
        tokens = min(burst, tokens + Double((now - lastRefill).nanoseconds) / 1e9 * rate)
        lastRefill = now
        guard tokens >= 1 else {
            rateViolations += 1
            return false
        }
        tokens -= 1
        rateViolations = 0
        return true
    }
}
