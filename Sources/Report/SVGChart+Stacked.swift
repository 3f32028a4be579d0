extension SVGChart {
    /// One stacked column: its label and its segments, bottom first.
    struct Stack {
        let label: String
        let segments: [(name: String, value: Double)]
    }

    /// Stacked columns side by side with a legend of the segments (the same segment
    /// names in every column, one colour each); nil without data.
    static func stacked(title: String, yLabel: String, stacks: [Stack]) -> String? {
        let totals = stacks.map { $0.segments.reduce(0) { $0 + max(0, $1.value) } }
        guard !stacks.isEmpty, totals.contains(where: { $0 > 0 }) else { return nil }
        let yRange = niceRange(totals + [0])
        var body = axes(title: title, xLabel: "", yLabel: yLabel, xRange: nil, yRange: yRange)
        let legendWidth = 120.0
        let slot = (width - margin.left - margin.right - legendWidth) / Double(stacks.count)
        let names = stacks.flatMap { $0.segments.map(\.name) }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for (column, stack) in stacks.enumerated() {
            let x = margin.left + slot * Double(column) + slot * 0.2
            var base = 0.0
            for segment in stack.segments where segment.value > 0 {
                let color = palette[(names.firstIndex(of: segment.name) ?? 0) % palette.count]
                let top = yPosition(base + segment.value, yRange)
                body += "<rect class=\"segment\" x=\"\(fmt(x))\" y=\"\(fmt(top))\" width=\"\(fmt(slot * 0.6))\" height=\"\(fmt(yPosition(base, yRange) - top))\" fill=\"\(color)\"><title>\(Format.escape("\(stack.label) \(segment.name): \(Format.number(segment.value))"))</title></rect>"
                base += segment.value
            }
            body += "<text x=\"\(fmt(x + slot * 0.3))\" y=\"\(fmt(height - margin.bottom + 14))\" text-anchor=\"middle\" font-size=\"10\">\(Format.escape(stack.label))</text>"
            body += "<text x=\"\(fmt(x + slot * 0.3))\" y=\"\(fmt(yPosition(base, yRange) - 3))\" text-anchor=\"middle\" font-size=\"10\">\(Format.number(base))</text>"
        }
        for (index, name) in names.enumerated() {
            let y = margin.top + 14 + Double(index) * 14
            body += "<rect x=\"\(fmt(width - margin.right - legendWidth + 8))\" y=\"\(fmt(y - 9))\" width=\"10\" height=\"10\" fill=\"\(palette[index % palette.count])\"/>"
            body += "<text x=\"\(fmt(width - margin.right - legendWidth + 22))\" y=\"\(fmt(y))\" font-size=\"11\">\(Format.escape(name))</text>"
        }
        return wrap(body)
    }
}
