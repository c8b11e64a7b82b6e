internal import CLibcrypto
public import PushCore

/// An APNs signing key: P-256, loaded from Apple's `.p8` (unencrypted PKCS#8 PEM).
/// Signs through OpenSSL's `EVP_DigestSign*`, returning JOSE's raw r‖s.
public final class ES256PrivateKey: ES256Signing, @unchecked Sendable {
    let key: OpenSSLKey

    /// Loads a PEM private key, refusing anything but an unencrypted P-256 key with a
    /// message that says what the file holds instead.
    public init(pem bytes: [UInt8]) throws(InputError) {
        switch PEMContents(bytes) {
        case .empty:
            throw InputError(SigningKeyProblem.empty)
        case .notPEM:
            throw InputError(SigningKeyProblem.notPEM)
        case .damagedBeginLine:
            throw InputError(SigningKeyProblem.damagedBeginLine)
        case .encrypted(let label):
            throw InputError(SigningKeyProblem.encryptedTraditional(label: label))
        case .label(let label):
            if let problem = KeyProblem.forLabel(label, wantPrivate: true) { throw problem }
        }
        OpenSSLKey.clearErrors()
        guard let pointer = OpenSSLKey.withMemoryBIO(bytes, { pushctl_read_private_key($0) }) ?? nil else {
            OpenSSLKey.clearErrors()
            if PEMContents.lostLineBreaks(bytes) { throw InputError(SigningKeyProblem.lostLineBreaks) }
            throw InputError(SigningKeyProblem.unreadablePrivateKey)
        }
        let key = OpenSSLKey(taking: pointer)
        if let problem = KeyProblem.forKey(key) ?? KeyProblem.consistency(key) { throw problem }
        self.key = key
    }

    init(key: OpenSSLKey) { self.key = key }

    /// A new random P-256 key (for tests and demos; Apple's keys come from Apple).
    public static func generate() -> ES256PrivateKey {
        guard let pointer = pushctl_generate_p256() else { fatalError("OpenSSL could not generate a P-256 key") }
        return ES256PrivateKey(key: OpenSSLKey(taking: pointer))
    }

    /// Apple's `.p8` form: unencrypted PKCS#8 PEM.
    public var pkcs8PEM: String {
        guard let pem = OpenSSLKey.writeToMemoryBIO({ PEM_write_bio_PrivateKey($0, key.pointer, nil, nil, 0, nil, nil) }) else {
            fatalError("OpenSSL could not write the key as PKCS#8")
        }
        return pem
    }

    public var publicKey: ES256PublicKey { ES256PublicKey(key: key) }

    /// JOSE ES256: ECDSA P-256 over SHA-256 of `message`, as raw r‖s (64 bytes).
    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw SigningError("EVP_MD_CTX_new failed") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key.pointer) == 1 else {
            OpenSSLKey.clearErrors()
            throw SigningError("EVP_DigestSignInit failed")
        }
        var der = [UInt8](repeating: 0, count: 80)  // a P-256 DER signature is at most 72 bytes
        var derLength = der.count
        let signed = message.withUnsafeBytes { raw in
            EVP_DigestSign(context, &der, &derLength, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
        }
        guard signed == 1 else {
            OpenSSLKey.clearErrors()
            throw SigningError("EVP_DigestSign failed")
        }
        return try ECDSASignatureConversion.raw(fromDER: Array(der.prefix(derLength)))
    }
}

/// A P-256 public key, for `jwt verify`: from a PEM public key, a `.p8` private key,
/// or a JWK's x and y coordinates.
public final class ES256PublicKey: @unchecked Sendable {
    let key: OpenSSLKey

    init(key: OpenSSLKey) { self.key = key }

    /// Accepts `-----BEGIN PUBLIC KEY-----`, a certificate's key (a KMS or an HSM may give the
    /// public half that way), or a private key (whose public half is used).
    public convenience init(pem bytes: [UInt8]) throws(InputError) {
        let contents = PEMContents(bytes)
        let certificate = contents == .label("CERTIFICATE")
        guard certificate || contents == .label("PUBLIC KEY") else {
            self.init(key: try ES256PrivateKey(pem: bytes).key)
            return
        }
        OpenSSLKey.clearErrors()
        let read = certificate ? pushctl_certificate_public_key : pushctl_read_public_key
        guard let pointer = OpenSSLKey.withMemoryBIO(bytes, { read($0) }) ?? nil else {
            OpenSSLKey.clearErrors()
            throw InputError(certificate ? SigningKeyProblem.unreadableCertificate : .unreadablePublicKey)
        }
        let key = OpenSSLKey(taking: pointer)
        if let problem = KeyProblem.forKey(key) { throw problem }
        self.init(key: key)
    }

    /// From an uncompressed point (a JWK's `x` and `y`, 32 bytes each).
    public convenience init(x: [UInt8], y: [UInt8]) throws(InputError) {
        guard x.count == 32, y.count == 32 else {
            throw InputError(SigningKeyProblem.coordinateSize)
        }
        // SubjectPublicKeyInfo for id-ecPublicKey / prime256v1, then the point 04‖x‖y.
        let prefix: [UInt8] = [
            0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
            0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00, 0x04,
        ]
        let der = prefix + x + y
        let pointer: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let pointer else {
            OpenSSLKey.clearErrors()
            throw InputError(SigningKeyProblem.notOnCurve)
        }
        self.init(key: OpenSSLKey(taking: pointer))
    }

    public var pem: String {
        OpenSSLKey.writeToMemoryBIO({ PEM_write_bio_PUBKEY($0, key.pointer) }) ?? ""
    }

    /// Checks an ES256 signature over `message`, given raw r‖s or DER.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        let der: [UInt8]
        switch SignatureForm(classifying: signature) {
        case .raw:
            guard let converted = try? ECDSASignatureConversion.der(fromRaw: signature) else { return false }
            der = converted
        case .der:
            der = signature
        case .unrecognized:
            return false
        }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        defer { OpenSSLKey.clearErrors() }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key.pointer) == 1 else { return false }
        return message.withUnsafeBytes { raw in
            EVP_DigestVerify(context, der, der.count, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
        } == 1
    }
}

public struct SigningError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = "signing failed: \(description)" }
}

/// Between OpenSSL's DER `ECDSA-Sig-Value` and JOSE's fixed-width r‖s.
enum ECDSASignatureConversion {
    /// `d2i_ECDSA_SIG`, then each half with `BN_bn2binpad(…, 32)`: plain `BN_bn2bin`
    /// drops leading zero bytes and would break about one signature in 128.
    static func raw(fromDER der: [UInt8]) throws -> [UInt8] {
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { throw SigningError("d2i_ECDSA_SIG could not read OpenSSL's signature") }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer? = nil
        var s: OpaquePointer? = nil
        ECDSA_SIG_get0(signature, &r, &s)  // get0: borrowed, freed with the signature
        var out = [UInt8](repeating: 0, count: 64)
        let ok = out.withUnsafeMutableBufferPointer { buffer in
            BN_bn2binpad(r, buffer.baseAddress, 32) == 32 && BN_bn2binpad(s, buffer.baseAddress! + 32, 32) == 32
        }
        guard ok else { throw SigningError("r or s does not fit in 32 bytes") }
        return out
    }

    static func der(fromRaw raw: [UInt8]) throws -> [UInt8] {
        precondition(raw.count == 64)
        guard let signature = ECDSA_SIG_new() else { throw SigningError("ECDSA_SIG_new failed") }
        defer { ECDSA_SIG_free(signature) }
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        // set0 takes ownership of r and s only when it succeeds.
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            throw SigningError("ECDSA_SIG_set0 failed")
        }
        var out: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_ECDSA_SIG(signature, &out)
        guard length > 0, let out else { throw SigningError("i2d_ECDSA_SIG failed") }
        defer { CRYPTO_free(out, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }
}
