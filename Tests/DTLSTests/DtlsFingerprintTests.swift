import DTLS
import RTCBase
import XCTest

final class DtlsFingerprintTests: XCTestCase {
    func testSharedCertificateFingerprintIsSha256InSdpForm() {
        let fingerprint = DtlsCertificate.shared.fingerprint
        XCTAssertTrue(fingerprint.hasPrefix("sha-256 "))
        let hex = fingerprint.dropFirst("sha-256 ".count).split(separator: ":")
        XCTAssertEqual(hex.count, 32)
        XCTAssertTrue(hex.allSatisfy { $0.count == 2 && $0.uppercased() == $0 && UInt8($0, radix: 16) != nil })
        XCTAssertTrue(DtlsCertificate.shared === DtlsCertificate.shared)
        XCTAssertNotEqual(DtlsCertificate().fingerprint, fingerprint)
    }

    func testParsesSdpValueAndPrintsItBack() throws {
        let value = "sha-256 " + (0..<32).map { _ in "0A" }.joined(separator: ":")
        let parsed = try DtlsFingerprint(sdp: value)
        XCTAssertEqual(parsed.algorithm, "sha-256")
        XCTAssertEqual(parsed.digest, [UInt8](repeating: 10, count: 32))
        XCTAssertEqual(parsed.description, value)
        XCTAssertEqual(try DtlsFingerprint(sdp: "SHA-1 " + (0..<20).map { _ in "ff" }.joined(separator: ":")).digest.count, 20)
    }

    func testRejectsUnknownHashBadHexAndWrongLength() {
        XCTAssertThrowsError(try DtlsFingerprint(sdp: "md5 AA:BB")) { error in
            XCTAssertEqual((error as? ParseError)?.code, .unsupported)
        }
        XCTAssertThrowsError(try DtlsFingerprint(sdp: "sha-256 ZZ:00"))
        XCTAssertThrowsError(try DtlsFingerprint(sdp: "sha-256 AA:BB"))
        XCTAssertThrowsError(try DtlsFingerprint(sdp: "sha-256"))
        XCTAssertThrowsError(try DtlsEndpoint(role: .client, remoteFingerprint: "garbage"))
    }
}
