public import PushCore
public import PushCrypto
public import PushCurl
import PushFiles
import PushSystem
public import PushWords

/// How `Credentials.resolve` may talk to the person running it.
public struct CredentialOptions {
    /// Sign a new token rather than reuse the cached one.
    public var noCache = false
    /// Asks for a password on a terminal (given the file it is for); nil where nobody can answer (CI).
    public var askPassword: ((String) -> String?)?
    /// Asks for a PKCS#11 token's PIN on a terminal (given the token's URI, PIN hidden); nil where nobody can answer.
    public var askPIN: ((String) -> String?)?
    /// What is worth saying but not refusing (a key others can read, a certificate about to expire).
    public var warn: @Sendable (Words) -> Void = { _ in }
    /// Leaves out the warnings about things the run will do anyway (a certificate about to expire).
    public var quiet = false
    /// Signs a provider token before anything is sent when the key is not a file (an external
    /// signer, a PKCS#11 token), so that a failing one stops the run first. A dry run sets it off
    /// unless it shows the real token: it runs no signer and logs in to no token.
    public var signBeforeSending = true

    public init() {}
}

/// How a run authenticates, resolved from the settings by one rule for every command that sends
/// (send, channel, doctor, jwt): a provider token signed from a key file (cached up to 50
/// minutes), one minted elsewhere, or a client certificate. Each is read and checked before
/// anything is sent: a malformed key, an expired JWT or certificate stops the run (65).
public struct Credentials {
    public let authorization: any AuthorizationSource
    /// The client certificate and its key, when one authenticates (TLS), and the file it came from.
    public let certificate: ClientIdentity?
    public let certificatePath: String?
    /// What the likely cause is when APNs gives a reason (a key id that contradicts the key file's name).
    public var likelyCauses: [RejectionReason: Words] = [:]

    /// The settings' choice, read and checked.
    public static func resolve(_ values: SettingValues, _ options: CredentialOptions) throws(InputError) -> Credentials {
        let choice = try values.credentialChoice()
        if choice == .certificate {
            let (path, identity) = try CertificateCredential.load(values, options)
            return Credentials(authorization: CertificateAuthorization(), certificate: identity, certificatePath: path)
        }
        try CertificateCredential.refuseStrayFlags(values)
        if choice == .jwt { return Credentials(authorization: try ProvidedToken.check(values), certificate: nil, certificatePath: nil) }
        if choice == .keyFile || choice == .key || choice == .signer { return try SigningKey.credentials(values, options) }
        // Said for `send` and for the channel commands alike: no command's name in it.
        throw InputError(
            Words(
                "missing a provider token: give \(Setting.keyFile) with \(Setting.teamID) (and \(Setting.keyID) unless the file is AuthKey_<KEYID>.p8), or \(Setting.jwt)",
                es:
                    "falta el token del proveedor: da \(Setting.keyFile) con \(Setting.teamID) (y \(Setting.keyID) si el archivo no se llama AuthKey_<KEYID>.p8), o \(Setting.jwt)"
            ),
            kind: .usage)
    }

    /// The client certificate as libcurl takes it (in memory), when one authenticates.
    public var clientCertificate: TLSClientCertificate? {
        certificate.map { TLSClientCertificate(certificatePEM: $0.certificatePEM, privateKeyPEM: $0.privateKeyPEM) }
    }

    /// A certificate for one environment only, sent to the other: 65 with the why.
    public func requireEnvironment(_ environment: APNsEnvironment?) throws(InputError) {
        guard let certificate, let certificatePath, let environment else { return }
        try CertificateCredential.requireEnvironment(certificate.certificate, environment, path: certificatePath)
    }
}

/// `--key-file`, `--key-id`, `--team-id`: a `.p8` that signs the provider token.
public enum SigningKey {
    /// The key file and ids the settings give. A missing value is a usage error (64); a
    /// malformed id is bad input (65).
    public struct Identity {
        public let keyFile: String
        public let keyID: AppleIdentifier
        public let teamID: AppleIdentifier
        /// The key id given contradicts the file's name `AuthKey_<ID>.p8`.
        public var mismatch: AppleIdentifier.KeyFileNameMismatch?
    }

    public static func identity(_ values: SettingValues) throws(InputError) -> Identity {
        // Without a key file the key is PUSHCTL_KEY's PEM or an external signer's, and has no file name.
        let choice = try values.credentialChoice()
        let keyFile = values.value(.keyFile)
        let named = keyFile.flatMap { PKCS11URI($0) == nil ? AppleIdentifier.keyID(fromKeyFileName: $0) : nil }
        if keyFile == nil && choice != .key && choice != .signer {
            throw InputError(
                Words(
                    "missing \(Setting.keyFile.either("or")): the .p8 key that signs the JWT",
                    es: "falta \(Setting.keyFile.either("o")): la clave .p8 que firma el JWT"),
                hint: Words(
                    "give the AuthKey_<KEYID>.p8 file from Certificates, Identifiers & Profiles › Keys",
                    es: "indica el archivo AuthKey_<KEYID>.p8 de Certificates, Identifiers & Profiles › Keys"), kind: .usage)
        }
        guard let keyIDText = values.value(.keyID) ?? named else {
            let why =
                keyFile.map { PKCS11URI($0) == nil } ?? false
                ? Words("the key file's name does not carry it (AuthKey_<KEYID>.p8)", es: "el nombre del archivo de la clave no lo lleva (AuthKey_<KEYID>.p8)")
                : Words("a key with no file name has no id to take it from", es: "una clave sin nombre de archivo no tiene de dónde tomarlo")
            throw InputError(
                Words("missing \(Setting.keyID.either("or")): ", es: "falta \(Setting.keyID.either("o")): ") + why,
                hint: Words(
                    "pass the 10-character Key ID Apple shows next to the key",
                    es: "indica el Key ID de 10 caracteres que Apple muestra junto a la clave"), kind: .usage)
        }
        guard let teamIDText = values.value(.teamID) else {
            throw InputError(
                Words(
                    "missing \(Setting.teamID.either("or")): your 10-character Team ID, e.g. DEF123GHIJ",
                    es: "falta \(Setting.teamID.either("o")): tu Team ID de 10 caracteres, p. ej. DEF123GHIJ"), kind: .usage)
        }
        let source = keyFile ?? values.naming.name(choice == .key ? .key : .signer)
        return Identity(
            keyFile: source, keyID: try AppleIdentifier(.keyID, keyIDText), teamID: try AppleIdentifier(.teamID, teamIDText),
            mismatch: named == nil ? nil : AppleIdentifier.KeyFileNameMismatch(keyFile: source, keyID: keyIDText, source: values.sourceName(.keyID)))
    }

    /// The key file's bytes; a certificate given as the key is named, and pointed at the certificate setting.
    public static func file(at path: String) throws(InputError) -> KeyFile {
        let file = try KeyFile(path: path)
        if let form = PastedForm.certificate(in: file.bytes) {
            let shown = OutsideText.display(path, limit: 200)
            throw InputError(
                Words(
                    "'\(shown)' is \(form.name.text(.en)), not a .p8 signing key",
                    es: "'\(shown)' es \(form.name.text(.es)), no una clave .p8 de firma"),
                hint: Words(
                    "to authenticate with this certificate, give it as \(Setting.certificate) \(shown) (no \(Setting.keyFile)); to sign tokens, give the AuthKey_<KEYID>.p8 from Apple",
                    es:
                        "para autenticarte con este certificado, dalo como \(Setting.certificate) \(shown) (sin \(Setting.keyFile)); para firmar tokens, da el AuthKey_<KEYID>.p8 de Apple"
                ))
        }
        return file
    }

    /// Reads and parses a signing key; errors name the file.
    public static func privateKey(at path: String, warn: (Words) -> Void) throws(InputError) -> ES256PrivateKey {
        let key = try file(at: path).privateKey()
        InputFiles.sharingWarning(path).map { warn($0.words) }
        return key
    }

    /// What signs a token the settings ask for now (`pushctl jwt`): the key file's key (parsed), a
    /// token's key (opened), `PUSHCTL_KEY`'s, or the external signer.
    public static func signingKey(_ values: SettingValues, _ identity: Identity, _ options: CredentialOptions) throws(InputError) -> any ES256Signing {
        if try values.credentialChoice() == .keyFile, PKCS11URI(identity.keyFile) == nil {
            return try privateKey(at: identity.keyFile, warn: options.warn)
        }
        var quiet = options
        quiet.noCache = true  // a token printed is not cached: no word about the cache's key
        do { return try signer(values, identity, quiet).make() } catch let error as InputError { throw error } catch {
            throw InputError(Words("the key could not be opened: \(error)", es: "no se pudo abrir la clave: \(error)"))
        }
    }

    /// A public key (PEM) to verify with, or the public half of a private key.
    public static func verificationKey(at path: String) throws(InputError) -> ES256PublicKey {
        let bytes = try InputFiles.read(path, what: .keyFile)
        do {
            return try ES256PublicKey(pem: bytes)
        } catch {
            throw error.at(path)
        }
    }

    /// The signer `send` uses: a token cached by an earlier run needs no key work at all;
    /// otherwise the key is parsed now, or a token (PKCS#11, an external signer) signed now, so
    /// that a bad key or a failing signer stops the run (65) before anything is sent.
    static func credentials(_ values: SettingValues, _ options: CredentialOptions) throws(InputError) -> Credentials {
        // A missing key file is the problem to report first (66), before the ids it would name.
        let keyFile = try values.credentialChoice() == .keyFile ? values.value(.keyFile).flatMap { PKCS11URI($0) == nil ? $0 : nil } : nil
        let file = try keyFile.map { path throws(InputError) in try SigningKey.file(at: path) }
        let identity = try identity(values)
        let cache = options.noCache ? nil : ProviderTokenCache.standard(environment: values.environment, warn: options.warn)
        let source: TokenSigner
        if let file { source = file.tokenSigner } else { source = try signer(values, identity, options) }
        let signer = SigningAuthorization(signer: source, keyID: identity.keyID, teamID: identity.teamID, cache: cache)
        if !signer.adoptCachedToken() {
            if let file { _ = try file.privateKey() } else if options.signBeforeSending { try signer.signNow() }
        }
        if file != nil { InputFiles.sharingWarning(identity.keyFile).map { options.warn($0.words) } }
        var credentials = Credentials(authorization: signer, certificate: nil, certificatePath: nil)
        if let mismatch = identity.mismatch {
            options.warn(mismatch.warning)
            credentials.likelyCauses[.invalidProviderToken] = mismatch.likelyCause
        }
        return credentials
    }

    /// A key that is not a file on disk: `PUSHCTL_KEY`'s PEM, a PKCS#11 token's (`--key-file
    /// pkcs11:…`), or an external signer's (`--signer`). A key file gives nil.
    static func signer(_ values: SettingValues, _ identity: Identity, _ options: CredentialOptions) throws(InputError) -> TokenSigner {
        switch try values.credentialChoice() {
        case .key?:
            let file = try environmentKey(values)
            return TokenSigner(seal: file.seal) { try file.privateKey() }
        case .signer?:
            let command = values.value(.signer) ?? ""
            let publicKey = try signerPublicKey(values, keyID: identity.keyID)
            let seal = cacheSeal(signerName: "signer \(command)", values, options)
            let warn = options.warn
            return TokenSigner(seal: seal) {
                if publicKey == nil {
                    warn(
                        Words(
                            "the signer's signature is not checked here (no public key: give \(Setting.publicKey) or put \(identity.keyID).pem in this folder); APNs will be the judge",
                            es:
                                "la firma del firmante no se comprueba aquí (no hay clave pública: da \(Setting.publicKey) o deja \(identity.keyID).pem en esta carpeta); APNs decidirá"
                        ))
                }
                return ExternalSigner(command: command, publicKey: publicKey)
            }
        default:
            guard let text = values.value(.keyFile), let uri = PKCS11URI(text) else {
                throw InputError(Words("missing \(Setting.keyFile.either("or"))", es: "falta \(Setting.keyFile.either("o"))"), kind: .usage)
            }
            let given = try values.value(.publicKey).map { path throws(InputError) in try verificationKey(at: path) }
            let seal = cacheSeal(signerName: "pkcs11 \(uri.shown)", values, options)
            return TokenSigner(seal: seal) {
                let opened = try OpenedTokenKey.open(uri, values, options)
                return TokenKeySigner(opened: opened, publicKey: given ?? opened.publicKey)
            }
        }
    }

    /// `PUSHCTL_KEY`: the key's PEM itself (a CI secret), never written to disk. A secret stored
    /// with `\n` for its newlines is read as if they were newlines.
    static func environmentKey(_ values: SettingValues) throws(InputError) -> KeyFile {
        var pem = values.value(.key) ?? ""
        if !pem.contains("\n"), pem.contains("\\n") { pem = pem.replacing("\\n", with: "\n") }
        let file = KeyFile(path: values.naming.name(.key), bytes: Array(pem.utf8))
        _ = try file.privateKey()
        return file
    }

    /// The public key a signer's signatures are checked with: the one given, else `KEYID.pem`
    /// in the working folder (what `pushctl key generate` writes beside the key), else none.
    static func signerPublicKey(_ values: SettingValues, keyID: AppleIdentifier) throws(InputError) -> ES256PublicKey? {
        if let path = values.value(.publicKey) { return try verificationKey(at: path) }
        let beside = "\(keyID).pem"
        guard FileSystem.linkStatus(beside)?.kind == .regular else { return nil }
        return try verificationKey(at: beside)
    }

    /// How a token signed with no private key on disk is cached: sealed under `PUSHCTL_CACHE_KEY`,
    /// a secret only the real job has. Without one, tokens are not cached (said once).
    static func cacheSeal(signerName: String, _ values: SettingValues, _ options: CredentialOptions) -> ProviderTokenCache.Seal? {
        guard !options.noCache else { return nil }
        let variable = Setting.cacheKey.variable ?? ""
        guard let secret = values.value(.cacheKey) else {
            options.warn(
                Words(
                    "tokens signed without a key file are cached only under a secret: set \(variable) (32 random characters, kept as a CI secret); until then each run signs a new token",
                    es:
                        "los tokens firmados sin archivo de clave solo se guardan en la caché bajo un secreto: define \(variable) (32 caracteres aleatorios, guardados como secreto de CI); mientras tanto cada ejecución firma un token nuevo"
                ))
            return nil
        }
        guard secret.utf8.count >= 16 else {
            options.warn(
                Words(
                    "\(variable) is too short to seal the token cache (at least 16 characters; 32 random ones are better): not caching",
                    es: "\(variable) es demasiado corta para sellar la caché de tokens (al menos 16 caracteres; mejor 32 aleatorios): no se usa la caché"))
            return nil
        }
        return ProviderTokenCache.Seal(signerName: signerName, cacheKey: Array(secret.utf8))
    }
}

/// `--jwt` (or `PUSHCTL_JWT`): a provider token minted elsewhere, refused before any request when
/// APNs could only refuse it.
public enum ProvidedToken {
    static func check(_ values: SettingValues) throws(InputError) -> FixedAuthorization {
        let token = values.value(.jwt) ?? ""
        let source = Setting.jwt.either("or")
        let fuente = Setting.jwt.either("o")
        let decoded = try DecodedJWT(parsing: token)
        try HeaderValue.check(decoded.compact, name: "the JWT", limit: 8000)
        let now = WallClock.now()
        if let iat = decoded.claims["iat"]?.integerValue, OutsideNumber.difference(now, iat) > ProviderTokenRules.lifetimeSeconds {
            let age = TokenAge.describeWords(issuedAt: iat, now: now)
            throw InputError(
                Words("the JWT given with \(source) was ", es: "el JWT dado con \(fuente) está ") + age
                    + Words(
                        ": APNs would refuse every notification (ExpiredProviderToken)",
                        es: ": APNs rechazaría todas las notificaciones (ExpiredProviderToken)"),
                hint: Words(
                    "mint a new one (pushctl jwt), or pass \(Setting.keyFile) and pushctl signs and renews it",
                    es: "genera uno nuevo (pushctl jwt), o da \(Setting.keyFile) y pushctl lo firma y lo renueva"))
        }
        // A token APNs can only refuse (wrong alg, no integer iat, a malformed kid or iss) is
        // refused here, before any request: every notification would fail with it.
        let failures = ProviderTokenRules.audit(decoded, now: now).filter { $0.outcome == .failure }
        if !failures.isEmpty {
            let why = Words.joined(failures.map(\.message), separator: Words(verbatim: "; "))
            throw InputError(
                Words("the JWT given with \(source) would be refused by APNs: ", es: "APNs rechazaría el JWT dado con \(fuente): ") + why,
                hint: Words(
                    "check it with `pushctl jwt decode`, or pass \(Setting.keyFile) and pushctl signs a correct one",
                    es: "compruébalo con `pushctl jwt decode`, o pasa \(Setting.keyFile) y pushctl firma uno correcto"))
        }
        return FixedAuthorization(token: decoded.compact)
    }
}

/// `--cert [--cert-key] [--cert-password-file]` (or `PUSHCTL_CERT`, `PUSHCTL_CERT_PASSWORD`): a
/// client certificate, read through libcrypto and checked for its dates before anything is sent.
public enum CertificateCredential {
    /// The certificate's key and password files go with a certificate only.
    static func refuseStrayFlags(_ values: SettingValues) throws(InputError) {
        guard values.flags[.certificateKey] != nil || values.flags[.certificatePassword] != nil else { return }
        throw InputError(
            Words(
                "\(Setting.certificateKey) and \(Setting.certificatePassword) go with \(Setting.certificate.either("or"))",
                es: "\(Setting.certificateKey) y \(Setting.certificatePassword) van con \(Setting.certificate.either("o"))"), kind: .usage)
    }

    /// The certificate the settings name, read and checked for validity.
    public static func load(_ values: SettingValues, _ options: CredentialOptions) throws(InputError) -> (path: String, identity: ClientIdentity) {
        let path = values.value(.certificate) ?? ""
        let identity = try identity(path: path, values, options)
        try requireValid(identity.certificate, path: path, now: WallClock.now(), options)
        return (path, identity)
    }

    /// The password from its file, else from `PUSHCTL_CERT_PASSWORD`; nil when neither gives one.
    public static func password(_ values: SettingValues) throws(InputError) -> String? {
        if let file = values.flags[.certificatePassword] {
            var bytes = try InputFiles.read(file, what: .certificatePasswordFile)
            while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
            guard bytes.count <= 1024, !bytes.contains(0) else {
                throw InputError(
                    Words(
                        "the certificate password file '\(file)' must hold the password on one line",
                        es: "el archivo de contraseña del certificado '\(file)' debe tener la contraseña en una línea"))
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        return values.environment["PUSHCTL_CERT_PASSWORD"]
    }

    /// Reads and checks the certificate and its key (everything through libcrypto); asks for the
    /// password only when one is needed, none was given, and someone can answer.
    public static func identity(path: String, _ values: SettingValues, _ options: CredentialOptions) throws(InputError) -> ClientIdentity {
        let bytes = try InputFiles.read(path, what: .certificateFile)
        let keyPath = values.flags[.certificateKey]
        let key = try keyPath.map { keyPath throws(InputError) in (bytes: try InputFiles.read(keyPath, what: .certificateKeyFile), source: keyPath) }
        var password = try password(values)
        if password == nil, CertificateFile.needsPassword(key?.bytes ?? bytes) || CertificateFile.needsPassword(bytes),
            let typed = options.askPassword?(key?.source ?? path)
        {
            password = typed
        }
        let identity = try ClientIdentity.load(bytes, source: path, key: key, password: password)
        InputFiles.sharingWarning(keyPath ?? path).map { options.warn($0.words) }
        return identity
    }

    /// Expired or not yet valid: 65. Expiring within 30 days: a warning naming the date.
    static func requireValid(_ certificate: ProviderCertificate, path: String, now: Int64, _ options: CredentialOptions) throws(InputError) {
        let place = OutsideText.display(path)
        switch certificate.validity(now: now) {
        case .valid:
            break
        case .expired:
            throw InputError(
                Words(
                    "the certificate in '\(place)' expired on \(UTCDate.format(unixSeconds: certificate.notAfter)) (\(OutsideText.display(certificate.subject, limit: 120)))",
                    es:
                        "el certificado de '\(place)' caducó el \(UTCDate.format(unixSeconds: certificate.notAfter)) (\(OutsideText.display(certificate.subject, limit: 120)))"
                ),
                hint: Words(
                    "make a new one in your Apple Developer account (Certificates, Identifiers & Profiles), or move to a .p8 key, which does not expire",
                    es: "crea otro en tu cuenta de Apple Developer (Certificates, Identifiers & Profiles), o pasa a una clave .p8, que no caduca"))
        case .notYetValid:
            throw InputError(
                Words(
                    "the certificate in '\(place)' is not valid until \(UTCDate.format(unixSeconds: certificate.notBefore)); is this machine's clock right?",
                    es:
                        "el certificado de '\(place)' no es válido hasta el \(UTCDate.format(unixSeconds: certificate.notBefore)); ¿está bien el reloj de esta máquina?"
                ),
                hint: Words("check the clock (date -u), or wait until then", es: "comprueba el reloj (date -u), o espera hasta entonces"))
        case .expiresSoon(let days):
            guard !options.quiet else { return }
            let date = UTCDate.format(unixSeconds: certificate.notAfter)
            options.warn(
                Words(
                    "the certificate in '\(place)' expires on \(date), in \(days) day\(days == 1 ? "" : "s"): renew it in your Apple Developer account",
                    es:
                        "el certificado de '\(place)' caduca el \(date), dentro de \(days) día\(days == 1 ? "" : "s"): renuévalo en tu cuenta de Apple Developer"
                ))
        }
    }

    /// A development-only certificate sent to production, or the reverse: 65 with the why.
    static func requireEnvironment(_ certificate: ProviderCertificate, _ environment: APNsEnvironment, path: String) throws(InputError) {
        guard !certificate.serves(environment) else { return }
        let shown = OutsideText.display(path)
        let sandbox = environment == .sandbox
        throw InputError(
            Words(
                "the certificate in '\(shown)' is for \(sandbox ? "production" : "development") only, but this run sends to \(sandbox ? "the sandbox" : "production") (\(environment.host)); APNs would answer BadCertificateEnvironment",
                es:
                    "el certificado de '\(shown)' es solo de \(sandbox ? "producción" : "desarrollo"), pero este envío va a \(sandbox ? "sandbox" : "producción") (\(environment.host)); APNs respondería BadCertificateEnvironment"
            ),
            hint: Words(
                "send to the other environment (\(Setting.environment)), or use a certificate made for \(sandbox ? "development (Sandbox)" : "production")",
                es: "envía al otro entorno (\(Setting.environment)), o usa un certificado hecho para \(sandbox ? "desarrollo (Sandbox)" : "producción")"))
    }
}
