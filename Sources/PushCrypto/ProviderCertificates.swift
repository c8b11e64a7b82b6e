internal import CLibcrypto
public import PushCore

/// Owns one `X509*`; freed in deinit. Never leaves this module.
final class OpenSSLCertificate: @unchecked Sendable {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) { self.pointer = pointer }
    deinit { X509_free(pointer) }

    var pem: [UInt8] {
        guard let text = OpenSSLKey.writeToMemoryBIO({ PEM_write_bio_X509($0, pointer) }) else { return [] }
        return Array(text.utf8)
    }

    var der: [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        let length = pushctl_cert_der(pointer, &out)
        guard length > 0, let out else { return [] }
        defer { CRYPTO_free(out, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// What the certificate says about itself, in PushCore's terms.
    var details: ProviderCertificate {
        func nameText(_ name: OpaquePointer?) -> String {
            guard let name else { return "" }
            return OpenSSLKey.writeToMemoryBIO({ pushctl_name_text($0, name) }) ?? ""
        }
        func entry(_ nid: Int32) -> String? {
            guard let name = X509_get_subject_name(pointer) else { return nil }
            var buffer = [CChar](repeating: 0, count: 512)
            let length = pushctl_name_entry(name, nid, &buffer, Int32(buffer.count))
            guard length >= 0 else { return nil }
            return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        var serial = [CChar](repeating: 0, count: 128)
        let serialLength = pushctl_cert_serial(pointer, &serial, Int32(serial.count))
        let topics = extensionBytes(AppleTopicsExtension.oid).flatMap(AppleTopicsExtension.parse) ?? []
        return ProviderCertificate(
            subject: nameText(X509_get_subject_name(pointer)),
            issuer: nameText(X509_get_issuer_name(pointer)),
            uid: entry(NID_userId), commonName: entry(NID_commonName),
            serialHex: serialLength > 0 ? String(decoding: serial.prefix(Int(serialLength)).map { UInt8(bitPattern: $0) }, as: UTF8.self) : "",
            notBefore: Int64(pushctl_cert_not_before(pointer)), notAfter: Int64(pushctl_cert_not_after(pointer)),
            topics: topics,
            development: extensionBytes(AppleTopicsExtension.developmentOID) != nil,
            production: extensionBytes(AppleTopicsExtension.productionOID) != nil,
            fingerprint: SHA256.hash(der).hexString)
    }

    func extensionBytes(_ oid: String) -> [UInt8]? {
        guard let data = pushctl_cert_extension(pointer, oid) else { return nil }
        var length: Int32 = 0
        guard let bytes = pushctl_octets(data, &length), length >= 0 else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(length)))
    }
}

/// A provider certificate with its private key, read and checked through libcrypto, ready for
/// TLS client authentication: libcurl gets the PEM bytes in memory; nothing is written anywhere.
public struct ClientIdentity: Sendable {
    public let certificate: ProviderCertificate
    /// The certificate, then any CA certificates that came with it, as PEM.
    public let certificatePEM: [UInt8]
    /// The private key as unencrypted PKCS#8 PEM (memory only; never printed).
    public let privateKeyPEM: [UInt8]

    /// Reads a `.p12`/`.pfx` (password optional) or a PEM certificate with its key (in the same
    /// file, or in `key`). Every problem is an `InputError` naming the file (exit 65, or 66 for
    /// nothing to read), with what to do.
    public static func load(
        _ bytes: [UInt8], source: String, key: (bytes: [UInt8], source: String)? = nil,
        password: String?
    ) throws(InputError) -> ClientIdentity {
        let contents = try CertificateFile.read(bytes, source: source, password: password)
        var privateKey = contents.key
        if let key {
            if privateKey != nil { throw InputError(CertificateProblem.keyGivenTwice(source: source)) }
            privateKey = try CertificateFile.readKey(key.bytes, source: key.source, password: password)
        }
        guard let privateKey else {
            throw InputError(contents.isPKCS12 ? CertificateProblem.p12WithoutKey(source: source) : .noPrivateKey(source: source))
        }
        OpenSSLKey.clearErrors()
        guard X509_check_private_key(contents.certificate.pointer, privateKey.pointer) == 1 else {
            OpenSSLKey.clearErrors()
            throw InputError(CertificateProblem.keyDoesNotMatch(subject: contents.details.subject, source: source))
        }
        guard let keyText = OpenSSLKey.writeToMemoryBIO({ PEM_write_bio_PrivateKey($0, privateKey.pointer, nil, nil, 0, nil, nil) }) else {
            throw InputError(CertificateProblem.cannotReencodeKey)
        }
        let chainPEM = ([contents.certificate] + contents.chain).flatMap(\.pem)
        return ClientIdentity(certificate: contents.details, certificatePEM: chainPEM, privateKeyPEM: Array(keyText.utf8))
    }
}

/// Reading certificate files: `.p12`/`.pfx` (PKCS#12), PEM (certificate and maybe key), or a
/// DER `.cer` as Apple's portal downloads it.
public enum CertificateFile {
    struct Contents {
        let certificate: OpenSSLCertificate
        let chain: [OpenSSLCertificate]
        let key: OpenSSLKey?
        let isPKCS12: Bool
        var details: ProviderCertificate { certificate.details }
    }

    /// What `pushctl cert inspect` shows: the certificate, and whether its key came with it.
    public static func inspect(
        _ bytes: [UInt8], source: String, password: String?
    ) throws(InputError) -> (certificate: ProviderCertificate, hasPrivateKey: Bool) {
        let contents = try read(bytes, source: source, password: password)
        return (contents.details, contents.key != nil)
    }

    /// Whether opening this file needs a password nobody gave yet: a .p12 whose MAC the empty
    /// password does not verify, or a PEM file with an encrypted key.
    public static func needsPassword(_ bytes: [UInt8]) -> Bool {
        if isPEM(bytes) {
            let text = String(decoding: bytes, as: UTF8.self)
            return text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || text.contains("Proc-Type: 4,ENCRYPTED")
        }
        OpenSSLKey.clearErrors()
        defer { OpenSSLKey.clearErrors() }
        var key: OpaquePointer? = nil
        var cert: OpaquePointer? = nil
        var chain: OpaquePointer? = nil
        let status = OpenSSLKey.withMemoryBIO(bytes) { pushctl_p12_read($0, nil, &key, &cert, &chain) } ?? 1
        if let key { EVP_PKEY_free(key) }
        if let cert { X509_free(cert) }
        pushctl_chain_free(chain)
        return status == 2
    }

    static func isPEM(_ bytes: [UInt8]) -> Bool {
        bytes.prefix(64 * 1024).withUnsafeBufferPointer { buffer in
            let marker = Array("-----BEGIN ".utf8)
            guard buffer.count >= marker.count else { return false }
            for start in 0...(buffer.count - marker.count) where buffer[start] == 0x2D {
                if Array(buffer[start..<(start + marker.count)]) == marker { return true }
            }
            return false
        }
    }

    static func read(_ bytes: [UInt8], source: String, password: String?) throws(InputError) -> Contents {
        if bytes.isEmpty { throw InputError(CertificateProblem.empty(source: source)) }
        if isPEM(bytes) { return try readPEM(bytes, source: source, password: password) }
        if pushctl_load_legacy_provider() == 0 { OpenSSLKey.clearErrors() }
        OpenSSLKey.clearErrors()
        var key: OpaquePointer? = nil
        var cert: OpaquePointer? = nil
        var chain: OpaquePointer? = nil
        let status = OpenSSLKey.withMemoryBIO(bytes) { pushctl_p12_read($0, password, &key, &cert, &chain) } ?? 1
        let reason = OpenSSLKey.lastErrorReason()
        OpenSSLKey.clearErrors()
        let keyBox = key.map(OpenSSLKey.init(taking:))
        let certBox = cert.map(OpenSSLCertificate.init(taking:))
        var chainBoxes: [OpenSSLCertificate] = []
        for index in 0..<pushctl_chain_count(chain) {
            if let item = pushctl_chain_at(chain, index), X509_up_ref(item) == 1 { chainBoxes.append(OpenSSLCertificate(taking: item)) }
        }
        pushctl_chain_free(chain)
        switch status {
        case 0:
            // A .p12 exported without its key keeps the certificate among the "CA" ones.
            guard let certBox = certBox ?? (keyBox == nil && chainBoxes.count == 1 ? chainBoxes.removeFirst() : nil) else {
                throw InputError(CertificateProblem.p12WithoutCertificate(source: source))
            }
            return Contents(certificate: certBox, chain: chainBoxes, key: keyBox, isPKCS12: true)
        case 1:
            // Not PKCS#12: perhaps a DER certificate (Apple's aps.cer / aps_development.cer).
            if let der = OpenSSLKey.withMemoryBIO(bytes, { d2i_X509_bio($0, nil) }) ?? nil {
                OpenSSLKey.clearErrors()
                return Contents(certificate: OpenSSLCertificate(taking: der), chain: [], key: nil, isPKCS12: false)
            }
            OpenSSLKey.clearErrors()
            throw InputError(CertificateProblem.unrecognized(source: source))
        case 2:
            if password?.isEmpty ?? true { throw InputError(CertificateProblem.p12NeedsPassword(source: source)) }
            throw InputError(CertificateProblem.p12WrongPassword(source: source))
        default:
            if (reason ?? "").contains("unsupported") { throw InputError(CertificateProblem.p12LegacyEncryption(source: source, detail: reason)) }
            throw InputError(CertificateProblem.p12Unreadable(source: source, detail: reason))
        }
    }

    static func readPEM(_ bytes: [UInt8], source: String, password: String?) throws(InputError) -> Contents {
        OpenSSLKey.clearErrors()
        var certificates: [OpenSSLCertificate] = []
        _ = OpenSSLKey.withMemoryBIO(bytes) { bio -> Void in
            while certificates.count < 16, let next = pushctl_read_certificate_pem(bio) {
                certificates.append(OpenSSLCertificate(taking: next))
            }
        }
        OpenSSLKey.clearErrors()
        guard let first = certificates.first else {
            let text = String(decoding: bytes, as: UTF8.self)
            if text.contains("PRIVATE KEY-----") { throw InputError(CertificateProblem.keyWithoutCertificate(source: source)) }
            throw InputError(CertificateProblem.noPEMCertificate(source: source))
        }
        let hasKey = String(decoding: bytes, as: UTF8.self).contains("PRIVATE KEY-----")
        let key = hasKey ? try readKey(bytes, source: source, password: password) : nil
        return Contents(certificate: first, chain: Array(certificates.dropFirst()), key: key, isPKCS12: false)
    }

    static func readKey(_ bytes: [UInt8], source: String, password: String?) throws(InputError) -> OpenSSLKey {
        OpenSSLKey.clearErrors()
        let pointer: OpaquePointer?? = (password ?? "").withCString { pass in
            OpenSSLKey.withMemoryBIO(bytes) { pushctl_read_private_key_with_password($0, pass) }
        }
        OpenSSLKey.clearErrors()
        if let pointer = pointer ?? nil { return OpenSSLKey(taking: pointer) }
        if needsPassword(bytes) {
            if password?.isEmpty ?? true { throw InputError(CertificateProblem.keyNeedsPassword(source: source)) }
            throw InputError(CertificateProblem.keyWrongPassword(source: source))
        }
        throw InputError(CertificateProblem.noPEMKey(source: source))
    }
}

extension OpenSSLKey {
    /// The reason text of the newest queued OpenSSL error ("unsupported", "mac verify failure").
    static func lastErrorReason() -> String? {
        let code = ERR_peek_last_error()
        guard code != 0, let text = ERR_reason_error_string(code) else { return nil }
        return OutsideText.display(String(cString: text), limit: 120)
    }
}

/// Throwaway certificates shaped like Apple's push certificates (UID = bundle id, the topics
/// extension, the environment extensions), signed by a throwaway CA: for `pushctl mock` and the
/// classroom. Their names say plainly that they are not Apple's.
public struct TestCertificates: Sendable {
    public let caPEM: [UInt8]
    public let certificatePEM: [UInt8]
    public let privateKeyPEM: [UInt8]
    /// Key, certificate and CA as PKCS#12 (AES-256-CBC, SHA-256 MAC), under the given password.
    public let pkcs12: [UInt8]
    public let certificate: ProviderCertificate

    /// - Parameters:
    ///   - topics: the first is the bundle id (the UID); all go to the topics extension.
    ///   - validFrom: seconds from now to the start of validity (negative: in the past).
    ///   - validity: seconds the certificate stays valid from its start.
    public static func make(
        topics: [ProviderCertificate.Topic], development: Bool, production: Bool,
        validFrom: Int, validity: Int, password: String
    ) throws(InputError) -> TestCertificates {
        guard let bundleID = topics.first?.name else {
            throw InputError(CertificateProblem.testCertificateNeedsTopic)
        }
        let failure = InputError(CertificateProblem.testCertificatesFailed)
        guard let caKeyPointer = pushctl_generate_p256(), let leafKeyPointer = pushctl_generate_rsa(2048) else { throw failure }
        let caKey = OpenSSLKey(taking: caKeyPointer)
        let leafKey = OpenSSLKey(taking: leafKeyPointer)

        guard let caPointer = pushctl_cert_new(caKey.pointer, -3600, 10 * 365 * 86_400) else { throw failure }
        let ca = OpenSSLCertificate(taking: caPointer)
        let caName = X509_get_subject_name(ca.pointer)
        guard pushctl_name_add(caName, "O", "pushctl test") == 1,
            pushctl_name_add(caName, "CN", "pushctl test CA (not Apple)") == 1,
            X509_set_issuer_name(ca.pointer, caName) == 1,
            pushctl_cert_add_conf_extension(ca.pointer, nil, NID_basic_constraints, "critical,CA:TRUE") == 1,
            pushctl_cert_add_conf_extension(ca.pointer, nil, NID_key_usage, "critical,keyCertSign,cRLSign") == 1,
            pushctl_cert_add_conf_extension(ca.pointer, nil, NID_subject_key_identifier, "hash") == 1,
            X509_sign(ca.pointer, caKey.pointer, EVP_sha256()) > 0
        else { throw failure }

        let from = max(-100 * 365 * 86_400, min(validFrom, 100 * 365 * 86_400))
        let to = from + max(1, min(validity, 100 * 365 * 86_400))
        guard let leafPointer = pushctl_cert_new(leafKey.pointer, from, to) else { throw failure }
        let leaf = OpenSSLCertificate(taking: leafPointer)
        let name = X509_get_subject_name(leaf.pointer)
        let environment = development && production ? "" : development ? "Development " : "Production "
        guard pushctl_name_add(name, "UID", bundleID) == 1,
            // X.509 caps a common name at 64 characters.
            pushctl_name_add(name, "CN", String("Apple \(environment)Push Services: \(bundleID)".prefix(64))) == 1,
            pushctl_name_add(name, "OU", "PUSHCTLTST") == 1,
            pushctl_name_add(name, "O", "pushctl test certificate, not Apple") == 1,
            X509_set_issuer_name(leaf.pointer, caName) == 1,
            pushctl_cert_add_conf_extension(leaf.pointer, ca.pointer, NID_basic_constraints, "critical,CA:FALSE") == 1,
            pushctl_cert_add_conf_extension(leaf.pointer, ca.pointer, NID_key_usage, "critical,digitalSignature") == 1,
            pushctl_cert_add_conf_extension(leaf.pointer, ca.pointer, NID_ext_key_usage, "clientAuth") == 1,
            pushctl_cert_add_conf_extension(leaf.pointer, ca.pointer, NID_authority_key_identifier, "keyid") == 1
        else { throw failure }
        let null: [UInt8] = [0x05, 0x00]
        if development, pushctl_cert_add_der_extension(leaf.pointer, AppleTopicsExtension.developmentOID, null, 2) != 1 { throw failure }
        if production, pushctl_cert_add_der_extension(leaf.pointer, AppleTopicsExtension.productionOID, null, 2) != 1 { throw failure }
        let topicsDER = AppleTopicsExtension.encode(topics)
        guard pushctl_cert_add_der_extension(leaf.pointer, AppleTopicsExtension.oid, topicsDER, Int32(topicsDER.count)) == 1,
            X509_sign(leaf.pointer, caKey.pointer, EVP_sha256()) > 0
        else { throw failure }

        guard let keyText = OpenSSLKey.writeToMemoryBIO({ PEM_write_bio_PrivateKey($0, leafKey.pointer, nil, nil, 0, nil, nil) }) else { throw failure }
        guard let bio = BIO_new(BIO_s_mem()) else { throw failure }
        defer { BIO_free(bio) }
        let written = password.withCString { pushctl_p12_write(bio, $0, bundleID, leafKey.pointer, leaf.pointer, ca.pointer) }
        var data: UnsafeMutablePointer<CChar>? = nil
        let length = pushctl_bio_mem_data(bio, &data)
        guard written == 1, length > 0, let data else {
            OpenSSLKey.clearErrors()
            throw failure
        }
        let p12 = Array(UnsafeRawBufferPointer(start: data, count: length))
        return TestCertificates(
            caPEM: ca.pem, certificatePEM: leaf.pem, privateKeyPEM: Array(keyText.utf8),
            pkcs12: p12, certificate: leaf.details)
    }
}
