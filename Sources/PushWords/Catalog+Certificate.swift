public import PushCore

// Provider certificates.

extension ProviderCertificate {
    /// Which environments the certificate serves, in words (English in JSON, the reader's language in text).
    public var environments: Words {
        switch (development, production) {
        case (true, true): return Words("development and production", es: "desarrollo y producción")
        case (true, false): return Words("development only", es: "solo desarrollo")
        case (false, true): return Words("production only", es: "solo producción")
        case (false, false): return Words("none marked", es: "ninguno indicado")
        }
    }

    /// "development", "production", "development and production" or "none marked".
    public var environmentsDescription: String { environments.text(.en) }
}

extension CertificateRefusal {
    public var words: Words {
        switch self {
        case .needsTokenAuthentication(let pushType):
            return Words(
                "push type \(pushType.rawValue) needs token authentication (a .p8 key); APNs does not accept it over a certificate",
                es: "el tipo \(pushType.rawValue) necesita autenticación por token (una clave .p8); APNs no lo acepta con un certificado")
        case .topicNotCovered(let shown, let pushType, let covered):
            let list = covered.joined(separator: ", ")
            return Words(
                "this certificate does not cover the topic '\(shown)' (push type \(pushType.rawValue)); it covers: \(list)",
                es: "este certificado no cubre el topic '\(shown)' (tipo \(pushType.rawValue)); cubre: \(list)")
        }
    }
}

extension CertificateProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .empty(let source):
            let place = OutsideText.display(source)
            return Words("the certificate file '\(place)' is empty", es: "el archivo del certificado '\(place)' está vacío")
        case .unrecognized(let source):
            let place = OutsideText.display(source)
            return Words(
                "'\(place)' is neither a .p12 (PKCS#12) nor a PEM or DER certificate (damaged, or another kind of file)",
                es: "'\(place)' no es un .p12 (PKCS#12) ni un certificado PEM o DER (está dañado, o es otro tipo de archivo)")
        case .p12WithoutCertificate(let source):
            let place = OutsideText.display(source)
            return Words("the .p12 '\(place)' holds no certificate", es: "el .p12 '\(place)' no contiene ningún certificado")
        case .p12WithoutKey(let source):
            let place = OutsideText.display(source)
            return Words(
                "the .p12 '\(place)' holds the certificate but not its private key", es: "el .p12 '\(place)' contiene el certificado pero no su clave privada")
        case .p12NeedsPassword(let source):
            let place = OutsideText.display(source)
            return Words(
                "the .p12 '\(place)' is protected by a password, and none was given",
                es: "el .p12 '\(place)' está protegido con contraseña, y no se dio ninguna")
        case .p12WrongPassword(let source):
            let place = OutsideText.display(source)
            return Words(
                "the password does not open the .p12 '\(place)' (its integrity check failed: a wrong password, or a damaged file)",
                es: "la contraseña no abre el .p12 '\(place)' (falló su comprobación de integridad: contraseña equivocada, o archivo dañado)")
        case .p12LegacyEncryption(let source, let detail):
            let place = OutsideText.display(source)
            let detail = detail.map { ": \($0)" } ?? ""
            return Words(
                "the .p12 '\(place)' uses an encryption OpenSSL 3 reads only through its legacy provider, which is not available here\(detail)",
                es: "el .p12 '\(place)' usa un cifrado que OpenSSL 3 solo lee con su proveedor legacy, que aquí no está disponible\(detail)")
        case .p12Unreadable(let source, let detail):
            let place = OutsideText.display(source)
            let detail = detail.map { ": \($0)" } ?? ""
            return Words("the .p12 '\(place)' could not be read\(detail)", es: "no se pudo leer el .p12 '\(place)'\(detail)")
        case .keyWithoutCertificate(let source):
            let place = OutsideText.display(source)
            return Words("'\(place)' holds a private key but no certificate", es: "'\(place)' contiene una clave privada pero ningún certificado")
        case .noPEMCertificate(let source):
            let place = OutsideText.display(source)
            return Words(
                "'\(place)' holds no readable PEM certificate ('-----BEGIN CERTIFICATE-----')",
                es: "'\(place)' no contiene un certificado PEM legible ('-----BEGIN CERTIFICATE-----')")
        case .noPrivateKey(let source):
            let place = OutsideText.display(source)
            return Words("'\(place)' holds a certificate but no private key", es: "'\(place)' contiene un certificado pero ninguna clave privada")
        case .keyGivenTwice(let source):
            let place = OutsideText.display(source)
            return Words("'\(place)' already holds a private key; ", es: "'\(place)' ya contiene una clave privada; ") + Self.key
                + Words(" is for a certificate without one", es: " es para un certificado sin ella")
        case .keyNeedsPassword(let source):
            let place = OutsideText.display(source)
            return Words(
                "the private key in '\(place)' is encrypted, and no password was given",
                es: "la clave privada de '\(place)' está cifrada, y no se dio ninguna contraseña")
        case .keyWrongPassword(let source):
            let place = OutsideText.display(source)
            return Words("the password does not decrypt the private key in '\(place)'", es: "la contraseña no descifra la clave privada de '\(place)'")
        case .noPEMKey(let source):
            let place = OutsideText.display(source)
            return Words("'\(place)' holds no readable PEM private key", es: "'\(place)' no contiene una clave privada PEM legible")
        case .keyDoesNotMatch(let subject, let source):
            let subject = OutsideText.display(subject, limit: 160)
            let place = OutsideText.display(source)
            return Words(
                "the private key does not belong to the certificate '\(subject)' in '\(place)'",
                es: "la clave privada no es la del certificado '\(subject)' de '\(place)'")
        case .cannotReencodeKey:
            return Words("OpenSSL could not re-encode the certificate's private key", es: "OpenSSL no pudo volver a codificar la clave privada del certificado")
        case .testCertificateNeedsTopic:
            return Words("a test certificate needs at least one topic", es: "un certificado de prueba necesita al menos un topic")
        case .testCertificatesFailed: return Words("OpenSSL could not make the test certificates", es: "OpenSSL no pudo crear los certificados de prueba")
        }
    }

    public var hintWords: Words? {
        let giveIt = Words("give it with ", es: "dala con ") + Self.password
        let check = Words("check ", es: "revisa ") + Self.password
        switch self {
        case .p12WithoutCertificate:
            return Words("export the certificate with its key from Keychain Access", es: "exporta el certificado con su clave desde Acceso a Llaveros")
        case .unrecognized:
            return Words(
                "give the .p12 exported from Keychain Access, or a PEM certificate with its key (",
                es: "da el .p12 exportado desde Acceso a Llaveros, o un certificado PEM con su clave (") + Self.key + Words(verbatim: ")")
        case .p12WithoutKey:
            return Words(
                "in Keychain Access, select the certificate together with its key and export both (2 items) as .p12",
                es: "en Acceso a Llaveros, selecciona el certificado junto con su clave y exporta ambos (2 ítems) como .p12")
        case .p12NeedsPassword, .keyNeedsPassword: return giveIt
        case .p12WrongPassword, .keyWrongPassword: return check
        case .p12LegacyEncryption:
            return Words(
                "install OpenSSL's legacy module, or re-export the file: openssl pkcs12 -legacy -in old.p12 -out both.pem -nodes, then openssl pkcs12 -export -in both.pem -out new.p12",
                es:
                    "instala el módulo legacy de OpenSSL, o vuelve a exportar el archivo: openssl pkcs12 -legacy -in old.p12 -out both.pem -nodes, y luego openssl pkcs12 -export -in both.pem -out new.p12"
            )
        case .p12Unreadable:
            return Words(
                "export it again from Keychain Access (certificate and key together)",
                es: "vuelve a exportarlo desde Acceso a Llaveros (certificado y clave juntos)")
        case .keyWithoutCertificate:
            return Words("give the certificate with ", es: "da el certificado con ") + Self.certificate
                + Words(" and this file with ", es: " y este archivo con ") + Self.key
        case .noPEMCertificate:
            return Words(
                "give the .p12 exported from Keychain Access, or the certificate as PEM",
                es: "da el .p12 exportado desde Acceso a Llaveros, o el certificado en PEM")
        case .noPrivateKey:
            return Words("give the key with ", es: "da la clave con ") + Self.key
                + Words(", or put both PEM blocks in one file", es: ", o pon ambos bloques PEM en un mismo archivo")
        case .noPEMKey:
            return Words(
                "give the certificate's key as PEM ('-----BEGIN PRIVATE KEY-----')", es: "da la clave del certificado en PEM ('-----BEGIN PRIVATE KEY-----')")
        case .keyDoesNotMatch:
            return Words(
                "use the key that made the certificate's signing request (Keychain Access shows it under the certificate)",
                es: "usa la clave con la que se hizo la solicitud de firma del certificado (Acceso a Llaveros la muestra bajo el certificado)")
        case .empty, .keyGivenTwice, .cannotReencodeKey, .testCertificateNeedsTopic, .testCertificatesFailed: return nil
        }
    }

    /// How a user gives each part (the settings, as the program names them).
    static var certificate: Words { Words.named(.certificate) }
    static var key: Words { Words.named(.certificateKey) }
    static var password: Words {
        Words(
            "\(Setting.certificatePassword) or PUSHCTL_CERT_PASSWORD (a trailing newline in the file is ignored)",
            es: "\(Setting.certificatePassword) o PUSHCTL_CERT_PASSWORD (un salto de línea al final del archivo se ignora)")
    }
}
