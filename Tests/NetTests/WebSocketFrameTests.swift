import Net
import RTCBase
import XCTest

final class WebSocketFrameTests: XCTestCase {
    func testBase64MatchesRFC4648Vectors() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64.encode(Array(plain.utf8)), encoded)
            XCTAssertEqual(Base64.decode(encoded), Array(plain.utf8))
        }
        XCTAssertNil(Base64.decode("Zm9"))  // not a multiple of 4
        XCTAssertNil(Base64.decode("Zm9v!A=="))
        XCTAssertNil(Base64.decode("Z==="))
    }

    func testAcceptValueMatchesRFC6455Section1_3() {
        XCTAssertEqual(WebSocketHandshake.acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    func encode(_ frame: WebSocketFrame) -> [UInt8] {
        var out: [UInt8] = []
        frame.write(into: &out)
        return out
    }

    func testFramesMatchRFC6455Section5_7Examples() {
        let hello = Array("Hello".utf8)
        // FIN=1 opcode=1 (text), MASK=0 len=5, "Hello"
        XCTAssertEqual(encode(WebSocketFrame(opcode: .text, payload: hello)), [0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f])
        // FIN=1 opcode=1, MASK=1 len=5, key 37 fa 21 3d, masked "Hello"
        XCTAssertEqual(encode(WebSocketFrame(opcode: .text, maskingKey: 0x37fa_213d, payload: hello)),
                       [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
        // FIN=0 opcode=1 "Hel", then FIN=1 opcode=0 (continuation) "lo"
        XCTAssertEqual(encode(WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8))), [0x01, 0x03, 0x48, 0x65, 0x6c])
        XCTAssertEqual(encode(WebSocketFrame(opcode: .continuation, payload: Array("lo".utf8))), [0x80, 0x02, 0x6c, 0x6f])
        // FIN=1 opcode=9 (ping) "Hello"; FIN=1 opcode=A (pong) masked "Hello"
        XCTAssertEqual(encode(WebSocketFrame(opcode: .ping, payload: hello)), [0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f])
        XCTAssertEqual(encode(WebSocketFrame(opcode: .pong, maskingKey: 0x37fa_213d, payload: hello)),
                       [0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
        // 256 bytes binary: len=126 then 16-bit length 0x0100
        XCTAssertEqual(Array(encode(WebSocketFrame(opcode: .binary, payload: Array(repeating: 0, count: 256))).prefix(4)),
                       [0x82, 0x7e, 0x01, 0x00])
        // 64 KiB binary: len=127 then 64-bit length 0x10000
        XCTAssertEqual(Array(encode(WebSocketFrame(opcode: .binary, payload: Array(repeating: 0, count: 65536))).prefix(10)),
                       [0x82, 0x7f, 0, 0, 0, 0, 0, 1, 0, 0])
    }

    func testDecoderReadsEachLengthFormSplitAtEveryByte() throws {
        var wire: [UInt8] = []
        let payloads = [Array(repeating: UInt8(1), count: 125), Array(repeating: 2, count: 126),
                        Array(repeating: 3, count: 65535), Array(repeating: 4, count: 65536)]
        for (index, payload) in payloads.enumerated() {
            WebSocketFrame(opcode: .binary, maskingKey: UInt32(index + 1) * 0x0101_0101, payload: payload).write(into: &wire)
        }
        var decoder = WebSocketFrameDecoder(expectMasked: true, maxFrameSize: 1 << 20)
        var frames: [WebSocketFrame] = []
        for byte in wire {
            decoder.append([byte])
            while let frame = try decoder.next() { frames.append(frame) }
        }
        XCTAssertEqual(frames.map(\.payload), payloads)
        XCTAssertEqual(frames.map(\.maskingKey), [0x0101_0101, 0x0202_0202, 0x0303_0303, 0x0404_0404])
        XCTAssertEqual(decoder.bufferedBytes, 0)
    }

    func testDecoderRejectsWhatOneFrameCanBreak() {
        let cases: [([UInt8], Bool, UInt16)] = [
            ([0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f], true, 1002),  // unmasked frame at a server
            ([0x81, 0x85, 0, 0, 0, 0, 0, 0, 0, 0, 0], false, 1002),  // masked frame at a client
            ([0xc1, 0x00], false, 1002),  // RSV1 set, no extension
            ([0x83, 0x00], false, 1002),  // reserved opcode 3
            ([0x09, 0x00], false, 1002),  // ping without FIN
            ([0x89, 0x7e, 0x00, 0x7e], false, 1002),  // ping of 126 bytes
            ([0x82, 0x7f, 0x80, 0, 0, 0, 0, 0, 0, 0], false, 1002),  // 64-bit length, top bit set
            ([0x82, 0x7f, 0, 0, 0, 0, 0, 1, 0, 1], false, 1009),  // 65537 bytes > max 65536
        ]
        for (bytes, masked, code) in cases {
            var decoder = WebSocketFrameDecoder(expectMasked: masked, maxFrameSize: 65536)
            decoder.append(bytes)
            XCTAssertThrowsError(try decoder.next(), "\(bytes)") { XCTAssertEqual(($0 as? WebSocketError)?.closeCode, code) }
        }
    }
}
