/// A username fragment and password (RFC 8445 5.3), signalled as ice-ufrag and ice-pwd.
public struct IceCredentials: Hashable, Sendable {
    public var ufrag: String
    public var pwd: String

    public init(ufrag: String, pwd: String) {
        self.ufrag = ufrag
        self.pwd = pwd
    }

    /// Random credentials of RFC 8839 5.4 sizes (8 and 24 ice-chars) from `generator`.
    public static func random<Generator: RandomNumberGenerator>(using generator: inout Generator) -> IceCredentials {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/")
        func text(_ count: Int) -> String {
            String((0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
        }
        return IceCredentials(ufrag: text(8), pwd: text(24))
    }
}
