import RTCBase

/// The opening handshake of RFC 6455 section 4: the client's upgrade request, the
/// server's 101 answer and the checks each side makes.
public enum WebSocketHandshake {
    /// The GUID of RFC 6455 section 1.3.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Accept` for `key`: base64(SHA-1(key + GUID)) (section 4.2.2 item 5.4).
    public static func acceptValue(for key: String) -> String {
        Base64.encode(SHA1.digest(Array((key + guid).utf8)))
    }

    /// A `Sec-WebSocket-Key`: 16 random bytes, base64 (section 4.1 item 7).
    public static func makeKey(using generator: inout some RandomNumberGenerator) -> String {
        Base64.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The client's upgrade request (section 4.1): GET with Host, Upgrade, Connection,
    /// key, version 13 and, if any, the offered subprotocols (e.g. `janus-protocol`).
    public static func clientRequest(endpoint: Endpoint, key: String, protocols: [String] = [],
                                     headers: HTTPHeaders = [:]) -> HTTPRequest {
        var fields: HTTPHeaders = ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": key,
                                   "Sec-WebSocket-Version": "13"]
        if !protocols.isEmpty { fields.add("Sec-WebSocket-Protocol", protocols.joined(separator: ", ")) }
        for field in headers { fields.add(field.name, field.value) }
        return HTTPRequest(method: .get, endpoint: endpoint, headers: fields)
    }

    /// Checks the server's answer (section 4.1, client requirements 1-6) and returns the
    /// subprotocol it selected, if any.
    public static func validate(response: HTTPResponse, key: String,
                                protocols: [String]) throws(WebSocketHandshakeError) -> String? {
        guard response.status == 101 else { throw WebSocketHandshakeError("server refused the upgrade", response: response) }
        guard response.headers.hasToken("websocket", in: "Upgrade") else {
            throw WebSocketHandshakeError("101 without Upgrade: websocket", response: response)
        }
        guard response.headers.hasToken("upgrade", in: "Connection") else {
            throw WebSocketHandshakeError("101 without Connection: Upgrade", response: response)
        }
        guard response.headers["Sec-WebSocket-Accept"] == acceptValue(for: key) else {
            throw WebSocketHandshakeError("Sec-WebSocket-Accept does not match the key", response: response)
        }
        if let extensions = response.headers["Sec-WebSocket-Extensions"] {
            throw WebSocketHandshakeError("server selected extensions we did not offer: \(extensions)", response: response)
        }
        guard let chosen = response.headers["Sec-WebSocket-Protocol"] else { return nil }
        guard protocols.contains(chosen) else {
            throw WebSocketHandshakeError("server selected subprotocol \(chosen) we did not offer", response: response)
        }
        return chosen
    }

    /// The server's answer to an upgrade request (section 4.2): `101` with the accept
    /// value and the first offered subprotocol that is in `supported`, or `400`/`426`
    /// explaining what is wrong. `protocol` is the selected subprotocol.
    public static func serverResponse(to request: HTTPRequest,
                                      supported: [String] = []) -> (response: HTTPResponse, protocol: String?) {
        func refuse(_ status: Int, _ why: String, _ headers: HTTPHeaders = [:]) -> (HTTPResponse, String?) {
            var fields = headers
            fields.add("Content-Type", "text/plain")
            return (HTTPResponse(status: status, headers: fields, body: Array((why + "\n").utf8)), nil)
        }
        guard request.method == .get, request.version == "HTTP/1.1" else { return refuse(400, "WebSocket needs GET and HTTP/1.1") }
        guard request.headers.hasToken("websocket", in: "Upgrade"), request.headers.hasToken("upgrade", in: "Connection") else {
            return refuse(426, "this resource needs a WebSocket upgrade", ["Upgrade": "websocket"])
        }
        guard request.headers["Sec-WebSocket-Version"] == "13" else {
            return refuse(426, "unsupported WebSocket version", ["Sec-WebSocket-Version": "13"])
        }
        guard let key = request.headers["Sec-WebSocket-Key"], Base64.decode(key)?.count == 16 else {
            return refuse(400, "Sec-WebSocket-Key is not 16 bytes of base64")
        }
        var fields: HTTPHeaders = ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": acceptValue(for: key)]
        let chosen = request.headers.tokens("Sec-WebSocket-Protocol").first { supported.contains($0) }
        if let chosen { fields.add("Sec-WebSocket-Protocol", chosen) }
        return (HTTPResponse(status: 101, headers: fields), chosen)
    }
}
