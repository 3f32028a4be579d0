extension JSONValue {
    /// How a value is described in messages: `"vp10"`, `12`, `an object`.
    public var shortDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .integer(let value): return String(value)
        case .double(let value): return JSONValue.format(value)
        case .string(let value): return "\"\(value)\""
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    /// The kind of value, for "expected X, found Y" messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "true/false"
        case .integer, .double: return "a number"
        case .string: return "a string"
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    /// A number as a person writes it: `-1`, `2.5`.
    public static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
