extension Scenario {
    /// The scenario name as a report folder's name: ASCII letters, digits, `-`, `_` and
    /// `.` are kept, anything else (a `/`, a space) becomes `-`, and leading dots are
    /// dropped, so no name reaches outside `Reports/`, nests folders or hides one.
    public static func folderSafeName(_ name: String) -> String {
        let kept = String(name.unicodeScalars.map { scalar -> Character in
            let allowed = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar))
            return allowed ? Character(scalar) : "-"
        })
        let visible = String(kept.drop { $0 == "." })
        return visible.isEmpty ? "run" : visible
    }
}
