import Scenario
import XCTest

/// A Janus target's URL picks the transport: `http(s)://` the REST API with a long poll,
/// `ws(s)://` the WebSocket API; anything else is refused naming all four.
final class JanusTargetURLTests: XCTestCase {
    private func load(url: String) -> String? {
        let text = """
        { name: "j", duration_s: 5,
          target: { kind: "janus", url: "\(url)", janus: { plugin: "echotest" } },
          groups: [{ role: "echo", count: 1 }] }
        """
        do {
            _ = try ScenarioLoader.load(text: text)
            return nil
        } catch {
            return error.description
        }
    }

    func testHTTPAndWebSocketURLsAreAcceptedAndOthersRefused() {
        for url in ["http://127.0.0.1:8088/janus", "https://janus.example/janus", "ws://127.0.0.1:8188", "wss://janus.example:8989/"] {
            XCTAssertNil(load(url: url), url)
        }
        XCTAssertEqual(load(url: "ftp://127.0.0.1:8188"), "target.url: \"ftp://127.0.0.1:8188\" must start with http:// or https:// or ws:// or wss://")
    }
}
