import ICE
import RTCBase

/// Two agents on 127.0.0.1 with signalled credentials and host candidates.
enum IcePairSetup {
    static let addressA = SocketAddress("127.0.0.1:5000")!
    static let addressB = SocketAddress("127.0.0.1:6000")!
    static let credentialsA = IceCredentials(ufrag: "aaaa", pwd: "aaaaaaaaaaaaaaaaaaaaaaaa")
    static let credentialsB = IceCredentials(ufrag: "bbbb", pwd: "bbbbbbbbbbbbbbbbbbbbbbbb")

    /// Options of the strict RFC 8445 profile, whose timers most agent tests assert.
    static var rfc8445: IceAgentOptions {
        var options = IceAgentOptions()
        options.profile = .rfc8445
        return options
    }

    /// A network with agent A (node 0) and agent B (node 1), candidates and credentials
    /// exchanged as signalling would, end-of-candidates included; RFC 8445 timers unless
    /// `options` (and for B `optionsB`) say otherwise.
    static func network(roleA: IceRole = .controlling, roleB: IceRole = .controlled,
                        tieBreakerA: UInt64 = 0xA, tieBreakerB: UInt64 = 0xB,
                        options: IceAgentOptions = rfc8445, optionsB: IceAgentOptions? = nil) -> VirtualNetwork {
        var optionsB = optionsB ?? options
        optionsB.seed = options.seed &+ 1
        var a = IceAgent(role: roleA, localCredentials: credentialsA, tieBreaker: tieBreakerA, options: options)
        var b = IceAgent(role: roleB, localCredentials: credentialsB, tieBreaker: tieBreakerB, options: optionsB)
        a.addLocalHost(addressA)
        b.addLocalHost(addressB)
        signal(from: b, to: &a)
        signal(from: a, to: &b)
        var network = VirtualNetwork()
        network.attach(a, at: [addressA])
        network.attach(b, at: [addressB])
        return network
    }

    /// What the SDP (or trickle) would carry from `sender` to `receiver`.
    static func signal(from sender: IceAgent, to receiver: inout IceAgent) {
        receiver.setRemoteCredentials(sender.localCredentials)
        for candidate in sender.signalledCandidates {
            receiver.addRemoteCandidate(.remote(candidate.address, type: candidate.type, priority: candidate.priority,
                                                foundation: candidate.foundation))
        }
        receiver.endOfRemoteCandidates()
    }

    static let liteAddress = SocketAddress("127.0.0.1:8000")!
    static let liteCredentials = IceCredentials(ufrag: "lite", pwd: "litelitelitelitelitelite")

    /// Agent A (node 0, created with `role`) against an ice-lite remote that answers its
    /// checks (a `LiteResponder` at node `lite`), with the agent's default options.
    static func liteNetwork(role: IceRole) -> (network: VirtualNetwork, lite: Int) {
        var agent = IceAgent(role: role, localCredentials: credentialsA, tieBreaker: 1)
        agent.addLocalHost(addressA)
        agent.setRemoteCredentials(liteCredentials, isLite: true)
        agent.addRemoteCandidate(.remote(liteAddress))
        var network = VirtualNetwork()
        network.attach(agent, at: [addressA])
        let lite = network.attach(LiteResponder(credentials: liteCredentials), at: [liteAddress])
        return (network, lite)
    }

    static let restartedCredentialsA = IceCredentials(ufrag: "AAA2", pwd: "AAAAAAAAAAAAAAAAAAAAAAA2")
    static let restartedCredentialsB = IceCredentials(ufrag: "BBB2", pwd: "BBBBBBBBBBBBBBBBBBBBBBB2")

    /// An ICE restart of both agents at the network's time (RFC 8445 9: new credentials),
    /// not yet signalled; returns the agents as restarted, for `signalRestart`.
    static func restartBoth(_ network: inout VirtualNetwork) -> (a: IceAgent?, b: IceAgent?) {
        let now = network.now
        network.withAgent(0) { $0.restart(localCredentials: restartedCredentialsA, now: now) }
        network.withAgent(1) { $0.restart(localCredentials: restartedCredentialsB, now: now) }
        return (network.agent(0), network.agent(1))
    }

    /// What each side's new offer and answer carry after `restartBoth`.
    static func signalRestart(_ network: inout VirtualNetwork, a: IceAgent, b: IceAgent) {
        network.withAgent(0) { signal(from: b, to: &$0) }
        network.withAgent(1) { signal(from: a, to: &$0) }
    }

    static func isConnected(_ state: IceConnectionState?) -> Bool {
        state == .connected || state == .completed
    }

    static func bothConnected(_ network: VirtualNetwork) -> Bool {
        isConnected(network.agent(0)?.state) && isConnected(network.agent(1)?.state)
    }

    static func seconds(_ value: Double) -> Instant { Instant(nanoseconds: Int64((value * 1e9).rounded())) }
}
