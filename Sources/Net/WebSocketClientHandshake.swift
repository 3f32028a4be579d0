import RTCBase

/// The client side of the opening handshake as a sans-IO step before a
/// `WebSocketConnection`: send `pollTransmit()`, feed the server's bytes to `handle`,
/// and on `.accepted` build the connection and give it the `remaining` bytes.
public struct WebSocketClientHandshake: Sendable {
    public enum Outcome: Hashable, Sendable {
        case accepted(protocol: String?, remaining: [UInt8])
        case rejected(WebSocketHandshakeError)
    }

    public let request: HTTPRequest
    public let key: String
    public let protocols: [String]
    private var parser = HTTPResponseParser(limits: HTTPLimits(maxHeaderBytes: 16 * 1024, maxBodyBytes: 64 * 1024))
    private var output: [UInt8]

    public init(endpoint: Endpoint, protocols: [String] = [], headers: HTTPHeaders = [:],
                generator: inout some RandomNumberGenerator) {
        key = WebSocketHandshake.makeKey(using: &generator)
        self.protocols = protocols
        request = WebSocketHandshake.clientRequest(endpoint: endpoint, key: key, protocols: protocols, headers: headers)
        output = request.serialized()
        parser.expectResponse(to: .get)
    }

    /// The upgrade request bytes, once.
    public mutating func pollTransmit() -> [UInt8]? {
        guard !output.isEmpty else { return nil }
        defer { output = [] }
        return output
    }

    /// Feeds the server's bytes; returns the outcome once the response head is in.
    public mutating func handle(_ bytes: some Sequence<UInt8>) -> Outcome? {
        parser.append(bytes)
        do {
            guard let response = try parser.next() else { return nil }
            let chosen = try WebSocketHandshake.validate(response: response, key: key, protocols: protocols)
            return .accepted(protocol: chosen, remaining: parser.takeRemainingBytes())
        } catch let error as WebSocketHandshakeError {
            return .rejected(error)
        } catch {
            return .rejected(WebSocketHandshakeError("malformed handshake response: \(error)"))
        }
    }

    /// The server closed the connection: any refusal with an EOF-framed body completes.
    public mutating func handleEOF() -> Outcome {
        if let response = try? parser.finish() {
            return .rejected(WebSocketHandshakeError("server refused the upgrade", response: response))
        }
        return .rejected(WebSocketHandshakeError(HTTPClientError.Code.closedWithoutAnswer.name))
    }
}
