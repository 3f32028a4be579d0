import EventLoop
import Net
import RTCBase
import Runtime

/// One plain-HTTP exchange with a server on loopback, run on a fresh event loop.
enum LoopbackHTTP {
    /// The body of a 200 response to GET `target`, or nil when the server does not answer
    /// within two seconds or answers something else.
    static func get(_ endpoint: Endpoint, target: String) -> String? {
        var request = HTTPRequest(method: .get, endpoint: endpoint)
        request.target = target
        guard let response = send(request, to: endpoint), response.status == 200 else { return nil }
        return response.bodyText
    }

    /// The response to `request`, or nil when none came within `timeout`.
    static func send(_ request: HTTPRequest, to endpoint: Endpoint, timeout: Duration = .seconds(2)) -> HTTPResponse? {
        guard let address = SocketAddress(host: endpoint.host, port: endpoint.port), let loop = try? EventLoop() else { return nil }
        var result: HTTPClientEvent?
        let host = HTTPExchangeStream(loop: loop, address: address, request: request, timeout: timeout) { result = $0 }
        _ = loop.run(until: { result != nil }, timeout: timeout + .seconds(1))
        withExtendedLifetime(host) {}
        guard case .response(let response, _)? = result else { return nil }
        return response
    }
}
