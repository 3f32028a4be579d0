/// An H.264 level (H.264 Annex A, Table A-1) with the limits that decide which
/// resolutions and frame rates it allows.
public enum H264Level: Sendable, Hashable, CaseIterable, Comparable {
    case level1, level1b, level1_1, level1_2, level1_3
    case level2, level2_1, level2_2
    case level3, level3_1, level3_2
    case level4, level4_1, level4_2
    case level5, level5_1, level5_2
    case level6, level6_1, level6_2

    /// `level_idc` (ten times the level number); level 1b has its own encoding, see
    /// `H264ProfileLevelID`, and reports 11 here.
    public var levelIDC: UInt8 { Self.table[self]?.idc ?? 0 }

    /// MaxFS: the largest frame, in 16x16 macroblocks.
    public var maxFrameSize: Int { Self.table[self]?.maxFS ?? 0 }

    /// MaxMBPS: macroblocks per second.
    public var maxMacroblocksPerSecond: Int { Self.table[self]?.maxMBPS ?? 0 }

    /// The level with this `level_idc` (not 1b, which needs the constraint flags).
    public init?(levelIDC: UInt8) {
        guard let level = Self.allCases.first(where: { $0 != .level1b && $0.levelIDC == levelIDC }) else { return nil }
        self = level
    }

    /// H.264 (08/2021) Table A-1, columns level_idc, MaxMBPS and MaxFS.
    private static let table: [H264Level: (idc: UInt8, maxMBPS: Int, maxFS: Int)] = [
        .level1: (10, 1_485, 99),
        .level1b: (11, 1_485, 99),
        .level1_1: (11, 3_000, 396),
        .level1_2: (12, 6_000, 396),
        .level1_3: (13, 11_880, 396),
        .level2: (20, 11_880, 396),
        .level2_1: (21, 19_800, 792),
        .level2_2: (22, 20_250, 1_620),
        .level3: (30, 40_500, 1_620),
        .level3_1: (31, 108_000, 3_600),
        .level3_2: (32, 216_000, 5_120),
        .level4: (40, 245_760, 8_192),
        .level4_1: (41, 245_760, 8_192),
        .level4_2: (42, 522_240, 8_704),
        .level5: (50, 589_824, 22_080),
        .level5_1: (51, 983_040, 36_864),
        .level5_2: (52, 2_073_600, 36_864),
        .level6: (60, 4_177_920, 139_264),
        .level6_1: (61, 8_355_840, 139_264),
        .level6_2: (62, 16_711_680, 139_264),
    ]
}
