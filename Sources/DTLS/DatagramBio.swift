import COpenSSL

/// A write-only OpenSSL BIO that keeps each write as one datagram.
///
/// A memory BIO would run the records of a flight together; DTLS needs each
/// `BIO_write` to leave as its own datagram of at most the link MTU, as on a UDP socket.
/// The BIO's data pointer is the owning `DtlsEndpoint` (unretained: the endpoint frees
/// the `SSL`, and with it this BIO, in its deinit).
enum DatagramBio {
    nonisolated(unsafe) static let method: OpaquePointer = {
        guard let method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "rtcswarm datagram") else {
            fatalError("OpenSSL: out of memory")
        }
        _ = BIO_meth_set_create(method) { bio in
            BIO_set_init(bio, 1)
            return 1
        }
        _ = BIO_meth_set_write(method) { bio, data, length in
            guard let bio, let data, length > 0, let owner = BIO_get_data(bio) else { return 0 }
            let bytes = UnsafeRawBufferPointer(start: data, count: Int(length))
            Unmanaged<DtlsEndpoint>.fromOpaque(owner).takeUnretainedValue().outgoing.append(Array(bytes))
            return length
        }
        // Only flush succeeds; MTU queries and the rest are "not supported", so OpenSSL
        // relies on the link MTU the endpoint sets.
        _ = BIO_meth_set_ctrl(method) { _, command, _, _ in command == BIO_CTRL_FLUSH ? 1 : 0 }
        return method
    }()
}
