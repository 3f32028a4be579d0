import COpenSSL
import XCTest

/// Each macro wrapped in Sources/COpenSSL/shim.h, called once on a real object.
final class OpenSSLShimTests: XCTestCase {
    func testDTLSMacroWrappersWork() throws {
        let context = try XCTUnwrap(SSL_CTX_new(DTLS_method()))
        defer { SSL_CTX_free(context) }
        XCTAssertEqual(rs_ssl_ctx_set_min_version(context, DTLS1_2_VERSION), 1)
        let mode = rs_ssl_ctx_set_mode(context, Int(SSL_MODE_ENABLE_PARTIAL_WRITE))
        XCTAssertNotEqual(mode & Int(SSL_MODE_ENABLE_PARTIAL_WRITE), 0)
        let ssl = try XCTUnwrap(SSL_new(context))
        defer { SSL_free(ssl) }
        // No handshake has started, so no retransmission timer runs.
        XCTAssertEqual(rs_dtls_timeout_ms(ssl), -1)
        XCTAssertEqual(rs_dtls_handle_timeout(ssl), 0)
        XCTAssertEqual(rs_dtls_set_link_mtu(ssl, 1200), 1)
        XCTAssertEqual(rs_ssl_set_host_name(ssl, "example.test"), 1)
        let name = try XCTUnwrap(SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name))
        XCTAssertEqual(String(cString: name), "example.test")
    }

    func testMemoryBIOEOFReturnMakesEmptyReadRetry() throws {
        let bio = try XCTUnwrap(BIO_new(BIO_s_mem()))
        defer { BIO_free(bio) }
        XCTAssertEqual(rs_bio_set_mem_eof_return(bio, -1), 1)
        var byte: UInt8 = 0
        XCTAssertEqual(BIO_read(bio, &byte, 1), -1)
        XCTAssertNotEqual(BIO_test_flags(bio, BIO_FLAGS_SHOULD_RETRY), 0)
    }
}
