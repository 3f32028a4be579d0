import Net
import RTCBase

/// Asking OWT's management REST API for a conference token: `POST /v1/rooms/{room}/tokens`
/// signed with the service's key in an `Authorization: MAuth ...` header.
public struct OWTRestToken: Hashable, Sendable {
    /// The REST server (`https://owt.example.com:3000`).
    public var server: Endpoint
    public var serviceID: String
    public var serviceKey: String
    public var room: String
    public var user: String
    public var role: String
    /// Wall-clock milliseconds since 1970 and a random number below 100000, which the
    /// signature covers; the caller supplies both so this stays a pure value.
    public var timestampMilliseconds: Int64
    public var cnonce: Int

    public init(server: Endpoint, serviceID: String, serviceKey: String, room: String, user: String, role: String,
                timestampMilliseconds: Int64, cnonce: Int) {
        self.server = server
        self.serviceID = serviceID
        self.serviceKey = serviceKey
        self.room = room
        self.user = user
        self.role = role
        self.timestampMilliseconds = timestampMilliseconds
        self.cnonce = cnonce
    }

    /// The header value: `MAuth realm=http://marte3.dit.upm.es,mauth_signature_method=HMAC_SHA256,
    /// mauth_serviceid=…,mauth_cnonce=…,mauth_timestamp=…,mauth_signature=…` where the
    /// signature is base64 of the lowercase hex of HMAC-SHA256(key, "timestamp,cnonce"),
    /// as OWT's REST samples compute it (the realm is a constant the server ignores).
    public static func authorization(serviceID: String, serviceKey: String, timestampMilliseconds: Int64, cnonce: Int) -> String {
        let signed = "\(timestampMilliseconds),\(cnonce)"
        let mac = HmacSha256.mac(key: Array(serviceKey.utf8), message: Array(signed.utf8))
        let hex = mac.flatMap { [Hex.digit($0 >> 4, uppercase: false), Hex.digit($0 & 0x0f, uppercase: false)] }
        let signature = Base64.encode(hex)
        return "MAuth realm=http://marte3.dit.upm.es,mauth_signature_method=HMAC_SHA256"
            + ",mauth_serviceid=\(serviceID),mauth_cnonce=\(cnonce),mauth_timestamp=\(timestampMilliseconds)"
            + ",mauth_signature=\(signature)"
    }

    /// The request, with the body `{"preference":{"isp":"isp","region":"region"},"user":…,"role":…}`
    /// the REST samples send.
    public var request: HTTPRequest {
        var endpoint = server
        endpoint.path = (server.path.hasSuffix("/") ? String(server.path.dropLast()) : server.path)
            + "/v1/rooms/\(PercentEncoding.encode(room))/tokens"
        endpoint.query = nil
        let body: JSONValue = .object(["preference": .object(["isp": "isp", "region": "region"]),
                                       "user": .string(user), "role": .string(role)])
        let headers: HTTPHeaders = [
            "Authorization": OWTRestToken.authorization(serviceID: serviceID, serviceKey: serviceKey,
                                                        timestampMilliseconds: timestampMilliseconds, cnonce: cnonce),
            "Content-Type": "application/json",
        ]
        return HTTPRequest(method: .post, endpoint: endpoint, headers: headers, body: Array(body.serialized.utf8))
    }

    /// The token in a 200 answer (the bare base64 text, or the same as a JSON string);
    /// otherwise the server's refusal in words.
    public static func token(from response: HTTPResponse) throws(ParseError) -> OWTToken {
        guard response.status == 200 else {
            throw .invalid("OWT REST refused the token: \(response.status) \(response.bodyText.trimmingBlanks)")
        }
        let text = response.bodyText.trimmingBlanks
        if text.hasPrefix("\""), let quoted = (try? JSONValue(parsing: text))?.stringValue { return try OWTToken(text: quoted) }
        return try OWTToken(text: text)
    }
}
