import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One blocking HTTP GET for tests that read a server the test started on 127.0.0.1.
enum HTTPGet {
    struct Answer: Sendable {
        var status: Int
        var contentType: String
        var body: String
    }

    /// What the URLSession callback hands back to the waiting test thread (after `signal`).
    private final class Box: @unchecked Sendable {
        var answer: Answer?
    }

    /// The answer, or nil when nothing answered (not listening yet, or any error).
    static func fetch(_ url: String) -> Answer? {
        guard let url = URL(string: url) else { return nil }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: url) { data, response, _ in
            if let http = response as? HTTPURLResponse, let data {
                box.answer = Answer(status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type") ?? "",
                                    body: String(decoding: data, as: UTF8.self))
            }
            done.signal()
        }.resume()
        done.wait()
        return box.answer
    }
}
