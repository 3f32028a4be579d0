import RTCBase
import RTP
import RTPSession

/// Two sessions joined by a link with a fixed one-way delay and random loss, stepped in
/// virtual time (1 ms steps).
struct SessionPair {
    var a: RtpSession
    var b: RtpSession
    var now = Instant.zero
    var delay: Duration
    var loss: Double
    var generator = SeededGenerator(seed: 2026)
    /// Packets in flight: arrival time, towards b?, packet.
    var inFlight: [(at: Instant, toB: Bool, packet: RtpSession.Packet)] = []
    var eventsA: [RtpSession.Event] = []
    var eventsB: [RtpSession.Event] = []
    var sentFromA: [[UInt8]] = []
    var receivedByB: [(packet: RtpPacket, at: Instant)] = []
    var lossActive = true

    init(a: RtpSession, b: RtpSession, delay: Duration, loss: Double) {
        self.a = a
        self.b = b
        self.delay = delay
        self.loss = loss
    }

    /// Moves packets out of both sessions onto the link.
    mutating func collect() {
        while let packet = a.pollTransmit() {
            if case .rtp(let bytes) = packet { sentFromA.append(bytes) }
            launch(packet, toB: true)
        }
        while let packet = b.pollTransmit() { launch(packet, toB: false) }
        while let event = a.pollEvent() { eventsA.append(event) }
        while let event = b.pollEvent() { eventsB.append(event) }
    }

    private mutating func launch(_ packet: RtpSession.Packet, toB: Bool) {
        if lossActive, generator.nextUnit() < loss { return }
        inFlight.append((now + delay, toB, packet))
    }

    /// Advances to `end` in 1 ms steps, delivering packets and firing timeouts.
    mutating func run(until end: Instant, each: (inout SessionPair) -> Void = { _ in }) {
        while now < end {
            now += .milliseconds(1)
            each(&self)
            let due = inFlight.filter { $0.at <= now }
            inFlight.removeAll { $0.at <= now }
            for delivery in due {
                switch (delivery.toB, delivery.packet) {
                case (true, .rtp(let bytes)):
                    if let packet = try? RtpPacket(parsing: bytes), let media = b.handleRtp(packet, now: now) {
                        receivedByB.append((media, now))
                    }
                case (false, .rtp(let bytes)):
                    if let packet = try? RtpPacket(parsing: bytes) { _ = a.handleRtp(packet, now: now) }
                case (true, .rtcp(let bytes)): b.handleRtcp(bytes, now: now)
                case (false, .rtcp(let bytes)): a.handleRtcp(bytes, now: now)
                }
            }
            if let timeout = a.pollTimeout(), timeout <= now { a.handleTimeout(now: now) }
            if let timeout = b.pollTimeout(), timeout <= now { b.handleTimeout(now: now) }
            collect()
        }
    }
}
