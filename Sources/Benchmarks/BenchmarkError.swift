/// A benchmark that could not produce its figure, and why.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
