import SDP
import XCTest

final class H264ProfileLevelIDTests: XCTestCase {
    func testParsesProfilesFromIdcAndConstraintFlags() throws {
        // (text, profile, level) per RFC 6184 8.1 and H.264 A.2.
        let cases: [(String, H264ProfileLevelID.Profile, H264Level)] = [
            ("42e01f", .constrainedBaseline, .level3_1),  // 0x42, constraint_set0+1+2
            ("42c01f", .constrainedBaseline, .level3_1),  // constraint_set1 is what matters
            ("4de01f", .constrainedBaseline, .level3_1),  // Main with constraint_set0
            ("42001f", .baseline, .level3_1),
            ("42a01f", .baseline, .level3_1),  // constraint_set0+2, not set1
            ("4d001f", .main, .level3_1),
            ("4d0028", .main, .level4),
            ("58a01e", .baseline, .level3),  // Extended with set0, not set1
            ("580033", .extended, .level5_1),
            ("640c34", .constrainedHigh, .level5_2),
            ("640028", .high, .level4),
            ("6e0029", .high10, .level4_1),
            ("7a0032", .high422, .level5),
            ("f4003c", .high444Predictive, .level6),
            ("42f00b", .constrainedBaseline, .level1b),  // level_idc 11 + constraint_set3
            ("42e00b", .constrainedBaseline, .level1_1),
            ("640009", .high, .level1b),  // High signals 1b as level_idc 9
        ]
        for (text, profile, level) in cases {
            let parsed = try XCTUnwrap(H264ProfileLevelID(text), text)
            XCTAssertEqual(parsed.profile, profile, text)
            XCTAssertEqual(parsed.level, level, text)
        }
    }

    func testRejectsMalformedAndUnknown() {
        for text in ["", "42e01", "42e01f0", "zze01f", "42e0ff", "ff001f", "4d201f", "640100", "42e0 f"] {
            XCTAssertNil(H264ProfileLevelID(text), text)
        }
    }

    func testPrintsCanonicalSixHexDigits() {
        XCTAssertEqual(H264ProfileLevelID(profile: .constrainedBaseline, level: .level3_1).description, "42e01f")
        XCTAssertEqual(H264ProfileLevelID(profile: .constrainedBaseline, level: .level4).description, "42e028")
        XCTAssertEqual(H264ProfileLevelID(profile: .constrainedBaseline, level: .level5_1).description, "42e033")
        XCTAssertEqual(H264ProfileLevelID(profile: .baseline, level: .level1).description, "42000a")
        XCTAssertEqual(H264ProfileLevelID(profile: .main, level: .level1b).description, "4d100b")
        XCTAssertEqual(H264ProfileLevelID(profile: .high, level: .level1b).description, "640009")
        XCTAssertEqual(H264ProfileLevelID(profile: .constrainedHigh, level: .level4_2).description, "640c2a")
        for text in ["42e01f", "42001f", "4d001f", "640c34", "f4003c", "42f00b", "640009"] {
            XCTAssertEqual(H264ProfileLevelID(text)?.description, text)
        }
    }

    func testLevelForResolutionFollowsTableA1() {
        // 1280x720 = 80x45 = 3600 MBs; 3600 * 30 = 108,000 MB/s: exactly level 3.1.
        XCTAssertEqual(H264ProfileLevelID.level(width: 1280, height: 720, fps: 30), .level3_1)
        // 1920x1080 -> 120x68 = 8160 MBs (<= 8192), 244,800 MB/s (<= 245,760): level 4.
        XCTAssertEqual(H264ProfileLevelID.level(width: 1920, height: 1080, fps: 30), .level4)
        // 3840x2160 = 240x135 = 32,400 MBs, 972,000 MB/s: level 5.1.
        XCTAssertEqual(H264ProfileLevelID.level(width: 3840, height: 2160, fps: 30), .level5_1)
        XCTAssertEqual(H264ProfileLevelID.level(width: 176, height: 144, fps: 15), .level1)
        XCTAssertEqual(H264ProfileLevelID.level(width: 640, height: 480, fps: 30), .level3)
        // 720p at 60 fps needs 216,000 MB/s: level 3.2.
        XCTAssertEqual(H264ProfileLevelID.level(width: 1280, height: 720, fps: 60), .level3_2)
        // 1080p60: 489,600 MB/s -> 4.2.
        XCTAssertEqual(H264ProfileLevelID.level(width: 1920, height: 1080, fps: 60), .level4_2)
        // A 1x8192 strip has few macroblocks but is taller than sqrt(8 * MaxFS) allows below 5.1.
        XCTAssertEqual(H264ProfileLevelID.level(width: 16, height: 8192, fps: 1), .level5_1)
        XCTAssertNil(H264ProfileLevelID.level(width: 8192, height: 8192, fps: 120))
        XCTAssertNil(H264ProfileLevelID.level(width: 0, height: 720, fps: 30))
    }

    func testLevelsAreOrderedWithLevel1bBetween1And11() {
        XCTAssertLessThan(H264Level.level1, .level1b)
        XCTAssertLessThan(H264Level.level1b, .level1_1)
        XCTAssertLessThan(H264Level.level3_1, .level4)
        XCTAssertEqual(H264Level(levelIDC: 0x1f), .level3_1)
        XCTAssertEqual(H264Level.level5_1.maxFrameSize, 36_864)
    }
}
