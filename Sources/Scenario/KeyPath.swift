/// Turns Swift property names into the snake_case keys scenario files use
/// (`bitrateKbps` -> `bitrate_kbps`), and coding paths into `groups[1].media` text.
enum ScenarioKeys {
    static func snakeCase(_ name: String) -> String {
        var output = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                    output.append("_")
                }
            }
            output.append(contentsOf: character.lowercased())
        }
        return output
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + snakeCase(key.stringValue)
            }
        }
        return text
    }
}

/// A coding key made at run time (array indices, dictionary keys).
struct DynamicKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
