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
        try resolve(values, choice: try values.credentialChoice(), options)
    }

    /// The choice already made of the settings (`SettingValues.credentialChoice()`), read and checked.
    public static func resolve(_ values: SettingValues, choice: CredentialChoice?, _ options: CredentialOptions) throws(InputError) -> Credentials {
        if choice == .certificate {
            let (path, identity) = try CertificateCredential.load(values, options)
            return Credentials(authorization: CertificateAuthorization(), certificate: identity, certificatePath: path)
        }
        try CertificateCredential.refuseStrayFlags(values)
        if choice == .providerToken { return Credentials(authorization: try ProvidedToken.check(values), certificate: nil, certificatePath: nil) }
        if let choice, choice.signsTokens { return try SigningKey.credentials(values, choice, options) }
        // Said for `send` and for the channel commands alike: no command's name in it.
        throw InputError(CredentialProblem.missingProviderToken, kind: .usage)
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
        try identity(values, try values.credentialChoice())
    }

    /// The ids for the key `choice` names. Without a key file the key is PUSHCTL_KEY's PEM or an
    /// external signer's, and has no file name to take the key id from.
    static func identity(_ values: SettingValues, _ choice: CredentialChoice?) throws(InputError) -> Identity {
        let keyFile = values.value(.keyFile)
        var named: String?
        if case .keyFile(let path)? = choice { named = AppleIdentifier.keyID(fromKeyFileName: path) }
        if keyFile == nil && choice?.keyHasNoFile != true {
            throw InputError(CredentialProblem.missingKeyFile, kind: .usage)
        }
        guard let keyIDText = values.value(.keyID) ?? named else {
            throw InputError(CredentialProblem.missingKeyID(fileNamed: keyFile.map { PKCS11URI($0) == nil } ?? false), kind: .usage)
        }
        guard let teamIDText = values.value(.teamID) else {
            throw InputError(CredentialProblem.missingTeamID, kind: .usage)
        }
        let source = keyFile ?? values.naming.name(choice == .environmentKey ? .key : .signer)
        return Identity(
            keyFile: source, keyID: try AppleIdentifier(.keyID, keyIDText), teamID: try AppleIdentifier(.teamID, teamIDText),
            mismatch: named == nil ? nil : AppleIdentifier.KeyFileNameMismatch(keyFile: source, keyID: keyIDText, source: values.sourceName(.keyID)))
    }

    /// The key file's bytes; a certificate given as the key is named, and pointed at the certificate setting.
    public static func file(at path: String) throws(InputError) -> KeyFile {
        let file = try KeyFile(path: path)
        if let form = PastedForm.certificate(in: file.bytes) {
            throw InputError(CredentialProblem.certificateGivenAsKey(path: path, form))
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
        let choice = try values.credentialChoice()
        if case .keyFile(let path)? = choice { return try privateKey(at: path, warn: options.warn) }
        var quiet = options
        quiet.noCache = true  // a token printed is not cached: no word about the cache's key
        do { return try signer(values, choice, identity, quiet).make() } catch let error as InputError { throw error } catch {
            throw InputError(CredentialProblem.keyNotOpened(detail: "\(error)"))
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
    static func credentials(_ values: SettingValues, _ choice: CredentialChoice, _ options: CredentialOptions) throws(InputError) -> Credentials {
        // A missing key file is the problem to report first (66), before the ids it would name.
        var file: KeyFile?
        if case .keyFile(let path) = choice { file = try SigningKey.file(at: path) }
        let identity = try identity(values, choice)
        let cache = options.noCache ? nil : ProviderTokenCache.standard(environment: values.environment, warn: options.warn)
        let source: TokenSigner
        if let file { source = file.tokenSigner } else { source = try signer(values, choice, identity, options) }
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
    static func signer(_ values: SettingValues, _ choice: CredentialChoice?, _ identity: Identity, _ options: CredentialOptions) throws(InputError)
        -> TokenSigner
    {
        switch choice {
        case .environmentKey?:
            let file = try environmentKey(values)
            return TokenSigner(seal: file.seal) { try file.privateKey() }
        case .signer(let command)?:
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
        case .tokenKey(let uri)?:
            let given = try values.value(.publicKey).map { path throws(InputError) in try verificationKey(at: path) }
            let seal = cacheSeal(signerName: "pkcs11 \(uri.shown)", values, options)
            return TokenSigner(seal: seal) {
                let opened = try OpenedTokenKey.open(uri, values, options)
                return TokenKeySigner(opened: opened, publicKey: given ?? opened.publicKey)
            }
        case .keyFile?, .providerToken?, .certificate?, nil:
            throw InputError(CredentialProblem.missingKeyFileOrURI, kind: .usage)
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
        let decoded = try DecodedJWT(parsing: token)
        try HeaderValue.check(decoded.compact, name: "the JWT", limit: 8000)
        let now = WallClock.now()
        if let iat = decoded.claims["iat"]?.integerValue, OutsideNumber.difference(now, iat) > ProviderTokenRules.lifetimeSeconds {
            throw InputError(CredentialProblem.jwtExpired(issuedAt: iat, now: now))
        }
        // A token APNs can only refuse (wrong alg, no integer iat, a malformed kid or iss) is
        // refused here, before any request: every notification would fail with it.
        let failures = ProviderTokenRules.audit(decoded, now: now).filter { $0.outcome == .failure }
        if !failures.isEmpty {
            throw InputError(CredentialProblem.jwtRefused(failures.map(\.finding)))
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
        throw InputError(CredentialProblem.certificateSettingsWithoutCertificate, kind: .usage)
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
                throw InputError(CredentialProblem.certificatePasswordNotOneLine(file: file))
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
            throw InputError(CredentialProblem.certificateExpired(shown: place, notAfter: certificate.notAfter, subject: certificate.subject))
        case .notYetValid:
            throw InputError(CredentialProblem.certificateNotYetValid(shown: place, notBefore: certificate.notBefore))
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
        throw InputError(CredentialProblem.certificateEnvironment(shown: shown, sendsTo: environment))
    }
}
