import Foundation
import RTCBase

/// Deterministic synthetic microphone: each 20 ms frame is a sine tone whose frequency
/// marks the frame, or silence when muted.
///
/// Frame `i` plays `AudioSource.markerFrequencies[i % 16]`. Every frequency is a multiple
/// of 50 Hz, so each frame holds whole cycles and starts and ends at phase zero (no
/// discontinuity between frames). The 16 tones, 250 Hz apart from 500 to 4250 Hz, stay
/// far apart after Opus coding; `AudioMarkerReader` finds which one a decoded frame holds.
public struct AudioSource: Sendable {
    /// The marker tones in Hz; frame `i` plays entry `i % markerFrequencies.count`.
    public static let markerFrequencies: [Double] = (0..<16).map { 500 + 250 * Double($0) }

    public let channels: Int
    /// Peak amplitude, out of 32767 (default -10 dBFS).
    public let amplitude: Double

    /// A source of `channels` (1 or 2) identical channels.
    public init(channels: Int = 1, amplitude: Double = 10_362) {
        precondition(channels == 1 || channels == 2, "mono or stereo")
        self.channels = channels
        self.amplitude = amplitude
    }

    /// The frame `index` (from 0), or 20 ms of silence when `muted`.
    public func frame(index: Int, captureTime: Instant, muted: Bool = false) -> AudioFrame {
        precondition(index >= 0, "frame indices start at 0")
        let count = AudioFrame.samplesPerChannel
        guard !muted else {
            return AudioFrame(samples: [Int16](repeating: 0, count: count * channels), channels: channels,
                              index: index, captureTime: captureTime)
        }
        let frequency = Self.markerFrequencies[index % Self.markerFrequencies.count]
        let step = 2 * Double.pi * frequency / Double(AudioFrame.sampleRate)
        var samples = [Int16](repeating: 0, count: count * channels)
        for sample in 0..<count {
            let value = Int16(amplitude * sin(step * Double(sample)))
            for channel in 0..<channels { samples[sample * channels + channel] = value }
        }
        return AudioFrame(samples: samples, channels: channels, index: index, captureTime: captureTime)
    }
}
