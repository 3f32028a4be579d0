/// The H.264 `profile-level-id` format parameter (RFC 6184 8.1): three hex bytes,
/// `profile_idc`, `profile-iop` (the constraint_set flags) and `level_idc`, e.g. `42e01f`
/// for Constrained Baseline level 3.1.
///
/// The profile comes from `profile_idc` and the constraint flags together, the way
/// RFC 6184 8.1 and H.264 A.2 define the profiles (a Baseline stream with
/// constraint_set1 is Constrained Baseline, and so is a Main one with constraint_set0).
public struct H264ProfileLevelID: Sendable, Hashable, CustomStringConvertible {
    public enum Profile: Sendable, Hashable, CaseIterable {
        case constrainedBaseline, baseline, main, extended, high, constrainedHigh
        case high10, high422, high444Predictive

        /// `profile_idc` and `profile-iop` written for this profile.
        var canonicalBytes: (idc: UInt8, iop: UInt8) {
            switch self {
            case .constrainedBaseline: return (0x42, 0xe0)
            case .baseline: return (0x42, 0x00)
            case .main: return (0x4d, 0x00)
            case .extended: return (0x58, 0x00)
            case .high: return (0x64, 0x00)
            case .constrainedHigh: return (0x64, 0x0c)
            case .high10: return (0x6e, 0x00)
            case .high422: return (0x7a, 0x00)
            case .high444Predictive: return (0xf4, 0x00)
            }
        }

        /// Baseline, Main and Extended signal level 1b with constraint_set3 (H.264 A.3.1).
        var signalsLevel1bWithConstraintSet3: Bool {
            self == .constrainedBaseline || self == .baseline || self == .main || self == .extended
        }
    }

    public var profile: Profile
    public var level: H264Level

    public init(profile: Profile, level: H264Level) {
        self.profile = profile
        self.level = level
    }

    /// RFC 6184 8.1: without `profile-level-id`, Baseline profile at level 1 is meant.
    public static let `default` = H264ProfileLevelID(profile: .baseline, level: .level1)

    /// A (profile_idc, profile-iop mask, required bits) rule: iop & mask == bits.
    private static let rules: [(idc: UInt8, mask: UInt8, bits: UInt8, profile: Profile)] = [
        (0x42, 0x4f, 0x40, .constrainedBaseline),  // x1xx0000
        (0x4d, 0x8f, 0x80, .constrainedBaseline),  // 1xxx0000
        (0x58, 0xcf, 0xc0, .constrainedBaseline),  // 11xx0000
        (0x42, 0x4f, 0x00, .baseline),  // x0xx0000
        (0x58, 0xcf, 0x80, .baseline),  // 10xx0000
        (0x4d, 0xaf, 0x00, .main),  // 0x0x0000
        (0x58, 0xcf, 0x00, .extended),  // 00xx0000
        (0x64, 0xff, 0x00, .high),  // 00000000
        (0x64, 0xff, 0x0c, .constrainedHigh),  // 00001100
        (0x6e, 0xff, 0x00, .high10),
        (0x7a, 0xff, 0x00, .high422),
        (0xf4, 0xff, 0x00, .high444Predictive),
    ]

    /// Parses six hex digits; nil for another length, bad hex, an unknown profile or level.
    public init?(_ text: String) {
        guard text.utf8.count == 6, let value = UInt32(text, radix: 16) else { return nil }
        let idc = UInt8(value >> 16)
        let iop = UInt8((value >> 8) & 0xff)
        let levelIDC = UInt8(value & 0xff)
        guard let rule = Self.rules.first(where: { $0.idc == idc && iop & $0.mask == $0.bits }) else { return nil }
        profile = rule.profile
        let constraintSet3 = iop & 0x10 != 0
        if levelIDC == 11 && constraintSet3 && rule.profile.signalsLevel1bWithConstraintSet3 {
            level = .level1b
        } else if levelIDC == 9 && !rule.profile.signalsLevel1bWithConstraintSet3 {
            level = .level1b
        } else if let known = H264Level(levelIDC: levelIDC) {
            level = known
        } else {
            return nil
        }
    }

    /// Six lower-case hex digits, e.g. `42e01f`.
    public var description: String {
        var (idc, iop) = profile.canonicalBytes
        var levelIDC = level.levelIDC
        if level == .level1b {
            if profile.signalsLevel1bWithConstraintSet3 {
                iop |= 0x10
                levelIDC = 11
            } else {
                levelIDC = 9
            }
        }
        let hex = (UInt32(idc) << 16) | (UInt32(iop) << 8) | UInt32(levelIDC)
        let digits = String(hex, radix: 16)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// The lowest level whose limits (H.264 Table A-1: MaxFS, MaxMBPS, and the frame
    /// width/height bound sqrt(8 * MaxFS) macroblocks) fit `width`x`height` at `fps`;
    /// nil when even level 6.2 is too small. 1280x720@30 gives 3.1, 1920x1080@30 gives
    /// 4.0, 3840x2160@30 gives 5.1.
    public static func level(width: Int, height: Int, fps: Double) -> H264Level? {
        guard width > 0, height > 0, fps > 0 else { return nil }
        let widthMBs = (width + 15) / 16
        let heightMBs = (height + 15) / 16
        let frameSize = widthMBs * heightMBs
        let rate = Double(frameSize) * fps
        return H264Level.allCases.first { level in
            level != .level1b && frameSize <= level.maxFrameSize
                && widthMBs * widthMBs <= 8 * level.maxFrameSize
                && heightMBs * heightMBs <= 8 * level.maxFrameSize
                && rate <= Double(level.maxMacroblocksPerSecond)
        }
    }
}
