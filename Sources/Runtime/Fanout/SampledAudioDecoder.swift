import Media
import PeerCore

/// Full decoding for the sample of received Opus streams (METRICS.md: quality, sampled), as
/// a receiver's jitter buffer plays them out: packets in RTP timestamp order, each 20 ms
/// frame whose packet never came concealed by Opus's packet loss concealment (RFC 6716
/// 4.4), a packet that comes after its turn dropped. Each frame played, decoded or
/// concealed, has its marker tone (`AudioSource`) read back and compared with the one its
/// timestamp says it should carry: the marker hits are the frames that sound as sent.
final class SampledAudioDecoder {
    struct Results: Equatable {
        var decoded = 0
        var decodeErrors = 0
        /// Frames played out by concealment (their packet never arrived in time).
        var concealed = 0
        /// Packets that arrived after a later one had been played (dropped, as a jitter buffer would).
        var late = 0
        /// Frames played after the first marker read, and those whose marker was the expected one.
        var markersChecked = 0
        var markerHits = 0

        /// Percent of the frames checked that carried their marker; nil before any was.
        var markerHitPct: Double? { markersChecked > 0 ? Double(markerHits) / Double(markersChecked) * 100 : nil }
    }

    /// RTP timestamp ticks per 20 ms Opus frame (48 kHz clock, RFC 7587 4.1).
    static let frameTicks: UInt32 = 960
    /// The longest gap concealed frame by frame (1 s); past it playback starts again.
    static let maximumConcealed = 50

    private var decoder: OpusAudioDecoder?
    /// The timestamp of the last frame played.
    private var played: UInt32?
    /// The first marker read and the timestamp of its frame: what every later frame should carry follows from them.
    private var reference: (timestamp: UInt32, marker: Int)?
    private(set) var results = Results()

    func decode(_ frame: ReceivedFrame) {
        do {
            if decoder == nil { decoder = try OpusAudioDecoder(channels: 1) }
            guard let decoder else { return }
            if let played {
                let gap = Int32(bitPattern: frame.rtpTimestamp &- played)
                guard gap > 0 else {
                    results.late += 1
                    return
                }
                let missing = Int(UInt32(gap) / Self.frameTicks) - 1
                if missing <= Self.maximumConcealed {
                    for index in 0..<max(0, missing) {
                        let pcm = try decoder.decodeLost()
                        results.concealed += 1
                        check(pcm, timestamp: played &+ UInt32(index + 1) &* Self.frameTicks)
                    }
                }
            }
            played = frame.rtpTimestamp
            let pcm = try decoder.decode(frame.data)
            results.decoded += 1
            check(pcm, timestamp: frame.rtpTimestamp)
        } catch {
            results.decodeErrors += 1
        }
    }

    private func check(_ pcm: [Int16], timestamp: UInt32) {
        let marker = AudioMarkerReader.read(pcm, channels: 1)
        guard let reference else {
            if let marker { self.reference = (timestamp, marker) }
            return
        }
        let frames = Int((timestamp &- reference.timestamp) / Self.frameTicks)
        let count = AudioSource.markerFrequencies.count
        results.markersChecked += 1
        if marker == (reference.marker + frames % count) % count { results.markerHits += 1 }
    }
}
