public import PushCore
public import PushCrypto
import PushFiles
import PushSystem
public import PushWords

/// An RFC 7512 `pkcs11:` URI as pushctl reads it: the path attributes (`token=…;object=…`) go to
/// OpenSSL as given; `module-path` and `pin-value` (the PIN in the query, or among the path's
/// attributes, where libp11 reads it too) pushctl hands over itself, so no PIN is ever inside the
/// text OpenSSL or libp11 may print. `pin-source=file:…` (a file holding the PIN) goes through.
public struct PKCS11URI: Sendable, Equatable {
    /// What OpenSSL is given: the URI without `module-path` and `pin-value`.
    public let forOpenSSL: String
    public let modulePath: String?
    public let pin: String?
    /// The URI as messages show it, any PIN as `***` (`Redaction.pkcs11`).
    public let shown: String

    public init?(_ text: String) {
        guard text.lowercased().hasPrefix("pkcs11:") else { return nil }
        let parts = text.dropFirst("pkcs11:".count).split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var keptQuery: [Substring] = []
        var module: String?
        var pin: String?
        for attribute in parts.count > 1 ? parts[1].split(separator: "&") : [] {
            let pair = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = pair.count > 1 ? PKCS11URI.percentDecoded(pair[1]) : ""
            switch pair[0].lowercased() {
            case "module-path": module = value
            case "pin-value": pin = value
            default: keptQuery.append(attribute)
            }
        }
        var keptPath: [Substring] = []
        for attribute in parts[0].split(separator: ";", omittingEmptySubsequences: false) {
            let pair = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if pair[0].lowercased() == "pin-value" {
                // The query's PIN wins, as RFC 7512 puts it there.
                pin = pin ?? (pair.count > 1 ? PKCS11URI.percentDecoded(pair[1]) : "")
            } else {
                keptPath.append(attribute)
            }
        }
        forOpenSSL = "pkcs11:" + keptPath.joined(separator: ";") + (keptQuery.isEmpty ? "" : "?" + keptQuery.joined(separator: "&"))
        modulePath = module
        self.pin = pin
        shown = Redaction.pkcs11(text)
    }

    /// Whether the URI carries a PIN (in its query or its path).
    public var carriesPIN: Bool { pin != nil }

    /// Whether the URI names a file holding the PIN (`pin-source=file:…`, read by libp11).
    public var namesPINSource: Bool { forOpenSSL.lowercased().contains("pin-source=") }

    /// `%XX` sequences as the bytes they stand for (RFC 3986); anything else as written.
    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), let high = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex), high < utf8.endIndex,
                let low = utf8.index(high, offsetBy: 1, limitedBy: utf8.endIndex), low < utf8.endIndex,
                let value = UInt8(String(decoding: [utf8[high], utf8[low]], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index = utf8.index(after: low)
                continue
            }
            bytes.append(byte)
            index = utf8.index(after: index)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A key inside a PKCS#11 token, opened through OpenSSL (`TokenKey`), with what opening it took.
public struct OpenedTokenKey: Sendable {
    public let key: ES256PrivateKey
    /// The public half, read from the token, that each signature is checked with.
    public let publicKey: ES256PublicKey?
    /// The module that opened it (nil: the engine's default, p11-kit's proxy).
    public let module: String?
    /// A PIN was given (from the URI, or typed).
    public let loggedIn: Bool

    /// The key the settings name: the module from `module-path`, else `PUSHCTL_PKCS11_MODULE`; the
    /// PIN from `pin-value` (or `pin-source=file:…`, which libp11 reads), else asked on a terminal
    /// when the token will not open without one. A module that does not load is said as such (69)
    /// before OpenSSL tries it; what libp11 prints on standard error is taken, never shown raw.
    public static func open(_ uri: PKCS11URI, _ values: SettingValues, _ options: CredentialOptions) throws(InputError) -> OpenedTokenKey {
        let module = uri.modulePath ?? values.value(.pkcs11Module)
        if let module, let why = SharedLibrary.loadProblem(module, symbol: "C_GetFunctionList") {
            throw problem(.module(Redaction.scrub(why)), uri: uri, module: module, pinGiven: uri.pin != nil, said: "")
        }
        var pin = uri.pin
        func load() -> (Result<ES256PrivateKey, TokenKey.Failure>, String) {
            let (result, said) = Descriptors.capturingStandardError { TokenKey.load(uri: uri.forOpenSSL, module: module, pin: pin) }
            return (result, Redaction.scrub(String(decoding: said, as: UTF8.self), secrets: pin.map { [$0] } ?? []))
        }
        var (result, said) = load()
        if case .failure(.noKey) = result, pin == nil, let typed = options.askPIN?(uri.shown) {
            pin = typed
            (result, said) = load()
        }
        switch result {
        case .success(let key):
            return OpenedTokenKey(key: key, publicKey: key.detachedPublicKey, module: module, loggedIn: pin != nil)
        case .failure(let failure):
            throw problem(failure, uri: uri, module: module, pinGiven: pin != nil, said: said)
        }
    }

    /// Why a token would not give its key, read from OpenSSL's error and libp11's lines.
    enum TokenRefusal {
        case wrongPIN, lockedPIN, noSuchObject, unknown

        init(_ text: String) {
            let lower = text.lowercased()
            if lower.contains("pin locked") || lower.contains("ckr_pin_locked") {
                self = .lockedPIN
            } else if lower.contains("pin incorrect") || lower.contains("ckr_pin_incorrect") || lower.contains("login failed") {
                self = .wrongPIN
            } else if lower.contains("object not found") || lower.contains("key was not found") {
                self = .noSuchObject
            } else {
                self = .unknown
            }
        }
    }

    static func problem(_ failure: TokenKey.Failure, uri: PKCS11URI, module: String?, pinGiven typed: Bool, said: String) -> InputError {
        let pinGiven = typed || uri.namesPINSource
        let moduleName = OutsideText.display(module ?? "p11-kit-proxy (the engine's default)", limit: 200)
        switch failure {
        case .noSupport:
            return InputError(CredentialProblem.pkcs11NoSupport, kind: .unavailable)
        case .module(let detail):
            return InputError(CredentialProblem.pkcs11Module(module: moduleName, detail: OutsideText.display(detail, limit: 200)), kind: .unavailable)
        case .noKey(let detail):
            let problem: CredentialProblem
            switch TokenRefusal(detail + "\n" + said) {
            case .wrongPIN where pinGiven: problem = .pkcs11WrongPIN(uri: uri.shown)
            case .lockedPIN: problem = .pkcs11LockedPIN(uri: uri.shown)
            case .noSuchObject, .wrongPIN, .unknown:
                let shown = detail.isEmpty ? "" : OutsideText.display(Redaction.scrub(detail), limit: 200)
                problem = .pkcs11NoKey(uri: uri.shown, module: moduleName, detail: shown, pinGiven: pinGiven)
            }
            return InputError(problem, kind: .missingInput)
        case .notP256(let kind):
            return InputError(CredentialProblem.pkcs11NotP256(uri: uri.shown, kind: OutsideText.display(kind, limit: 40)))
        }
    }
}

/// A token's key as a provider token's signer: each signature checked with the public half before it is used.
struct TokenKeySigner: ES256Signing {
    let opened: OpenedTokenKey
    let publicKey: ES256PublicKey?

    func sign(_ message: [UInt8]) throws -> [UInt8] {
        let signature = try opened.key.sign(message)
        if let publicKey, !publicKey.isValidSignature(signature, for: message) {
            throw InputError(CredentialProblem.tokenKeyMismatch)
        }
        return signature
    }
}

/// What `doctor` shows for a key that is not a file on disk.
public struct KeySourceCheck {
    public let passed: Bool
    /// What was found, one sentence: "pkcs11:…: found (module …), logged in, a P-256 key; a test signature verifies".
    public let found: Words
    public let hint: Words?
    /// For `--output json`: where the key is, and the module or command.
    public let details: [(String, String)]
    /// Signs the doctor's test push with the key already opened (nil when the check failed).
    public let authorization: SigningAuthorization?
}

extension SigningKey {
    /// Checks a key that is not a file on disk, as `doctor` shows it: a PKCS#11 token (found,
    /// logged in, a P-256 key, a test signature verified with its public half), an external signer
    /// (it answers with an ES256 signature, verified when the public key is known), or
    /// `PUSHCTL_KEY` (it parses and a test signature verifies). Nil for a key file, or no key.
    /// Signs a fresh token: the check is the signer's, not the cache's.
    public static func check(_ values: SettingValues, _ options: CredentialOptions) -> KeySourceCheck? {
        guard let choice = try? values.credentialChoice() else { return nil }
        var uri: PKCS11URI?
        var command: String?
        switch choice {
        case .tokenKey(let given): uri = given
        case .signer(let given): command = given
        case .environmentKey: break
        case .keyFile, .providerToken, .certificate: return nil
        }
        var details: [(String, String)] = []
        if let uri { details.append(("uri", uri.shown)) }
        if let command { details.append(("signer", ExternalSigner.shown(command))) }
        do throws(InputError) {
            let identity = try identity(values, choice)
            let unsigned = UnsignedProviderToken(keyID: identity.keyID, teamID: identity.teamID, issuedAt: WallClock.now())
            let message = Array(unsigned.signingInput.utf8)
            let signer: any ES256Signing
            var found: Words
            if let uri {
                let opened = try OpenedTokenKey.open(uri, values, options)
                let module = OutsideText.display(opened.module ?? "p11-kit-proxy", limit: 120)
                details.append(("module", module))
                signer = TokenKeySigner(opened: opened, publicKey: opened.publicKey)
                _ = try signed(message, by: signer)
                found =
                    Words("\(uri.shown): found (module \(module)), ", es: "\(uri.shown): encontrada (módulo \(module)), ")
                    + (opened.loggedIn ? Words("logged in", es: "sesión iniciada") : Words("opened without a PIN", es: "abierta sin PIN"))
                    + Words(
                        ", a P-256 key; a test signature verifies with its public half",
                        es: ", una clave P-256; una firma de prueba se verifica con su mitad pública")
            } else if let command {
                let publicKey = try signerPublicKey(values, keyID: identity.keyID)
                signer = ExternalSigner(command: command, publicKey: publicKey)
                _ = try signed(message, by: signer)
                found =
                    Words(
                        "the signer \(ExternalSigner.shown(command)) answers with an ES256 signature",
                        es: "el firmante \(ExternalSigner.shown(command)) responde con una firma ES256")
                    + (publicKey == nil
                        ? Words(
                            ", not checked here (no public key: give \(Setting.publicKey) or \(identity.keyID).pem)",
                            es: ", que aquí no se comprueba (no hay clave pública: da \(Setting.publicKey) o \(identity.keyID).pem)")
                        : Words(" that verifies with the public key", es: " que se verifica con la clave pública"))
            } else {
                let key = try environmentKey(values).privateKey()
                signer = key
                let signature = try signed(message, by: signer)
                guard key.publicKey.isValidSignature(signature, for: message) else {
                    throw InputError(CredentialProblem.testSignatureDoesNotVerify)
                }
                found = Words(
                    "\(Setting.key) holds a P-256 key; a test signature verifies",
                    es: "\(Setting.key) contiene una clave P-256; una firma de prueba se verifica")
            }
            found = found + Words("; key id \(identity.keyID), team id \(identity.teamID)", es: "; con key id \(identity.keyID) y team id \(identity.teamID)")
            // The test push signs with the key already opened, and caches nothing.
            let authorization = SigningAuthorization(signer: TokenSigner(seal: nil) { signer }, keyID: identity.keyID, teamID: identity.teamID, cache: nil)
            return KeySourceCheck(passed: true, found: found, hint: nil, details: details, authorization: authorization)
        } catch {
            return KeySourceCheck(passed: false, found: error.words, hint: error.hintWords, details: details, authorization: nil)
        }
    }

    /// A signature, its failures as the input errors they are.
    static func signed(_ message: [UInt8], by signer: any ES256Signing) throws(InputError) -> [UInt8] {
        do { return try signer.sign(message) } catch let error as InputError { throw error } catch {
            throw InputError(CredentialProblem.testSignatureFailed(detail: "\(error)"))
        }
    }
}
