public import PushCore
import PushCrypto

/// The signing steps of `jwt --explain`, in order, one sentence each (also used by `demo`).
public struct ProviderTokenExplanation {
    public let token: ProviderToken
    public let keyFile: String
    /// How steps are numbered: "1." … "8." alone, "2.1" … inside the demo's step 2.
    public var label: (Int) -> String = { "\($0)." }

    public init(token: ProviderToken, keyFile: String, label: @escaping (Int) -> String = { "\($0)." }) {
        self.token = token
        self.keyFile = keyFile
        self.label = label
    }

    public var lines: [String] {
        let u = token.unsigned
        let digest = SHA256.hash(Array(u.signingInput.utf8))
        func step(_ n: Int, _ title: String, _ sentence: String) -> String {
            "\n" + Console.paint("\(label(n)) \(title)", .bold) + " — " + sentence
        }
        return [
            step(1, "Key", "\(keyFile) holds a P-256 private key; its Key ID (\(u.keyID)) tells APNs which public key checks the signature."),
            step(2, "Header", "JSON naming the algorithm (ES256 = ECDSA on P-256 with SHA-256) and the key id."),
            "   " + u.header.compact,
            step(3, "Claims", "JSON naming your team (iss) and when the token was issued (iat, UNIX seconds; APNs accepts it for 60 minutes)."),
            "   " + u.claims.compact,
            "   iat \(u.issuedAt) = \(UTCDate.format(unixSeconds: u.issuedAt))",
            step(4, "Base64url", "each JSON part is encoded as base64url without padding, so it fits in an HTTP header."),
            "   header: " + u.encodedHeader,
            "   claims: " + u.encodedClaims,
            step(5, "Signing input", "the two encoded parts joined by a dot; this exact text is what gets signed."),
            "   " + u.signingInput,
            step(6, "SHA-256", "ES256 first hashes the signing input to 32 bytes."),
            "   " + digest.hexString,
            step(7, "Signature", "ECDSA signs the digest with the private key, giving two 32-byte numbers, r and s."),
            "   r: " + token.r.hexString,
            "   s: " + token.s.hexString,
            step(8, "Token", "r‖s (64 bytes) in base64url is the third part; APNs receives the whole token as `authorization: bearer <token>`."),
            token.compact,
        ]
    }
}

