extension Threshold {
    /// Parses `<metric>[.<statistic>] <operator> <number>`; the error names the token at
    /// fault and lists what is allowed there.
    public init(parsing text: String) throws(ThresholdError) {
        var scanner = Scanner(text)
        do throws(ThresholdError) {
            let addressText = scanner.take { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
            guard !addressText.isEmpty else {
                throw ThresholdError(
                    scanner.atEnd
                        ? "empty; expected '<metric> <operator> <number>', such as 'setup_ms.p95 < 500'"
                        : "expected a metric name, got '\(scanner.word())'")
            }
            let address = try MetricAddress(parsing: addressText)
            let operators = Comparison.allCases.map(\.rawValue).joined(separator: " ")
            let operatorText = scanner.take { "<>=!".contains($0) }
            guard !operatorText.isEmpty else {
                throw ThresholdError("expected an operator (\(operators)) after '\(addressText)', got \(scanner.quotedWord())")
            }
            guard let comparison = Comparison(rawValue: operatorText) else {
                throw ThresholdError("unknown operator '\(operatorText)'; allowed: \(operators)")
            }
            let numberText = scanner.word()
            guard let limit = Double(numberText), limit.isFinite else {
                throw ThresholdError(
                    "expected a number after '\(operatorText)', got \(numberText.isEmpty ? "the end" : "'\(numberText)'")")
            }
            guard scanner.atEnd else {
                throw ThresholdError("unexpected \(scanner.quotedWord()) after '\(numberText)'")
            }
            self.init(address, comparison, limit)
        } catch {
            throw ThresholdError(error.message, expression: text)
        }
    }
}

/// Reads a threshold left to right, skipping spaces between tokens.
private struct Scanner {
    private let characters: [Character]
    private var position = 0

    init(_ text: String) { characters = Array(text) }

    var atEnd: Bool {
        mutating get {
            skipSpaces()
            return position == characters.count
        }
    }

    /// The longest run of characters matching `accept` (after spaces).
    mutating func take(while accept: (Character) -> Bool) -> String {
        skipSpaces()
        let start = position
        while position < characters.count, accept(characters[position]) { position += 1 }
        return String(characters[start..<position])
    }

    /// Everything up to the next space.
    mutating func word() -> String { take { !$0.isWhitespace } }

    /// The next word in quotes, or "the end".
    mutating func quotedWord() -> String {
        let next = word()
        return next.isEmpty ? "the end" : "'\(next)'"
    }

    private mutating func skipSpaces() {
        while position < characters.count, characters[position].isWhitespace { position += 1 }
    }
}
