import Foundation
import Report
import RTCBase

extension BrowserStats {
    /// Reads the `stats` object a browser page sent in a room message; its keys are this
    /// type's fields.
    init(json: JSONValue) throws {
        self = try JSONDecoder().decode(BrowserStats.self, from: Data(json.serialized.utf8))
    }
}
