import Net
import RTCBase
import WebRTCTestKit
import XCTest

final class WebSocketFuzzTests: XCTestCase {
    func testFrameParsingSurvivesFuzzing() {
        var seeds: [[UInt8]] = []
        for (opcode, masked) in [(WebSocketFrame.Opcode.text, true), (.binary, true), (.close, true), (.ping, true)] {
            var wire: [UInt8] = []
            WebSocketFrame(fin: opcode != .text, opcode: opcode, maskingKey: masked ? 0x1234_5678 : nil,
                           payload: opcode == .close ? WebSocketFrame.closePayload(code: 1000, reason: "x") : Array("héllo".utf8))
                .write(into: &wire)
            WebSocketFrame(opcode: .continuation, maskingKey: 0x0a0b_0c0d, payload: Array(repeating: 0x41, count: 130)).write(into: &wire)
            seeds.append(wire)
        }
        var fuzzer = Fuzzer(seeds: seeds, seed: 3, maxLength: 400)
        var messages = 0
        var closes = 0
        fuzzer.run(iterations: 100_000) { input in
            var server = WebSocketConnection(role: .server, maxMessageSize: 256)
            server.handle(input, now: .zero)
            while let event = server.pollEvent() {
                if case .closed = event { closes += 1 } else { messages += 1 }
            }
            var decoder = WebSocketFrameDecoder(expectMasked: false, maxFrameSize: 256)
            decoder.append(input)
            while let _ = try? decoder.next() {}
        }
        XCTAssertGreaterThan(messages, 1_000)
        XCTAssertGreaterThan(closes, 1_000)
    }
}
