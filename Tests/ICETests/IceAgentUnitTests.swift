import ICE
import RTCBase
import STUN
import WebRTCTestKit
import XCTest

final class IceAgentUnitTests: XCTestCase {
    typealias Setup = IcePairSetup

    func testCandidatePriorityFollowsTheFormula() {
        // (2^24) * 126 + (2^8) * 65535 + (256 - 1)
        XCTAssertEqual(IceCandidate.priority(type: .host), 2_130_706_431)
        XCTAssertEqual(IceCandidate.priority(type: .prflx, localPreference: 65535), 1_862_270_975)
        XCTAssertEqual(IceCandidate.priority(type: .srflx, localPreference: 0), 100 << 24 | 255)
        XCTAssertEqual(IceCandidate.priority(type: .relay, localPreference: 1), 0x0000_01FF)
    }

    func testRandomCredentialsHaveRfc8839SizesAndRepeatPerSeed() {
        var first = SeededGenerator(seed: 5)
        var second = SeededGenerator(seed: 5)
        let credentials = IceCredentials.random(using: &first)
        XCTAssertEqual(credentials, IceCredentials.random(using: &second))
        XCTAssertEqual(credentials.ufrag.count, 8)
        XCTAssertEqual(credentials.pwd.count, 24)
        let iceChars = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/")
        XCTAssertTrue((credentials.ufrag + credentials.pwd).allSatisfy(iceChars.contains))
        XCTAssertNotEqual(credentials, IceCredentials.random(using: &first))
    }

    func testHostCandidatesComeOnlyFromGivenAddresses() {
        var agent = IceAgent(role: .controlling, localCredentials: Setup.credentialsA, tieBreaker: 1)
        agent.addLocalHost(Setup.addressA)
        agent.addLocalHost(Setup.addressA)  // the same socket twice is one candidate
        XCTAssertEqual(agent.localCandidates.map(\.address), [Setup.addressA])
        XCTAssertEqual(agent.pollEvent(), .localCandidate(agent.localCandidates[0]))
        XCTAssertNil(agent.pollEvent())
        XCTAssertEqual(agent.localCandidates[0].description, "\(agent.localCandidates[0].foundation) 1 udp 2130706431 127.0.0.1 5000 typ host")
    }

    func testServerReflexiveCandidateComesFromTheStunServer() throws {
        let base = SocketAddress("10.0.0.2:5000")!
        let server = SocketAddress("198.51.100.1:3478")!
        let mapped = SocketAddress("203.0.113.7:40000")!
        var agent = IceAgent(role: .controlling, localCredentials: Setup.credentialsA, tieBreaker: 1)
        agent.addLocalHost(base)
        _ = agent.pollEvent()
        agent.gatherServerReflexive(server: server, now: .zero)
        let request = try XCTUnwrap(agent.pollTransmit())
        XCTAssertEqual(request.destination, server)
        XCTAssertEqual(request.source, base)
        let message = try StunMessage.decode(request.payload)
        XCTAssertEqual(message.method, .binding)
        // The server answers with the address the NAT gave us.
        let answer = message.response(attributes: [.xorMappedAddress(mapped)]).encode(fingerprint: true)
        agent.handle(answer, from: server, to: base, now: Instant(nanoseconds: 30_000_000))
        let srflx = IceCandidate(foundation: agent.localCandidates.last?.foundation ?? "", priority: 100 << 24 | 65535 << 8 | 255,
                                 address: mapped, type: .srflx, base: base, relatedAddress: base)
        XCTAssertEqual(agent.pollEvent(), .localCandidate(srflx))
        XCTAssertNotEqual(srflx.foundation, agent.localCandidates[0].foundation)
        XCTAssertTrue(srflx.description.hasSuffix("typ srflx raddr 10.0.0.2 rport 5000"))
    }

    func testUnauthenticatedRequestsGet401AndAreCounted() throws {
        var agent = IceAgent(role: .controlled, localCredentials: Setup.credentialsB, tieBreaker: 1)
        agent.addLocalHost(Setup.addressB)
        let request = StunMessage(method: .binding, messageClass: .request, transactionID: TransactionID(high: 1, low: 1),
                                  attributes: [.username("bbbb:aaaa"), .priority(1), .iceControlling(9)])
        agent.handle(request.encode(integrityKey: Array("wrong".utf8), fingerprint: true), from: Setup.addressA, to: Setup.addressB, now: .zero)
        let answer = try StunMessage.decode(try XCTUnwrap(agent.pollTransmit()).payload)
        XCTAssertEqual(answer.messageClass, .errorResponse)
        XCTAssertEqual(answer.errorCode?.code, 401)
        XCTAssertEqual(agent.stats.dropped, 1)
        XCTAssertEqual(agent.stats.requestsReceived, 0)
        XCTAssertTrue(agent.remoteCandidates.isEmpty)
    }

    func testUnknownComprehensionRequiredAttributeGets420ListingIt() throws {
        var agent = IceAgent(role: .controlled, localCredentials: Setup.credentialsB, tieBreaker: 1)
        agent.addLocalHost(Setup.addressB)
        let request = StunMessage(method: .binding, messageClass: .request, transactionID: TransactionID(high: 1, low: 3),
                                  attributes: [.username("bbbb:aaaa"), .other(type: 0x7ABC, value: [1])])
        let key = StunKey.shortTerm(password: Setup.credentialsB.pwd)
        agent.handle(request.encode(integrityKey: key, fingerprint: true), from: Setup.addressA, to: Setup.addressB, now: .zero)
        let answer = try StunMessage.decode(try XCTUnwrap(agent.pollTransmit()).payload)
        XCTAssertEqual(answer.errorCode?.code, 420)
        XCTAssertEqual(answer.first(StunAttribute.TypeCode.unknownAttributes), .unknownAttributes([0x7ABC]))
        XCTAssertTrue(answer.verifyIntegrity(key: key))
        XCTAssertTrue(agent.remoteCandidates.isEmpty)
    }

    func testAuthenticatedRequestFromUnknownAddressMakesPeerReflexiveCandidate() throws {
        var agent = IceAgent(role: .controlled, localCredentials: Setup.credentialsB, tieBreaker: 1)
        agent.addLocalHost(Setup.addressB)
        let request = StunMessage(method: .binding, messageClass: .request, transactionID: TransactionID(high: 1, low: 2),
                                  attributes: [.username("bbbb:aaaa"), .priority(1_862_270_975), .iceControlling(9)])
        let key = StunKey.shortTerm(password: Setup.credentialsB.pwd)
        agent.handle(request.encode(integrityKey: key, fingerprint: true), from: Setup.addressA, to: Setup.addressB, now: .zero)
        let answer = try StunMessage.decode(try XCTUnwrap(agent.pollTransmit()).payload)
        XCTAssertEqual(answer.messageClass, .successResponse)
        XCTAssertEqual(answer.mappedAddress, Setup.addressA)
        XCTAssertTrue(answer.verifyIntegrity(key: key))
        XCTAssertEqual(agent.remoteCandidates.first?.type, .prflx)
        XCTAssertEqual(agent.remoteCandidates.first?.priority, 1_862_270_975)
        // The triggered check waits for the remote credentials, then goes out at once.
        XCTAssertNil(agent.pollTimeout())
        agent.setRemoteCredentials(Setup.credentialsA)
        XCTAssertEqual(agent.pollTimeout(), .zero)
        agent.handleTimeout(now: .zero)
        let check = try StunMessage.decode(try XCTUnwrap(agent.pollTransmit()).payload)
        XCTAssertEqual(check.username, "aaaa:bbbb")
        XCTAssertEqual(check.iceControlled, 1)
        XCTAssertTrue(check.verifyIntegrity(key: StunKey.shortTerm(password: Setup.credentialsA.pwd)))
    }

    func testAgentSurvivesHundredThousandMutatedDatagrams() {
        var agent = IceAgent(role: .controlled, localCredentials: Setup.credentialsB, tieBreaker: 1)
        agent.addLocalHost(Setup.addressB)
        agent.setRemoteCredentials(Setup.credentialsA)
        let key = StunKey.shortTerm(password: Setup.credentialsB.pwd)
        let id = TransactionID(high: 3, low: 3)
        let seeds = [
            StunMessage(method: .binding, messageClass: .request, transactionID: id,
                        attributes: [.username("bbbb:aaaa"), .priority(5), .iceControlling(9), .useCandidate])
                .encode(integrityKey: key, fingerprint: true),
            StunMessage(method: .binding, messageClass: .successResponse, transactionID: id,
                        attributes: [.xorMappedAddress(Setup.addressB)]).encode(integrityKey: key, fingerprint: true),
        ]
        var fuzzer = Fuzzer(seeds: seeds, seed: 0x1CE, maxLength: 200)
        var now = Instant.zero
        fuzzer.run(iterations: 100_000) { input in
            now += .microseconds(100)
            agent.handle(input, from: Setup.addressA, to: Setup.addressB, now: now)
            if let timeout = agent.pollTimeout(), timeout <= now { agent.handleTimeout(now: now) }
            while agent.pollTransmit() != nil {}
            while agent.pollEvent() != nil {}
        }
        XCTAssertGreaterThan(agent.stats.dropped, 50_000)
    }
}
