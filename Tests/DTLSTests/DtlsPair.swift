import DTLS
import RTCBase

/// A client and a server endpoint wired to each other in memory.
struct DtlsPair {
    static let serverCertificate = DtlsCertificate()

    let client: DtlsEndpoint
    let server: DtlsEndpoint
    var now = Instant(nanoseconds: 1_000_000_000)
    /// Every datagram either side sent, to check sizes.
    var sent: [[UInt8]] = []

    /// The client uses the shared certificate, the server its own, so keys and
    /// fingerprints differ between the sides.
    init(
        clientExpects: String = DtlsPair.serverCertificate.fingerprint,
        serverExpects: String = DtlsCertificate.shared.fingerprint, retransmitTimeout: Duration = .seconds(1)
    ) throws {
        client = try DtlsEndpoint(
            role: .client, remoteFingerprint: clientExpects, retransmitTimeout: retransmitTimeout)
        server = try DtlsEndpoint(
            role: .server, certificate: DtlsPair.serverCertificate, remoteFingerprint: serverExpects)
    }

    /// Moves datagrams both ways until neither side has anything to send; returns how
    /// many moved. `drop` sees each datagram and may discard it.
    @discardableResult
    mutating func pump(drop: (_ fromClient: Bool, _ datagram: [UInt8]) -> Bool = { _, _ in false }) -> Int {
        var moved = 0
        var progress = true
        while progress {
            progress = false
            while let datagram = client.pollTransmit() {
                sent.append(datagram)
                progress = true
                moved += 1
                if !drop(true, datagram) { server.handle(datagram, now: now) }
            }
            while let datagram = server.pollTransmit() {
                sent.append(datagram)
                progress = true
                moved += 1
                if !drop(false, datagram) { client.handle(datagram, now: now) }
            }
        }
        return moved
    }

    /// Starts the client and pumps until both sides settle.
    mutating func handshake() {
        client.start(now: now)
        pump()
    }
}

extension DtlsEndpoint {
    /// All events queued so far.
    func drainEvents() -> [DtlsEvent] {
        var events: [DtlsEvent] = []
        while let event = pollEvent() { events.append(event) }
        return events
    }
}
