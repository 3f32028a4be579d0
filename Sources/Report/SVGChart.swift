import Foundation

/// Small self-contained SVG charts for `report.html`: no script, no external files.
enum SVGChart {
    struct Series {
        let name: String
        let points: [(x: Double, y: Double)]
    }

    /// A vertical line at `x` with its label: a timeline action on a time-series chart.
    struct Marker: Equatable {
        let x: Double
        let label: String
    }

    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]
    static let width = 640.0
    static let height = 260.0
    static let margin = (left: 56.0, right: 16.0, top: 28.0, bottom: 40.0)

    /// A line chart of one or more series, with labelled axes, a legend and `markers`
    /// (dashed, labelled at the top); nil without data.
    static func lines(title: String, xLabel: String, markers: [Marker] = [], yLabel: String, series: [Series]) -> String? {
        let all = series.flatMap(\.points)
        guard !all.isEmpty else { return nil }
        let xRange = niceRange(all.map(\.x) + markers.map(\.x))
        let yRange = niceRange(all.map(\.y))
        var body = axes(title: title, xLabel: xLabel, yLabel: yLabel, xRange: xRange, yRange: yRange)
        for marker in markers {
            let x = fmt(xPosition(marker.x, xRange))
            body += "<line class=\"marker\" x1=\"\(x)\" y1=\"\(fmt(margin.top))\" x2=\"\(x)\" y2=\"\(fmt(height - margin.bottom))\" stroke=\"#777\" stroke-dasharray=\"4 3\"/>"
            body += "<text x=\"\(x)\" y=\"\(fmt(margin.top - 2))\" text-anchor=\"middle\" font-size=\"9\" fill=\"#555\">\(Format.escape(marker.label))</text>"
        }
        for (index, item) in series.enumerated() where !item.points.isEmpty {
            let color = palette[index % palette.count]
            let points = item.points.map { "\(fmt(xPosition($0.x, xRange))),\(fmt(yPosition($0.y, yRange)))" }.joined(separator: " ")
            body += "<polyline class=\"series\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(points)\"/>"
            body += "<text x=\"\(fmt(width - margin.right - 4))\" y=\"\(fmt(margin.top + 14 + Double(index) * 14))\" text-anchor=\"end\" fill=\"\(color)\" font-size=\"11\">\(Format.escape(item.name))</text>"
        }
        return wrap(body)
    }

    /// A vertical bar chart; nil without data.
    static func bars(title: String, yLabel: String, bars: [(label: String, value: Double)]) -> String? {
        guard !bars.isEmpty else { return nil }
        let yRange = niceRange(bars.map(\.value) + [0])
        var body = axes(title: title, xLabel: "", yLabel: yLabel, xRange: nil, yRange: yRange)
        let plotWidth = width - margin.left - margin.right
        let slot = plotWidth / Double(bars.count)
        for (index, bar) in bars.enumerated() {
            let x = margin.left + slot * Double(index) + slot * 0.15
            let top = yPosition(bar.value, yRange)
            let color = palette[index % palette.count]
            body += "<rect class=\"bar\" x=\"\(fmt(x))\" y=\"\(fmt(top))\" width=\"\(fmt(slot * 0.7))\" height=\"\(fmt(max(0, height - margin.bottom - top)))\" fill=\"\(color)\"/>"
            body += "<text x=\"\(fmt(x + slot * 0.35))\" y=\"\(fmt(height - margin.bottom + 14))\" text-anchor=\"middle\" font-size=\"10\">\(Format.escape(bar.label))</text>"
            body += "<text x=\"\(fmt(x + slot * 0.35))\" y=\"\(fmt(top - 3))\" text-anchor=\"middle\" font-size=\"10\">\(Format.number(bar.value))</text>"
        }
        return wrap(body)
    }

    static func wrap(_ body: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\">\(body)</svg>"
    }

    static func axes(title: String, xLabel: String, yLabel: String, xRange: ClosedRange<Double>?, yRange: ClosedRange<Double>) -> String {
        let left = margin.left, bottom = height - margin.bottom, right = width - margin.right
        var svg = "<text x=\"\(fmt(width / 2))\" y=\"18\" text-anchor=\"middle\" font-weight=\"bold\" font-size=\"13\">\(Format.escape(title))</text>"
        svg += "<line x1=\"\(fmt(left))\" y1=\"\(fmt(bottom))\" x2=\"\(fmt(right))\" y2=\"\(fmt(bottom))\" stroke=\"#333\"/>"
        svg += "<line x1=\"\(fmt(left))\" y1=\"\(fmt(margin.top))\" x2=\"\(fmt(left))\" y2=\"\(fmt(bottom))\" stroke=\"#333\"/>"
        for step in 0...4 {
            let value = yRange.lowerBound + (yRange.upperBound - yRange.lowerBound) * Double(step) / 4
            let y = yPosition(value, yRange)
            svg += "<line x1=\"\(fmt(left))\" y1=\"\(fmt(y))\" x2=\"\(fmt(right))\" y2=\"\(fmt(y))\" stroke=\"#eee\"/>"
            svg += "<text x=\"\(fmt(left - 4))\" y=\"\(fmt(y + 4))\" text-anchor=\"end\" font-size=\"10\">\(Format.number(value))</text>"
        }
        if let xRange {
            for step in 0...4 {
                let value = xRange.lowerBound + (xRange.upperBound - xRange.lowerBound) * Double(step) / 4
                svg += "<text x=\"\(fmt(xPosition(value, xRange)))\" y=\"\(fmt(bottom + 14))\" text-anchor=\"middle\" font-size=\"10\">\(Format.number(value))</text>"
            }
        }
        svg += "<text x=\"\(fmt((left + right) / 2))\" y=\"\(fmt(height - 6))\" text-anchor=\"middle\" font-size=\"11\">\(Format.escape(xLabel))</text>"
        svg += "<text x=\"12\" y=\"\(fmt((margin.top + bottom) / 2))\" text-anchor=\"middle\" font-size=\"11\" transform=\"rotate(-90 12 \(fmt((margin.top + bottom) / 2)))\">\(Format.escape(yLabel))</text>"
        return svg
    }

    /// The data's range, from 0 (or below) up to a round number, never empty, so the
    /// four gridlines fall on readable values (0, 250, 500, 750, 1000).
    static func niceRange(_ values: [Double]) -> ClosedRange<Double> {
        let finite = values.filter(\.isFinite)
        guard let low = finite.min(), let high = finite.max(), high > min(0, low) else { return 0...1 }
        let bottom = min(0, low)
        let span = high - bottom
        let magnitude = pow(10, (log10(span)).rounded(.down))
        let step = [1.0, 2, 2.5, 4, 5, 10].map { $0 * magnitude }.first { $0 >= span } ?? 10 * magnitude
        return bottom...(bottom + step)
    }

    private static func xPosition(_ x: Double, _ range: ClosedRange<Double>) -> Double {
        margin.left + (x - range.lowerBound) / (range.upperBound - range.lowerBound) * (width - margin.left - margin.right)
    }

    static func yPosition(_ y: Double, _ range: ClosedRange<Double>) -> Double {
        height - margin.bottom - (y - range.lowerBound) / (range.upperBound - range.lowerBound) * (height - margin.top - margin.bottom)
    }

    /// A coordinate with one decimal at most.
    static func fmt(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
