import RTCBase
/// `--set path=value` on the command line: changes one field of the parsed file before it
/// is checked. `groups[0].count=50`, `target.url=http://127.0.0.1:1985`,
/// `groups[1].media.video.codec=h264`. The value is read as JSON5 when it parses as a
/// number, boolean, null, list or object, and as a string otherwise.
public enum Overrides {
    public static func apply(_ assignments: [String], to document: JSONValue) throws(ScenarioError) -> JSONValue {
        var result = document
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw ScenarioError(path: "--set \(assignment)", "expected PATH=VALUE, e.g. --set groups[0].count=50")
            }
            let path = String(assignment[..<equals])
            let text = String(assignment[assignment.index(after: equals)...])
            let value = (try? JSON5Parser.parse(text)) ?? .string(text)
            let steps = try parse(path: path)
            result = try set(value, at: steps[...], in: result, fullPath: path)
        }
        return result
    }

    enum Step: Equatable {
        case key(String)
        case index(Int)
    }

    static func parse(path: String) throws(ScenarioError) -> [Step] {
        var steps: [Step] = []
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            let name = rest.prefix { $0 != "[" }
            guard !name.isEmpty else { throw ScenarioError(path: path, "empty key in --set path") }
            steps.append(.key(String(name)))
            rest = rest.dropFirst(name.count)
            while rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]"), let index = Int(rest[rest.index(after: rest.startIndex)..<close]), index >= 0 else {
                    throw ScenarioError(path: path, "malformed index in --set path; write e.g. groups[0].count")
                }
                steps.append(.index(index))
                rest = rest[rest.index(after: close)...]
            }
            guard rest.isEmpty else { throw ScenarioError(path: path, "unexpected \"\(rest)\" in --set path") }
        }
        return steps
    }

    private static func set(_ value: JSONValue, at steps: ArraySlice<Step>, in node: JSONValue, fullPath: String) throws(ScenarioError) -> JSONValue {
        guard let step = steps.first else { return value }
        switch step {
        case .key(let key):
            var members: [JSONValue.Member]
            switch node {
            case .object(let existing): members = existing
            case .null: members = []
            default: throw ScenarioError(path: fullPath, "--set goes through \"\(key)\" but that part of the file is \(node.kindName), not an object")
            }
            if let position = members.lastIndex(where: { $0.key == key }) {
                members[position].value = try set(value, at: steps.dropFirst(), in: members[position].value, fullPath: fullPath)
            } else {
                members.append(JSONValue.Member(key, try set(value, at: steps.dropFirst(), in: .null, fullPath: fullPath)))
            }
            return .object(members)
        case .index(let index):
            guard case .array(var elements) = node else {
                throw ScenarioError(path: fullPath, "--set uses an index but that part of the file is \(node.kindName), not a list")
            }
            guard index < elements.count else {
                throw ScenarioError(path: fullPath, "index \(index) is past the end of a list of \(elements.count)")
            }
            elements[index] = try set(value, at: steps.dropFirst(), in: elements[index], fullPath: fullPath)
            return .array(elements)
        }
    }
}
