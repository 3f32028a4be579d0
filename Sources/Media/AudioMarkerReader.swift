import Foundation

/// Reads `AudioSource`'s per-frame marker from decoded PCM with the Goertzel algorithm.
///
/// It looks at the last 576 samples of a 960-sample frame (channel 0), so a codec delay
/// of up to 384 samples (Opus: 312 at 48 kHz) still leaves only the marked frame's tone in
/// the window.
public enum AudioMarkerReader {
    static let window = 576
    /// The loudest marker must carry this many times the energy of the next one.
    static let dominance = 4.0
    /// Below this mean energy per sample (about -50 dBFS) the frame counts as silent.
    static let silence = 10.0 * 10.0

    /// The marker (`index % 16`) of a 20 ms frame of interleaved PCM, or nil for silence
    /// or when no single tone dominates (a concealed or damaged frame).
    public static func read(_ samples: [Int16], channels: Int) -> Int? {
        let count = samples.count / max(channels, 1)
        guard channels >= 1, count >= window else { return nil }
        let start = count - window
        var energy = 0.0
        for sample in start..<count {
            let value = Double(samples[sample * channels])
            energy += value * value
        }
        guard energy / Double(window) > silence else { return nil }
        let powers = AudioSource.markerFrequencies.map { frequency in
            goertzel(samples, channels: channels, start: start, frequency: frequency)
        }
        guard let best = powers.indices.max(by: { powers[$0] < powers[$1] }) else { return nil }
        let runnerUp = powers.indices.filter { $0 != best }.map { powers[$0] }.max() ?? 0
        return powers[best] >= dominance * runnerUp ? best : nil
    }

    /// The power of `frequency` over the window (Goertzel, one DFT bin).
    private static func goertzel(_ samples: [Int16], channels: Int, start: Int, frequency: Double) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / Double(AudioFrame.sampleRate))
        var previous = 0.0, beforePrevious = 0.0
        for sample in start..<(start + window) {
            let current = Double(samples[sample * channels]) + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
    }
}
