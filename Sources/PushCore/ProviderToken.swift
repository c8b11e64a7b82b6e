/// Makes the JOSE ES256 signature (raw r‖s, 64 bytes, RFC 7518 §3.4) of a message.
/// The crypto module implements it over OpenSSL; the core only composes tokens.
public protocol ES256Signing: Sendable {
    func sign(_ message: [UInt8]) throws -> [UInt8]
}

/// The APNs provider token before signing: header `{"alg":"ES256","kid":…}` and
/// claims `{"iss":…,"iat":…}`, each encoded exactly once, in this order.
public struct UnsignedProviderToken: Sendable, Equatable {
    public let keyID: AppleIdentifier
    public let teamID: AppleIdentifier
    /// UNIX seconds. An integer on the wire: APNs refuses a string `iat`.
    public let issuedAt: Int64

    public init(keyID: AppleIdentifier, teamID: AppleIdentifier, issuedAt: Int64) {
        self.keyID = keyID
        self.teamID = teamID
        self.issuedAt = issuedAt
    }

    public var header: JSONValue { .object([("alg", .string("ES256")), ("kid", .string(keyID.value))]) }
    public var claims: JSONValue { .object([("iss", .string(teamID.value)), ("iat", .integer(issuedAt))]) }
    public var encodedHeader: String { Base64URL.encode(header.compact) }
    public var encodedClaims: String { Base64URL.encode(claims.compact) }
    /// What is signed: `base64url(header) "." base64url(claims)`.
    public var signingInput: String { encodedHeader + "." + encodedClaims }

    public func signed(by signer: some ES256Signing) throws -> ProviderToken {
        let signature = try signer.sign(Array(signingInput.utf8))
        precondition(signature.count == 64, "an ES256Signing must return raw r||s (64 bytes)")
        return ProviderToken(unsigned: self, signature: signature)
    }
}

/// A signed provider token (a compact JWS).
public struct ProviderToken: Sendable, Equatable {
    public let unsigned: UnsignedProviderToken
    /// Raw r‖s, 64 bytes.
    public let signature: [UInt8]

    public init(unsigned: UnsignedProviderToken, signature: [UInt8]) {
        precondition(signature.count == 64, "a provider token's signature is raw r||s (64 bytes)")
        self.unsigned = unsigned
        self.signature = signature
    }

    public var r: [UInt8] { Array(signature.prefix(32)) }
    public var s: [UInt8] { Array(signature.suffix(32)) }
    public var encodedSignature: String { Base64URL.encode(signature) }
    public var compact: String { unsigned.signingInput + "." + encodedSignature }
}

// MARK: - Reading tokens

/// The form of a JWS signature's bytes.
public enum SignatureForm: Equatable, Sendable {
    /// JOSE's form: r‖s, 64 bytes for P-256.
    case raw
    /// An ASN.1 DER `ECDSA-Sig-Value`, what `openssl dgst -sign` prints. Not JOSE, but APNs accepts it.
    case der
    case unrecognized

    public init(classifying bytes: [UInt8]) {
        if bytes.count == 64 {
            self = .raw
        } else if SignatureForm.isDERSignature(bytes) {
            self = .der
        } else {
            self = .unrecognized
        }
    }

    // In words ("raw r‖s, 64 bytes (standard JOSE ES256…)"): the catalog's `words(byteCount:)`.

    /// SEQUENCE { INTEGER r, INTEGER s } with short-form lengths and integers of at most 33 bytes.
    static func isDERSignature(_ b: [UInt8]) -> Bool {
        guard b.count >= 8, b.count <= 72, b[0] == 0x30, Int(b[1]) == b.count - 2 else { return false }
        var i = 2
        for _ in 0..<2 {
            guard i + 2 <= b.count, b[i] == 0x02 else { return false }
            let len = Int(b[i + 1])
            guard len >= 1, len <= 33, i + 2 + len <= b.count else { return false }
            i += 2 + len
        }
        return i == b.count
    }
}

/// A compact JWS split into its three parts and decoded, without checking the signature.
public struct DecodedJWT: Sendable {
    public let header: JSONValue
    public let claims: JSONValue
    public let signature: [UInt8]
    /// `part1 "." part2`, the bytes the signature covers.
    public let signingInput: String
    /// The token itself, without surrounding whitespace or a `bearer ` prefix.
    public let compact: String
    public var signatureForm: SignatureForm { SignatureForm(classifying: signature) }

    /// Accepts a compact JWS, with surrounding whitespace and an optional `bearer ` prefix
    /// (what an `authorization` header holds).
    public init(parsing text: String) throws(InputError) {
        var token = Substring(text).trimmingWhitespace()
        if token.lowercased().hasPrefix("bearer ") { token = token.dropFirst(7).trimmingWhitespace() }
        if token.isEmpty { throw InputError(ProviderTokenProblem.empty) }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw InputError(ProviderTokenProblem.parts(count: parts.count)) }
        func json(_ index: Int, _ name: String) throws(InputError) -> JSONValue {
            let part = index + 1
            guard !parts[index].isEmpty else { throw InputError(ProviderTokenProblem.partEmpty(part: part, name: name)) }
            guard let bytes = Base64URL.decode(parts[index]) else { throw InputError(ProviderTokenProblem.partNotBase64URL(part: part, name: name)) }
            let value: JSONValue
            do { value = try JSONValue.parse(bytes) } catch {
                throw InputError(ProviderTokenProblem.partNotJSON(part: part, name: name, error))
            }
            guard case .object = value else { throw InputError(ProviderTokenProblem.partNotObject(part: part, name: name, value.kind)) }
            return value
        }
        header = try json(0, "header")
        claims = try json(1, "claims")
        guard !parts[2].isEmpty else { throw InputError(ProviderTokenProblem.signatureEmpty) }
        guard let signature = Base64URL.decode(parts[2]) else { throw InputError(ProviderTokenProblem.signatureNotBase64URL) }
        self.signature = signature
        signingInput = String(parts[0]) + "." + String(parts[1])
        compact = String(token)
    }
}

/// What is wrong with a provider token (a JWT) given to be read or sent, or why one could not be made.
public enum ProviderTokenProblem: InputProblem {
    case empty
    /// Not three parts separated by '.'.
    case parts(count: Int)
    /// Part 1 (`name` "header") or 2 ("claims") is empty.
    case partEmpty(part: Int, name: String)
    case partNotBase64URL(part: Int, name: String)
    case partNotJSON(part: Int, name: String, JSONParseError)
    case partNotObject(part: Int, name: String, JSONKind)
    /// No signature: the token is unsigned.
    case signatureEmpty
    case signatureNotBase64URL
    /// The key could not sign (what the signer said, as it said it).
    case cannotSign(String)
}

extension Substring {
    public func trimmingWhitespace() -> Substring {
        var s = self
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return s
    }
}
