import RTCBase
/// Decodes `Decodable` models from a `JSONValue` the way a scenario needs:
/// snake_case keys, messages that name the field and what it allows, and a list of every
/// key the model asked for, so that keys it never asked for are reported as unknown
/// (JSONDecoder silently ignores them).
final class StrictDecoding {
    /// For every object the model decoded (by path), the keys it asked for.
    private(set) var requestedKeys: [String: Set<String>] = [:]
    /// Objects decoded as free-form dictionaries: every key is fine.
    private(set) var dictionaryPaths: Set<String> = []

    func noteRequested(_ key: String, at path: String) { requestedKeys[path, default: []].insert(key) }
    func noteObject(at path: String) { if requestedKeys[path] == nil { requestedKeys[path] = [] } }
    func noteDictionary(at path: String) { dictionaryPaths.insert(path) }

    /// Decodes `type` from `value`, then rejects any key the model never asked for.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(ScenarioError) -> (T, StrictDecoding) {
        let state = StrictDecoding()
        let decoded: T
        do {
            decoded = try T(from: ValueDecoder(value: value, codingPath: [], state: state))
        } catch let error as ScenarioError {
            throw error
        } catch {
            throw ScenarioError(path: "", "\(error)")
        }
        try state.rejectUnknownKeys(in: value, path: "")
        return (decoded, state)
    }

    private func rejectUnknownKeys(in value: JSONValue, path: String) throws(ScenarioError) {
        switch value {
        case .object(let members):
            guard !dictionaryPaths.contains(path) else { return }
            guard let known = requestedKeys[path] else { return }
            for member in members where !known.contains(member.key) {
                throw Self.unknownKey(member.key, at: path, known: known)
            }
            for member in members {
                try rejectUnknownKeys(in: member.value, path: path.isEmpty ? member.key : "\(path).\(member.key)")
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                try rejectUnknownKeys(in: element, path: "\(path)[\(index)]")
            }
        default:
            return
        }
    }

    static func unknownKey(_ key: String, at path: String, known: Set<String>) -> ScenarioError {
        let full = path.isEmpty ? key : "\(path).\(key)"
        let allowed = known.sorted().joined(separator: ", ")
        if let suggestion = closest(to: key, in: known) {
            return ScenarioError(path: full, "unknown key; did you mean \"\(suggestion)\"? (allowed here: \(allowed))")
        }
        return ScenarioError(path: full, "unknown key (allowed here: \(allowed))")
    }
}

struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let state: StrictDecoding
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    var path: String { ScenarioKeys.path(codingPath) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw ScenarioError(path: path, "expected an object, found \(value.kindName)")
        }
        state.noteObject(at: path)
        return KeyedDecodingContainer(ObjectContainer<Key>(members: members, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw ScenarioError(path: path, "expected a list, found \(value.kindName)")
        }
        return ArrayContainer(elements: elements, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValue(decoder: self) }

    func child(_ value: JSONValue, key: any CodingKey) -> ValueDecoder {
        ValueDecoder(value: value, codingPath: codingPath + [key], state: state)
    }

    /// Decodes any value, giving scalars and string enumerations clear messages.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if let allowed = T.self as? any AllowedValues.Type {
            return try decodeAllowed(allowed) as! T
        }
        switch type {
        case is Bool.Type: return try decodeBool() as! T
        case is String.Type: return try decodeString() as! T
        case is Double.Type: return try decodeDouble() as! T
        case is Int.Type: return try decodeInteger(Int.self) as! T
        case is Int64.Type: return try decodeInteger(Int64.self) as! T
        case is UInt64.Type: return try decodeInteger(UInt64.self) as! T
        case is UInt32.Type: return try decodeInteger(UInt32.self) as! T
        case is UInt16.Type: return try decodeInteger(UInt16.self) as! T
        default:
            do {
                return try T(from: self)
            } catch let error as ScenarioError {
                throw error
            } catch let DecodingError.dataCorrupted(context) {
                // Nested models may start their message with the field name; the path has it.
                let path = ScenarioKeys.path(context.codingPath)
                let field = path.split(separator: ".").last.map { "\($0): " } ?? ""
                let message = context.debugDescription.hasPrefix(field) ? String(context.debugDescription.dropFirst(field.count))
                    : context.debugDescription
                throw ScenarioError(path: path, message)
            } catch {
                throw ScenarioError(path: path, "\(error)")
            }
        }
    }

    private func decodeAllowed<A: AllowedValues>(_ type: A.Type) throws -> A {
        let text = try decodeString()
        guard let match = A(rawValue: text) else {
            let hint = closest(to: text, in: A.allCases.map(\.rawValue)).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw ScenarioError(path: path, "\"\(text)\" is not one of \(A.allowedList)\(hint)")
        }
        return match
    }

    func decodeBool() throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch("true or false") }
        return flag
    }

    func decodeString() throws -> String {
        guard case .string(let text) = value else { throw mismatch("a string") }
        return text
    }

    func decodeDouble() throws -> Double {
        switch value {
        case .integer(let number): return Double(number)
        case .double(let number) where number.isFinite: return number
        default: throw mismatch("a number")
        }
    }

    func decodeInteger<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        switch value {
        case .integer(let number):
            guard let exact = I(exactly: number) else { throw outOfRange(I.self) }
            return exact
        case .double(let number) where number.isFinite && number.rounded() == number:
            guard let exact = I(exactly: number) else { throw outOfRange(I.self) }
            return exact
        default:
            throw mismatch("a whole number")
        }
    }

    private func mismatch(_ expected: String) -> ScenarioError {
        ScenarioError(path: path, "expected \(expected), found \(value.shortDescription)")
    }

    /// Names the field's own range when it has one (`IntegerLimits`), else the type's.
    private func outOfRange<I: FixedWidthInteger>(_ type: I.Type) -> ScenarioError {
        if let range = IntegerLimits.byField[ScenarioLoader.generic(path)] {
            return ScenarioError(path: path, IntegerLimits.outside(value.shortDescription, range))
        }
        return ScenarioError(path: path, "\(value.shortDescription) is out of range (\(I.min) to \(I.max))")
    }
}

private struct ObjectContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [JSONValue.Member]
    let decoder: ValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        decoder.state.noteDictionary(at: decoder.path)
        return members.compactMap { Key(stringValue: $0.key) }
    }

    private func jsonKey(_ key: Key) -> String {
        let name = ScenarioKeys.snakeCase(key.stringValue)
        decoder.state.noteRequested(name, at: decoder.path)
        return name
    }

    private func member(_ key: Key) -> JSONValue? {
        let name = jsonKey(key)
        return members.last { $0.key == name }?.value
    }

    func contains(_ key: Key) -> Bool { member(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let value = member(key) else { return true }
        return value == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let value = member(key) else {
            let name = jsonKey(key)
            let known = decoder.state.requestedKeys[decoder.path] ?? []
            let strays = members.map(\.key).filter { !known.contains($0) }
            if let typo = strays.first(where: { closest(to: $0, in: [name]) != nil }) {
                let full = decoder.path.isEmpty ? typo : "\(decoder.path).\(typo)"
                throw ScenarioError(path: full, "unknown key; did you mean \"\(name)\"?")
            }
            throw ScenarioError(path: decoder.path, "missing required key \"\(name)\"")
        }
        return try decoder.child(value, key: key).decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(member(key) ?? .null, key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(member(key) ?? .null, key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder.child(member(key) ?? .null, key: key) }
}

private struct ArrayContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let decoder: ValueDecoder
    var currentIndex = 0
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> ValueDecoder {
        guard !isAtEnd else { throw ScenarioError(path: decoder.path, "list ended early") }
        defer { currentIndex += 1 }
        return decoder.child(elements[currentIndex], key: DynamicKey(intValue: currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct SingleValue: SingleValueDecodingContainer {
    let decoder: ValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}
