import EventLoop
import Net
import Report
import RTCBase
import Signaling

/// An OWT conference participant without media (role `member` on an `owt` target), for
/// the portal's signaling: it logs in (`login_ms`), then sends a timestamped `text` to
/// everyone `text_rate_per_s` times a second (none without it) and records each text it
/// receives as `relay_ms` (the sender's send time -> arrival here; one machine shares the
/// monotonic clock), notes its conference's notifications (`OWTConferenceWatch`), and logs
/// out at its planned end. A refused login or a lost connection ends it as failed with the
/// portal's words.
public final class OWTMemberPeer: PeerDriver {
    public struct Settings: Sendable {
        public var configuration: OWTPortalClient.Configuration
        public var tls: TLSClientContext?
        public var id: String
        public var group: Int
        /// Between two texts; nil: it sends none.
        public var textInterval: Duration?
        public var loginTimeout: Duration = .seconds(10)
    }

    public var state: PeerLifecycle { life.state }
    private let loop: EventLoop
    private let settings: Settings
    private let life: MemberLife
    private let watch: OWTConferenceWatch
    private var host: StreamHost<OWTPortalClient>?

    public init(loop: EventLoop, settings: Settings, recorder: RunRecorder) {
        self.loop = loop
        self.settings = settings
        life = MemberLife(loop: loop, recorder: recorder, id: settings.id, group: settings.group)
        let watch = OWTConferenceWatch(loop: loop, publishes: false)
        self.watch = watch
        life.finishRecord = { record in record.conference = watch.log(loggedOut: record.outcome != .failed) }
        life.onEnd = { [weak self] joined in
            guard let self, let host = self.host else { return }
            self.host = nil
            // Logged in: log out and give the portal a moment to answer; else just drop.
            if joined, host.machine.isJoined {
                self.watch.leaving()
                host.perform { $0.logout(now: $1) }
                _ = self.loop.schedule(after: .seconds(2)) { host.stop() }
            } else {
                host.stop()
            }
        }
    }

    public func start() {
        guard life.begin(timeout: settings.loginTimeout, reason: "OWT portal: no room info within \(settings.loginTimeout)") else { return }
        let host = StreamHost(loop: loop, machine: OWTPortalClient(configuration: settings.configuration), tls: settings.tls)
        host.onEvent = { [weak self] event in self?.handle(event) }
        self.host = host
        host.run()
    }

    public func stop(interrupted: Bool) {
        life.stop(interrupted: interrupted, stillJoining: "still logging in at its planned end", room: watch.roomID)
    }

    private func handle(_ event: OWTPortalEvent) {
        watch.note(event)
        switch event {
        case .acknowledged("login", let milliseconds, _):
            life.phases["login_ms"] = milliseconds
        case .joined:
            life.joined(every: settings.textInterval) { [weak self] body in
                self?.host?.perform { $0.sendText(body.serialized, now: $1) }
            }
        case .text(_, _, let message):
            life.received(try? JSONValue(parsing: message))
        case .failed(let words):
            life.lost(words, room: watch.roomID)
        default:
            break
        }
    }
}
