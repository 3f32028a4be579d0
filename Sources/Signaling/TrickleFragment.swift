import SDP

/// An SDP fragment for WHIP/WHEP trickle and ICE restart (RFC 8840 section 9, RFC 9725
/// section 4.3.1): the ICE credentials, then per media section a dummy `m=` line, its
/// `a=mid`, its candidates and, at the end of gathering, `a=end-of-candidates`.
struct TrickleFragment: Sendable {
    /// One media section of our offer: its mid and kind, in offer order.
    struct Section: Hashable, Sendable {
        var mid: String
        var kind: String
    }

    var ufrag: String
    var pwd: String
    var sections: [Section]

    /// Reads credentials and sections from our offer; empty values when it does not parse.
    init(offer: String) {
        let description = try? SessionDescription.parse(offer)
        let first = description?.media.first.flatMap { description?.iceCredentials(of: $0) }
        ufrag = first?.ufrag ?? description?.iceUfrag ?? ""
        pwd = first?.pwd ?? description?.icePwd ?? ""
        sections = description?.media.enumerated().map { index, section in
            Section(mid: section.mid ?? String(index), kind: section.kind.description)
        } ?? []
    }

    /// The fragment for `candidates` (grouped under their sections, in offer order) and,
    /// when `complete`, end-of-candidates in every section. With `allSections`, sections
    /// without candidates are listed too (an ICE restart names every section).
    func text(candidates: [TrickleCandidate], complete: Bool, allSections: Bool) -> String {
        var lines = ["a=ice-ufrag:\(ufrag)", "a=ice-pwd:\(pwd)"]
        var known = sections
        for candidate in candidates where !known.contains(where: { $0.mid == candidate.mid }) {
            known.append(Section(mid: candidate.mid, kind: "audio"))
        }
        for section in known {
            let own = candidates.filter { $0.mid == section.mid }
            guard allSections || complete || !own.isEmpty else { continue }
            lines.append("m=\(section.kind) 9 UDP/TLS/RTP/SAVPF 0")
            lines.append("a=mid:\(section.mid)")
            lines += own.map { "a=" + ($0.candidate.hasPrefix("candidate:") ? $0.candidate : "candidate:" + $0.candidate) }
            if complete { lines.append("a=end-of-candidates") }
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}
