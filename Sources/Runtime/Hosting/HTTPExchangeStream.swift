import EventLoop
import Net
import RTCBase

/// One HTTP request on the loop (a stats poll, a test's probe): the generic stream host
/// carrying one `HTTPExchange`.
public typealias HTTPExchangeStream = StreamHost<SingleConnection<HTTPExchange>>

extension StreamHost where Machine == SingleConnection<HTTPExchange> {
    /// Sends `request` to `address` now; `completion` gets its one result (a connection
    /// that cannot be made is a `.failed` with code "no connection").
    public convenience init(loop: EventLoop, address: SocketAddress, request: HTTPRequest, timeout: Duration,
                            completion: @escaping (HTTPClientEvent) -> Void) {
        let destination = StreamDestination(host: address.host, port: address.port, secure: false)
        self.init(loop: loop, machine: SingleConnection(HTTPExchange(to: destination, request: request, timeout: timeout, now: loop.now())))
        onEvent = completion
        run()
    }

    /// The one result has been given.
    public var isFinished: Bool { machine.machine.isClosed }
}
