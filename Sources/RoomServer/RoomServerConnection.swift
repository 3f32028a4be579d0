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
    /// The client's IP address (no port): the key of the per-address rate limit.
    let address: String
    var http: HTTPServerConnection
    var webSocket: WebSocketConnection?
    var transport = Transport.http
    /// The Socket.IO session, once upgraded to `/socket.io/`.
    var session: SocketIOServerSession?
    /// The member id the room protocol uses (the Socket.IO socket id, or one we made).
    var memberID: String?
    var closed = false
    /// The per-connection message rate limit.
    var bucket: TokenBucket
    /// Messages refused in a row for being over a rate (this connection's or its address's).
    var rateViolations = 0

    /// `handshakeTimeout` bounds both how long a request may take to arrive and how long
    /// the connection may sit idle before its first (or next) request.
    init(id: Int, address: String, now: Instant, rate: Double, handshakeTimeout: Duration) {
        self.id = id
        self.address = address
        http = HTTPServerConnection(requestTimeout: handshakeTimeout, idleTimeout: handshakeTimeout, now: now)
        bucket = TokenBucket(rate: rate, burst: rate * 2, now: now)
    }

    /// When this connection next needs `handleTimeout`.
    var deadline: Instant? {
        switch transport {
        case .http: return http.pollTimeout()
        case .socketIO: return [webSocket?.pollTimeout(), session?.pollTimeout()].compactMap { $0 }.min()
        case .plain: return webSocket?.pollTimeout()
        }
    }
}
