/// Rules shared by requests and responses (RFC 9112 sections 6 and 9).
enum HTTPMessageFraming {
    static func keepsAlive(version: String, headers: HTTPHeaders) -> Bool {
        if headers.hasToken("close", in: "Connection") { return false }
        if version == "HTTP/1.0" { return headers.hasToken("keep-alive", in: "Connection") }
        return true
    }

    static func isChunked(_ headers: HTTPHeaders) -> Bool {
        guard let last = headers.tokens("Transfer-Encoding").last else { return false }
        return HTTPHeaders.equalNames(last, "chunked")
    }

    static func writeFieldsAndBody(_ headers: HTTPHeaders, body: [UInt8], trailers: HTTPHeaders, addLength: Bool,
                                   into out: inout [UInt8]) {
        headers.write(into: &out)
        let chunked = isChunked(headers)
        if addLength && !chunked && !headers.contains("Content-Length") {
            out.append(contentsOf: "Content-Length: \(body.count)\r\n".utf8)
        }
        out.append(contentsOf: "\r\n".utf8)
        guard chunked else {
            out.append(contentsOf: body)
            return
        }
        if !body.isEmpty {
            out.append(contentsOf: String(body.count, radix: 16, uppercase: true).utf8)
            out.append(contentsOf: "\r\n".utf8)
            out.append(contentsOf: body)
            out.append(contentsOf: "\r\n".utf8)
        }
        out.append(contentsOf: "0\r\n".utf8)
        trailers.write(into: &out)
        out.append(contentsOf: "\r\n".utf8)
    }
}
