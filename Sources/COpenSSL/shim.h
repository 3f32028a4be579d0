// OpenSSL (libssl, libcrypto) for DTLS-SRTP, TLS client connections, HMAC and SRTP
// ciphers. The static inline functions wrap macros that Swift cannot import.
#ifndef RTCSWARM_COPENSSL_SHIM_H
#define RTCSWARM_COPENSSL_SHIM_H

#include <string.h>

#include <openssl/bio.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/// DTLSv1_get_timeout: milliseconds until the handshake timer fires, or -1 when none runs.
static inline long rs_dtls_timeout_ms(SSL *ssl) {
    struct timeval remaining;
    if (DTLSv1_get_timeout(ssl, &remaining) != 1) return -1;
    return (long)remaining.tv_sec * 1000 + (long)remaining.tv_usec / 1000;
}

/// DTLSv1_get_timeout in microseconds (no rounding down to whole milliseconds, which
/// would report a timer due before OpenSSL considers it expired), or -1 when none runs.
static inline long long rs_dtls_timeout_us(SSL *ssl) {
    struct timeval remaining;
    if (DTLSv1_get_timeout(ssl, &remaining) != 1) return -1;
    return (long long)remaining.tv_sec * 1000000 + (long long)remaining.tv_usec;
}

/// DTLSv1_handle_timeout: retransmits the current flight when its timer has expired.
static inline int rs_dtls_handle_timeout(SSL *ssl) { return (int)DTLSv1_handle_timeout(ssl); }

/// DTLS_set_link_mtu: the largest datagram the handshake may send (RFC 6347 4.1.1).
static inline int rs_dtls_set_link_mtu(SSL *ssl, long mtu) {
    SSL_set_options(ssl, SSL_OP_NO_QUERY_MTU);
    return (int)DTLS_set_link_mtu(ssl, mtu);
}

/// BIO_set_mem_eof_return: makes an empty memory BIO read as "retry" instead of EOF.
static inline int rs_bio_set_mem_eof_return(BIO *bio, int value) {
    return (int)BIO_set_mem_eof_return(bio, value);
}

/// SSL_set_tlsext_host_name: the SNI name a TLS client sends.
static inline int rs_ssl_set_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/// SSL_CTX_set_min_proto_version.
static inline int rs_ssl_ctx_set_min_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}

/// SSL_CTX_set_mode.
static inline long rs_ssl_ctx_set_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_mode(ctx, mode);
}

/// HMAC-SHA1 (RFC 2104 2) keyed once: the SHA-1 states after the key XOR ipad and the key
/// XOR opad blocks, so that each message costs its own compressions plus two, not four.
/// Uses OpenSSL's low-level SHA-1 (deprecated in 3.0, still built), whose state is a
/// plain struct that can be copied.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
typedef struct { SHA_CTX inner; SHA_CTX outer; } rs_hmac_sha1_key;

/// Prepares `key` (RFC 2104 2: a key longer than the 64-byte block is hashed first).
static inline void rs_hmac_sha1_init(rs_hmac_sha1_key *state, const unsigned char *key, size_t length) {
    unsigned char block[SHA_CBLOCK] = {0};
    if (length > SHA_CBLOCK) SHA1(key, length, block); else if (length > 0) memcpy(block, key, length);
    unsigned char pad[SHA_CBLOCK];
    for (int i = 0; i < SHA_CBLOCK; i++) pad[i] = block[i] ^ 0x36;
    SHA1_Init(&state->inner);
    SHA1_Update(&state->inner, pad, SHA_CBLOCK);
    for (int i = 0; i < SHA_CBLOCK; i++) pad[i] = block[i] ^ 0x5c;
    SHA1_Init(&state->outer);
    SHA1_Update(&state->outer, pad, SHA_CBLOCK);
    OPENSSL_cleanse(block, sizeof block);
    OPENSSL_cleanse(pad, sizeof pad);
}

/// HMAC(key, message || suffix) into `output` (20 bytes); `suffix` may be NULL.
static inline void rs_hmac_sha1(const rs_hmac_sha1_key *state, const unsigned char *message, size_t length,
                                const unsigned char *suffix, size_t suffixLength, unsigned char *output) {
    SHA_CTX context = state->inner;
    if (length > 0) SHA1_Update(&context, message, length);
    if (suffixLength > 0) SHA1_Update(&context, suffix, suffixLength);
    unsigned char inner[SHA_DIGEST_LENGTH];
    SHA1_Final(inner, &context);
    context = state->outer;
    SHA1_Update(&context, inner, SHA_DIGEST_LENGTH);
    SHA1_Final(output, &context);
}
#pragma GCC diagnostic pop

#endif
