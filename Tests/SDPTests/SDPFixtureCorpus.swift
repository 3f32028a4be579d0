import Foundation
import WebRTCTestKit

/// Every SDP captured from real stacks in Tests/Fixtures: plain `.sdp` files, the `sdp`
/// fields of SRS's JSON requests and responses, SDP bodies of SRS's WHIP/WHEP responses
/// and the `jsep.sdp` of Janus's `.jsonl` logs.
enum SDPFixtureCorpus {
    static let sdpFiles = [
        "aiortc/offer-recvonly-default-codecs.sdp", "aiortc/offer-sendonly-h264-opus.sdp",
        "aiortc/offer-sendrecv-vp8-opus.sdp",
        "chromium/offer-av1-only.sdp", "chromium/offer-h264-only.sdp", "chromium/offer-vp8-only.sdp",
        "chromium/offer-vp9-only.sdp", "chromium/pair-answer.sdp", "chromium/pair-offer-before-gathering.sdp",
        "chromium/pair-offer.sdp", "srs/whip.request.sdp", "srs/whep.request.sdp",
        "pion/echo-answer-h264.sdp",
    ]
    static let jsonFiles = [
        "srs/publish.request.json", "srs/play.request.json", "srs/error-busy-stream.request.json",
        "srs/error-vp8-only.request.json", "srs/error-no-msid-ssrc.request.json",
    ]
    static let httpFiles = [
        "srs/publish.response.http", "srs/play.response.http", "srs/whep.response.http",
        "srs/whip.response.http", "srs/error-no-msid-ssrc.response.http",
    ]
    static let jsonlFiles = ["janus/echo-vp8.jsonl", "janus/echo-h264.jsonl", "janus/videoroom.jsonl"]

    /// (name, SDP text) for every capture; names are `<file>` or `<file>#<index>`.
    static func all() throws -> [(name: String, text: String)] {
        var result: [(String, String)] = []
        for file in sdpFiles { result.append((file, try Fixtures.text(file))) }
        for file in jsonFiles { result += try sdps(inJSON: Fixtures.bytes(file), name: file) }
        for file in httpFiles {
            let body = try httpBody(file)
            if body.first == UInt8(ascii: "{") {
                result += try sdps(inJSON: body, name: file)
            } else {
                result.append((file, String(decoding: body, as: UTF8.self)))
            }
        }
        for file in jsonlFiles {
            for (index, line) in try Fixtures.text(file).split(separator: "\n").enumerated() {
                result += try sdps(inJSON: Array(line.utf8), name: "\(file):\(index + 1)")
            }
        }
        return result
    }

    /// The SDP of one fixture: a `.sdp` file, or the only SDP inside a JSON/HTTP file.
    static func sdp(_ name: String) throws -> String {
        guard let match = try all().first(where: { $0.name == name || $0.name == name + "#0" }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
        }
        return match.text
    }

    /// SDPs of a Janus log, in order.
    static func janus(_ file: String) throws -> [String] {
        try all().filter { $0.name.hasPrefix(file + ":") }.map(\.text)
    }

    /// The body after the blank line of a raw HTTP message.
    static func httpBody(_ file: String) throws -> [UInt8] {
        let bytes = try Fixtures.bytes(file)
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let range = bytes.firstRange(of: separator) else { return [] }
        return Array(bytes[range.upperBound...])
    }

    private static func sdps(inJSON bytes: [UInt8], name: String) throws -> [(String, String)] {
        var found: [String] = []
        collect(try JSONSerialization.jsonObject(with: Data(bytes)), into: &found)
        return found.enumerated().map { ("\(name)#\($0.offset)", $0.element) }
    }

    private static func collect(_ object: Any, into found: inout [String]) {
        if let dictionary = object as? [String: Any] {
            for key in dictionary.keys.sorted() {
                if key == "sdp", let text = dictionary[key] as? String { found.append(text) }
                else if let value = dictionary[key] { collect(value, into: &found) }
            }
        } else if let array = object as? [Any] {
            for value in array { collect(value, into: &found) }
        }
    }
}
