import DTLS
import RTCBase

/// DTLS-SRTP handshakes between a client and a server `DtlsEndpoint` in memory, one
/// after the other, both with the process's shared certificate. The CPU of each side
/// (creating its endpoint and every call into it; not freeing it) is timed apart: a peer
/// plays one side, so each side's figure is the cost per connecting peer.
struct DtlsBenchmark {
    var handshakes = 500
    /// Handshakes run first, untimed (certificate generation, OpenSSL's first-use setup).
    var warmup = 20

    func run() throws {
        let fingerprint = DtlsCertificate.shared.fingerprint
        _ = try measure(warmup, fingerprint: fingerprint)
        let (client, server, datagrams) = try measure(handshakes, fingerprint: fingerprint)
        let both = Stopwatch.sum(client, server)
        print("dtls handshake client: \(client.perOperation(handshakes, per: "handshake", unit: .microseconds))")
        print("dtls handshake server: \(server.perOperation(handshakes, per: "handshake", unit: .microseconds))")
        print("dtls handshake both sides: \(both.perOperation(handshakes, per: "handshake", unit: .microseconds)), "
              + "\(Int((Double(handshakes) / both.cpuSeconds).rounded())) handshakes/s per core with both sides, "
              + "\(Int((Double(2 * handshakes) / both.cpuSeconds).rounded())) peers/s per core, "
              + "\(datagrams / handshakes) datagrams per handshake; N=\(handshakes)")
    }

    /// Returns the client's and the server's time and the datagrams exchanged.
    private func measure(_ count: Int, fingerprint: String) throws -> (Stopwatch, Stopwatch, Int) {
        var client = Stopwatch()
        var server = Stopwatch()
        var datagrams = 0
        let now = Instant(nanoseconds: 1_000_000_000)
        for _ in 0..<count {
            let a = try client.time { try DtlsEndpoint(role: .client, remoteFingerprint: fingerprint) }
            let b = try server.time { try DtlsEndpoint(role: .server, remoteFingerprint: fingerprint) }
            client.time { a.start(now: now) }
            var moved = true
            while moved {
                moved = false
                while let datagram = client.time({ a.pollTransmit() }) {
                    server.time { b.handle(datagram, now: now) }
                    datagrams += 1
                    moved = true
                }
                while let datagram = server.time({ b.pollTransmit() }) {
                    client.time { a.handle(datagram, now: now) }
                    datagrams += 1
                    moved = true
                }
            }
            guard case .connected = client.time({ a.pollEvent() }), case .connected = server.time({ b.pollEvent() }) else {
                throw BenchmarkError("dtls: a handshake did not connect (client \(a.state), server \(b.state))")
            }
        }
        return (client, server, datagrams)
    }
}
