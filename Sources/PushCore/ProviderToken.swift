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

    public func describe(byteCount: Int) -> String { words(byteCount: byteCount).description }

    public func words(byteCount: Int) -> Words {
        switch self {
        case .raw: return Words("raw r‖s, \(byteCount) bytes (standard JOSE ES256, RFC 7518 §3.4)",
                                es: "r‖s en bruto, \(byteCount) bytes (ES256 estándar de JOSE, RFC 7518 §3.4)")
        case .der: return Words("DER, \(byteCount) bytes (as made by `openssl dgst -sign`; not standard JOSE, but APNs accepts it)",
                                es: "DER, \(byteCount) bytes (como la hace `openssl dgst -sign`; no es JOSE estándar, pero APNs la acepta)")
        case .unrecognized: return Words("\(byteCount) bytes, neither raw r‖s (64 bytes) nor a DER ECDSA signature",
                                         es: "\(byteCount) bytes, ni r‖s en bruto (64 bytes) ni una firma ECDSA en DER")
        }
    }

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
        if token.isEmpty { throw InputError(Words("the JWT is empty", es: "el JWT está vacío"), hint: Words("pass the token as an argument, or '-' to read it from standard input", es: "pasa el token como argumento, o '-' para leerlo de la entrada estándar")) }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw InputError(
                Words("a JWT has three parts separated by '.', this one has \(parts.count)",
                      es: "un JWT tiene tres partes separadas por '.', y este tiene \(parts.count)"),
                hint: Words("copy the whole token: header.claims.signature", es: "copia el token entero: cabecera.claims.firma"))
        }
        func json(_ index: Int, _ name: String) throws(InputError) -> JSONValue {
            guard !parts[index].isEmpty else { throw InputError(Words("the \(name) (part \(index + 1)) is empty", es: "la parte \(index + 1) (\(name)) está vacía")) }
            guard let bytes = Base64URL.decode(parts[index]) else {
                throw InputError(Words("the \(name) (part \(index + 1)) is not valid base64url", es: "la parte \(index + 1) (\(name)) no es base64url válido"), hint: Words("was the token cut or wrapped when copied?", es: "¿se cortó o partió el token al copiarlo?"))
            }
            let value: JSONValue
            do { value = try JSONValue.parse(bytes) } catch {
                throw InputError(Words("the \(name) (part \(index + 1)) is not valid JSON: \(error)", es: "la parte \(index + 1) (\(name)) no es JSON válido: \(error)"))
            }
            guard case .object = value else {
                throw InputError(Words("the \(name) (part \(index + 1)) holds \(value.typeName), not a JSON object", es: "la parte \(index + 1) (\(name)) contiene \(value.typeWords.es), no un objeto JSON"))
            }
            return value
        }
        header = try json(0, "header")
        claims = try json(1, "claims")
        guard !parts[2].isEmpty else { throw InputError(Words("the signature (part 3) is empty: this token is unsigned", es: "la firma (parte 3) está vacía: este token no está firmado")) }
        guard let signature = Base64URL.decode(parts[2]) else {
            throw InputError(Words("the signature (part 3) is not valid base64url", es: "la firma (parte 3) no es base64url válido"), hint: Words("was the token cut or wrapped when copied?", es: "¿se cortó o partió el token al copiarlo?"))
        }
        self.signature = signature
        signingInput = String(parts[0]) + "." + String(parts[1])
        compact = String(token)
    }
}

extension Substring {
    public func trimmingWhitespace() -> Substring {
        var s = self
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return s
    }
}
