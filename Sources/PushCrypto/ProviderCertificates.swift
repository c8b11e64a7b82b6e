internal import CLibcrypto
public import PushCore
public import PushWords

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

/// How the caller's users give a certificate's parts, for the hints of its errors: the command
/// line names its flags, a library user its own settings; the defaults are plain words.
public struct CertificateInputNames: Sendable {
    public var certificate: Words
    public var key: Words
    public var password: Words

    public init(
        certificate: Words = Words("the certificate", es: "el certificado"),
        key: Words = Words("the certificate's key file", es: "el archivo de la clave del certificado"),
        password: Words = Words("the password", es: "la contraseña")
    ) {
        self.certificate = certificate
        self.key = key
        self.password = password
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
        password: String?, names: CertificateInputNames = CertificateInputNames()
    ) throws(InputError) -> ClientIdentity {
        let contents = try CertificateFile.read(bytes, source: source, password: password, names: names)
        var privateKey = contents.key
        if let key {
            if privateKey != nil {
                throw InputError(
                    Words(
                        "'\(OutsideText.display(source))' already holds a private key; ", es: "'\(OutsideText.display(source))' ya contiene una clave privada; "
                    )
                        + names.key + Words(" is for a certificate without one", es: " es para un certificado sin ella"), kind: .usage)
            }
            privateKey = try CertificateFile.readKey(key.bytes, source: key.source, password: password, names: names)
        }
        guard let privateKey else {
            let place = OutsideText.display(source)
            if contents.isPKCS12 {
                throw InputError(
                    Words(
                        "the .p12 '\(place)' holds the certificate but not its private key",
                        es: "el .p12 '\(place)' contiene el certificado pero no su clave privada"),
                    hint: Words(
                        "in Keychain Access, select the certificate together with its key and export both (2 items) as .p12",
                        es: "en Acceso a Llaveros, selecciona el certificado junto con su clave y exporta ambos (2 ítems) como .p12"))
            }
            throw InputError(
                Words("'\(place)' holds a certificate but no private key", es: "'\(place)' contiene un certificado pero ninguna clave privada"),
                hint: Words("give the key with ", es: "da la clave con ") + names.key
                    + Words(", or put both PEM blocks in one file", es: ", o pon ambos bloques PEM en un mismo archivo"))
        }
        OpenSSLKey.clearErrors()
        guard X509_check_private_key(contents.certificate.pointer, privateKey.pointer) == 1 else {
            OpenSSLKey.clearErrors()
            throw InputError(
                Words(
                    "the private key does not belong to the certificate '\(OutsideText.display(contents.details.subject, limit: 160))' in '\(OutsideText.display(source))'",
                    es:
                        "la clave privada no es la del certificado '\(OutsideText.display(contents.details.subject, limit: 160))' de '\(OutsideText.display(source))'"
                ),
                hint: Words(
                    "use the key that made the certificate's signing request (Keychain Access shows it under the certificate)",
                    es: "usa la clave con la que se hizo la solicitud de firma del certificado (Acceso a Llaveros la muestra bajo el certificado)"))
        }
        guard let keyText = OpenSSLKey.writeToMemoryBIO({ PEM_write_bio_PrivateKey($0, privateKey.pointer, nil, nil, 0, nil, nil) }) else {
            throw InputError(
                Words("OpenSSL could not re-encode the certificate's private key", es: "OpenSSL no pudo volver a codificar la clave privada del certificado"))
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
        _ bytes: [UInt8], source: String, password: String?,
        names: CertificateInputNames = CertificateInputNames()
    ) throws(InputError) -> (certificate: ProviderCertificate, hasPrivateKey: Bool) {
        let contents = try read(bytes, source: source, password: password, names: names)
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

    static func read(_ bytes: [UInt8], source: String, password: String?, names: CertificateInputNames) throws(InputError) -> Contents {
        let place = OutsideText.display(source)
        if bytes.isEmpty { throw InputError(Words("the certificate file '\(place)' is empty", es: "el archivo del certificado '\(place)' está vacío")) }
        if isPEM(bytes) { return try readPEM(bytes, source: source, password: password, names: names) }
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
                throw InputError(
                    Words("the .p12 '\(place)' holds no certificate", es: "el .p12 '\(place)' no contiene ningún certificado"),
                    hint: Words("export the certificate with its key from Keychain Access", es: "exporta el certificado con su clave desde Acceso a Llaveros"))
            }
            return Contents(certificate: certBox, chain: chainBoxes, key: keyBox, isPKCS12: true)
        case 1:
            // Not PKCS#12: perhaps a DER certificate (Apple's aps.cer / aps_development.cer).
            if let der = OpenSSLKey.withMemoryBIO(bytes, { d2i_X509_bio($0, nil) }) ?? nil {
                OpenSSLKey.clearErrors()
                return Contents(certificate: OpenSSLCertificate(taking: der), chain: [], key: nil, isPKCS12: false)
            }
            OpenSSLKey.clearErrors()
            throw InputError(
                Words(
                    "'\(place)' is neither a .p12 (PKCS#12) nor a PEM or DER certificate (damaged, or another kind of file)",
                    es: "'\(place)' no es un .p12 (PKCS#12) ni un certificado PEM o DER (está dañado, o es otro tipo de archivo)"),
                hint: Words(
                    "give the .p12 exported from Keychain Access, or a PEM certificate with its key (",
                    es: "da el .p12 exportado desde Acceso a Llaveros, o un certificado PEM con su clave (") + names.key + Words(verbatim: ")"))
        case 2:
            if password?.isEmpty ?? true {
                throw InputError(
                    Words(
                        "the .p12 '\(place)' is protected by a password, and none was given",
                        es: "el .p12 '\(place)' está protegido con contraseña, y no se dio ninguna"),
                    hint: Words("give it with ", es: "dala con ") + names.password, kind: .usage)
            }
            throw InputError(
                Words(
                    "the password does not open the .p12 '\(place)' (its integrity check failed: a wrong password, or a damaged file)",
                    es: "la contraseña no abre el .p12 '\(place)' (falló su comprobación de integridad: contraseña equivocada, o archivo dañado)"),
                hint: Words("check ", es: "revisa ") + names.password)
        default:
            let detail = reason.map { ": \($0)" } ?? ""
            if (reason ?? "").contains("unsupported") {
                throw InputError(
                    Words(
                        "the .p12 '\(place)' uses an encryption OpenSSL 3 reads only through its legacy provider, which is not available here\(detail)",
                        es: "el .p12 '\(place)' usa un cifrado que OpenSSL 3 solo lee con su proveedor legacy, que aquí no está disponible\(detail)"),
                    hint: Words(
                        "install OpenSSL's legacy module, or re-export the file: openssl pkcs12 -legacy -in old.p12 -out both.pem -nodes, then openssl pkcs12 -export -in both.pem -out new.p12",
                        es:
                            "instala el módulo legacy de OpenSSL, o vuelve a exportar el archivo: openssl pkcs12 -legacy -in old.p12 -out both.pem -nodes, y luego openssl pkcs12 -export -in both.pem -out new.p12"
                    ))
            }
            throw InputError(
                Words("the .p12 '\(place)' could not be read\(detail)", es: "no se pudo leer el .p12 '\(place)'\(detail)"),
                hint: Words(
                    "export it again from Keychain Access (certificate and key together)",
                    es: "vuelve a exportarlo desde Acceso a Llaveros (certificado y clave juntos)"))
        }
    }

    static func readPEM(_ bytes: [UInt8], source: String, password: String?, names: CertificateInputNames) throws(InputError) -> Contents {
        let place = OutsideText.display(source)
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
            if text.contains("PRIVATE KEY-----") {
                throw InputError(
                    Words("'\(place)' holds a private key but no certificate", es: "'\(place)' contiene una clave privada pero ningún certificado"),
                    hint: Words("give the certificate with ", es: "da el certificado con ") + names.certificate
                        + Words(" and this file with ", es: " y este archivo con ") + names.key)
            }
            throw InputError(
                Words(
                    "'\(place)' holds no readable PEM certificate ('-----BEGIN CERTIFICATE-----')",
                    es: "'\(place)' no contiene un certificado PEM legible ('-----BEGIN CERTIFICATE-----')"),
                hint: Words(
                    "give the .p12 exported from Keychain Access, or the certificate as PEM",
                    es: "da el .p12 exportado desde Acceso a Llaveros, o el certificado en PEM"))
        }
        let hasKey = String(decoding: bytes, as: UTF8.self).contains("PRIVATE KEY-----")
        let key = hasKey ? try readKey(bytes, source: source, password: password, names: names) : nil
        return Contents(certificate: first, chain: Array(certificates.dropFirst()), key: key, isPKCS12: false)
    }

    static func readKey(_ bytes: [UInt8], source: String, password: String?, names: CertificateInputNames) throws(InputError) -> OpenSSLKey {
        let place = OutsideText.display(source)
        OpenSSLKey.clearErrors()
        let pointer: OpaquePointer?? = (password ?? "").withCString { pass in
            OpenSSLKey.withMemoryBIO(bytes) { pushctl_read_private_key_with_password($0, pass) }
        }
        OpenSSLKey.clearErrors()
        if let pointer = pointer ?? nil { return OpenSSLKey(taking: pointer) }
        if needsPassword(bytes) {
            if password?.isEmpty ?? true {
                throw InputError(
                    Words(
                        "the private key in '\(place)' is encrypted, and no password was given",
                        es: "la clave privada de '\(place)' está cifrada, y no se dio ninguna contraseña"),
                    hint: Words("give it with ", es: "dala con ") + names.password, kind: .usage)
            }
            throw InputError(
                Words("the password does not decrypt the private key in '\(place)'", es: "la contraseña no descifra la clave privada de '\(place)'"),
                hint: Words("check ", es: "revisa ") + names.password)
        }
        throw InputError(
            Words("'\(place)' holds no readable PEM private key", es: "'\(place)' no contiene una clave privada PEM legible"),
            hint: Words(
                "give the certificate's key as PEM ('-----BEGIN PRIVATE KEY-----')", es: "da la clave del certificado en PEM ('-----BEGIN PRIVATE KEY-----')"))
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
            throw InputError(Words("a test certificate needs at least one topic", es: "un certificado de prueba necesita al menos un topic"), kind: .usage)
        }
        let failure = InputError(
            Words("OpenSSL could not make the test certificates", es: "OpenSSL no pudo crear los certificados de prueba"), kind: .unavailable)
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
