import PushctlSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PushCore
import PushWords
import PushFiles
import PushEngine
import PushCrypto
import PushCurl

/// The flags that say how to authenticate, shared by `send` and `channel`.
protocol CredentialFlags {
    var auth: AuthOptions { get }
    var certificate: CertificateOptions { get }
    var jwt: String? { get }
    var noJwtCache: Bool { get }
}

extension SendCommand: CredentialFlags {}

/// Everything `send` needs, resolved from flags and environment and checked before anything is
/// sent: the engine's plan, and what `--dry-run` shows besides. Any problem throws, and the
/// process exits with nothing sent.
struct SendRequest {
    let plan: SendPlan
    /// How the payload was given, for the equivalent curl command.
    let payloadFile: String?
    let proxy: ProxySetting?
    /// Certificate-based authentication: the certificate and key, and the file they came from.
    let certificate: ClientIdentity?
    let certificatePath: String?
    let certificateKeyPath: String?
    /// What the user should hear before anything is sent (repeats skipped, unusual tokens, lint).
    let warnings: [Words]

    var notifications: NotificationSource { plan.notifications }
    var template: PushTemplate? { plan.notifications.template }
    var baseURL: String { plan.destination.baseURL }
    var caCertificate: String? { plan.destination.caCertificate }

    init(command c: SendCommand, env: EnvironmentVariables) throws(InputError) {
        // A certificate is read first: its UID is the default topic.
        let loaded = try CertificateChecks.load(c, env: env, quiet: c.quiet)
        certificatePath = loaded?.path
        certificateKeyPath = loaded == nil ? nil : c.certificate.certKey
        certificate = loaded?.identity
        let topic = c.topic ?? env["PUSHCTL_TOPIC"].nonEmpty ?? certificate?.certificate.defaultTopic
        if topic == nil, let certificate, c.requestsFile == nil {
            let topics = certificate.certificate.allowedTopics.map { OutsideText.display($0, limit: 120) }.joined(separator: ", ")
            throw InputError(Words("the certificate covers several apps' topics: give --topic with one of them: \(topics)",
                                   es: "el certificado cubre topics de varias apps: da --topic con uno de ellos: \(topics)"),
                             kind: .usage)
        }
        let shard = try c.shard.map { text throws(InputError) in try Shard(parsing: text) }
        let (notifications, payloadFile, warnings) = try SendRequest.notifications(c, topic: topic, shard: shard, certificate: certificate, env: env)
        self.payloadFile = payloadFile
        self.warnings = warnings
        let destination = try c.destinationFlags.resolve(.push, env: env)
        if let certificate, let certificatePath, let environment = destination.environment {
            try CertificateChecks.requireEnvironment(certificate.certificate, environment, path: certificatePath)
        }
        var flags = c.connectionFlags
        flags.certificate = certificate
        let (connection, proxy) = try flags.resolve(env: env)
        self.proxy = proxy
        let authorization = certificate != nil ? CertificateAuthorization() : try SendRequest.authorization(c, env: env)
        let signing = certificate == nil && authorization is SigningAuthorization
        let keyNaming = signing ? (try? c.auth.resolve())?.mismatch : nil
        var plan = SendPlan(notifications: notifications, destination: destination, connection: connection,
                            authorization: authorization, policy: RetryPolicy(maxRetries: c.retries, requestTimeout: c.timeout))
        plan.detectEnvironment = c.detectEnvironment
        if let mismatch = keyNaming {
            plan.likelyCauses[.invalidProviderToken] = mismatch.likelyCause
        }
        self.plan = plan
    }

    /// The notifications: a requests file's lines, or one template to the tokens; the payload's file
    /// (for the curl command); and the warnings choosing them raised.
    static func notifications(_ c: SendCommand, topic: String?, shard: Shard?, certificate: ClientIdentity?,
                              env: EnvironmentVariables) throws(InputError) -> (NotificationSource, String?, [Words]) {
        let now = WallClock.now()
        let flagName: @Sendable (PushField) -> String = { "--" + $0.rawValue }
        if let path = c.requestsFile {
            // Each line carries token and payload; the header flags are defaults for the lines.
            var defaults = PushSpec(topic: topic ?? "", pushType: c.pushType, priority: c.priority.map(GivenNumber.text), collapseID: c.collapseId,
                                    expiration: c.expiration.map(GivenNumber.text), name: flagName)
            defaults.lint = !c.noLint
            defaults.now = now
            // A journal tells its run by the lines' digest; without one, no line is hashed.
            let file = try RequestsFile(path, defaults: defaults, shard: shard, digesting: c.journal != nil)
            try SendRequest.refuseOverwriting(file.file, named: "requests file", with: c.unregisteredOut)
            try SendRequest.refuseOverwriting(file.file, named: "requests file", with: c.journal)
            return (.requests(file), nil, [])
        }
        guard let topic else {
            throw InputError(Words("missing --topic (or PUSHCTL_TOPIC): your app's bundle id, e.g. com.example.app",
                                   es: "falta --topic (o PUSHCTL_TOPIC): el bundle id de tu app, p. ej. com.example.app"), kind: .usage)
        }
        if c.deviceTokens.isEmpty && c.tokensFile == nil {
            throw InputError(Words("missing --device-token (or --tokens-file, or --requests-file): the hex token your app got from APNs",
                                   es: "falta --device-token (o --tokens-file, o --requests-file): el token hexadecimal que tu app recibió de APNs"), kind: .usage)
        }
        let (payload, payloadFile) = try SendRequest.payload(c, now: now)
        var spec = PushSpec(topic: topic, pushType: c.effectivePushType, priority: c.priority.map(GivenNumber.text), collapseID: c.collapseId,
                            expiration: c.expiration.map(GivenNumber.text), apnsID: c.apnsId, name: flagName)
        spec.lint = !c.noLint
        spec.now = now
        let template = try PushTemplate(spec, payload: payload)
        if let problem = certificate?.certificate.refusal(topic: template.topic, pushType: template.pushType) {
            throw InputError(problem.words, hint: Words("give --topic with a topic the certificate lists (pushctl cert inspect shows them), or use a .p8 key",
                                                  es: "da --topic con un topic que el certificado incluya (pushctl cert inspect los muestra), o usa una clave .p8"))
        }
        let source: NotificationSource
        var chosenWarnings: [Words] = []
        if let path = c.tokensFile {
            let file = try DeviceTokenFile(path, shard: shard)
            try SendRequest.refuseOverwriting(file.file, named: "tokens file", with: c.unregisteredOut)
            try SendRequest.refuseOverwriting(file.file, named: "tokens file", with: c.journal)
            source = .file(template, file)
        } else {
            let chosen = try NotificationSource.tokens(c.deviceTokens, template: template, shard: shard)
            source = chosen.0
            chosenWarnings = chosen.warnings
        }
        let warnings = source.templateWarnings + chosenWarnings
        if c.apnsId != nil && source.count > 1 {
            throw InputError(Words("--apns-id names one notification, but there are \(source.count) device tokens", es: "--apns-id identifica una sola notificación, pero hay \(source.count) tokens del dispositivo"),
                             hint: Words("leave it out and APNs gives each notification its own id", es: "quítalo y APNs da a cada notificación su propio id"))
        }
        return (source, payloadFile, warnings)
    }

    /// The payload from --payload, --payload-json, the builder flags or the Live Activity flags,
    /// and the file it came from (for the equivalent curl command).
    static func payload(_ c: SendCommand, now: Int64) throws(InputError) -> (Payload, String?) {
        if let path = c.payload {
            let bytes: [UInt8]
            do { bytes = try InputFiles.read(path, what: "payload file") } catch {
                // The JSON itself where its file belongs: a first-hour mix-up, said by name.
                guard error.kind == .missingInput, let first = path.first(where: { !$0.isWhitespace }), first == "{" || first == "[" else { throw error }
                let shown = OutsideText.display(path, limit: 40)
                throw InputError(Words("--payload takes a file, and '\(shown)' is JSON: give the JSON itself with --payload-json",
                                       es: "--payload espera un archivo, y '\(shown)' es JSON: pasa el JSON tal cual con --payload-json"),
                                 hint: Words(#"for example: --payload-json '{"aps":{"alert":"Hello"}}'"#, es: #"por ejemplo: --payload-json '{"aps":{"alert":"Hola"}}'"#),
                                 kind: .usage)
            }
            return (try Payload(bytes: bytes, source: path == "-" ? "standard input" : path), path == "-" ? nil : path)
        } else if let json = c.payloadJson {
            return (try Payload(bytes: Array(json.utf8), source: "--payload-json"), nil)
        } else if let event = c.liveActivity {
            return (try c.liveActivityBuilder(event).build(now: now), nil)
        } else if !c.builder.isEmpty {
            return (try c.builder.build(), nil)
        }
        throw InputError(Words("missing payload: give --payload FILE, --payload-json JSON, or builder flags such as --title and --body",
                               es: "falta la carga útil: da --payload ARCHIVO, --payload-json JSON, u opciones como --title y --body"),
                         hint: Words("see `pushctl send --help`", es: "consulta `pushctl send --help`"), kind: .usage)
    }

    /// The certificate to authenticate with, if that is the way chosen. Flags win over the
    /// environment; a certificate and a key named at the same level are a usage error.
    static func certificatePath(_ c: some CredentialFlags, env: EnvironmentVariables) throws(InputError) -> String? {
        let options = c.certificate
        let tokenFlags = c.auth.keyFile != nil || c.jwt != nil
        if let path = options.cert { return path }
        if !tokenFlags, let path = env["PUSHCTL_CERT"].nonEmpty {
            if env["PUSHCTL_KEY_FILE"].nonEmpty != nil || env["PUSHCTL_JWT"].nonEmpty != nil {
                throw InputError(Words("PUSHCTL_CERT and PUSHCTL_KEY_FILE (or PUSHCTL_JWT) are both set, so it is not clear how to authenticate", es: "PUSHCTL_CERT y PUSHCTL_KEY_FILE (o PUSHCTL_JWT) están definidas a la vez, así que no está claro cómo autenticar"),
                                 hint: Words("unset one, or choose with --cert or --key-file", es: "quita una, o elige con --cert o --key-file"), kind: .usage)
            }
            return path
        }
        if options.certKey != nil || options.certPasswordFile != nil {
            throw InputError(Words("--cert-key and --cert-password-file go with --cert (or PUSHCTL_CERT)", es: "--cert-key y --cert-password-file van con --cert (o PUSHCTL_CERT)"), kind: .usage)
        }
        return nil
    }

    static func authorization(_ c: some CredentialFlags, env: EnvironmentVariables) throws(InputError) -> any AuthorizationSource {
        if let token = c.jwt ?? env["PUSHCTL_JWT"].nonEmpty {
            let decoded = try DecodedJWT(parsing: token)
            try HeaderValue.check(decoded.compact, name: "the JWT", limit: 8000)
            let now = WallClock.now()
            if let iat = decoded.claims["iat"]?.integerValue, OutsideNumber.difference(now, iat) > ProviderTokenRules.lifetimeSeconds {
                let age = TokenAge.describeWords(issuedAt: iat, now: now)
                throw InputError(Words("the JWT given with --jwt (or PUSHCTL_JWT) was ", es: "el JWT dado con --jwt (o PUSHCTL_JWT) está ") + age
                                    + Words(": APNs would refuse every notification (ExpiredProviderToken)",
                                            es: ": APNs rechazaría todas las notificaciones (ExpiredProviderToken)"),
                                 hint: Words("mint a new one (pushctl jwt), or pass --key-file and pushctl signs and renews it",
                                             es: "genera uno nuevo (pushctl jwt), o da --key-file y pushctl lo firma y lo renueva"))
            }
            // A token APNs can only refuse (wrong alg, no integer iat, a malformed kid or iss) is
            // refused here, before any request: every notification would fail with it.
            let failures = ProviderTokenRules.audit(decoded, now: now).filter { $0.outcome == .failure }
            if !failures.isEmpty {
                let why = failures.map { "\($0.message)" }.joined(separator: "; ")
                throw InputError(Words("the JWT given with --jwt (or PUSHCTL_JWT) would be refused by APNs: \(why)",
                                       es: "APNs rechazaría el JWT dado con --jwt (o PUSHCTL_JWT): \(why)"),
                                 hint: Words("check it with `pushctl jwt decode`, or pass --key-file and pushctl signs a correct one",
                                             es: "compruébalo con `pushctl jwt decode`, o pasa --key-file y pushctl firma uno correcto"))
            }
            return FixedAuthorization(token: decoded.compact)
        }
        let hasKeyFile = c.auth.keyFile != nil || env["PUSHCTL_KEY_FILE"].nonEmpty != nil
        guard hasKeyFile else {
            // Said for `send` and for the channel commands alike: no command's name in it.
            throw InputError(Words("missing a provider token: give --key-file with --team-id (and --key-id unless the file is AuthKey_<KEYID>.p8), or --jwt",
                                   es: "falta el token del proveedor: da --key-file con --team-id (y --key-id si el archivo no se llama AuthKey_<KEYID>.p8), o --jwt"),
                             kind: .usage)
        }
        // A missing key file is the problem to report first (66), before the ids it would name.
        let keyFileBytes = try KeyLoading.keyFile(at: c.auth.keyFile ?? env["PUSHCTL_KEY_FILE"] ?? "")
        let auth = try c.auth.resolve()
        let keyFile = keyFileBytes
        let cache = c.noJwtCache ? nil : ProviderTokenCache.standard(environment: env, warn: Console.warn)
        let signer = SigningAuthorization(keyFile: keyFile, keyID: auth.keyID, teamID: auth.teamID, cache: cache)
        // A token cached by an earlier run needs no key work at all; otherwise the key is
        // parsed now, so that a bad key stops the run (exit 65) before anything is sent.
        if !signer.adoptCachedToken() { _ = try keyFile.privateKey() }
        InputFiles.sharingWarning(auth.keyFile).map(Console.warn)
        if let mismatch = auth.mismatch { Console.warn(mismatch.warning) }
        return signer
    }

    /// `--unregistered-out` and `--journal` must not name the file being sent: writing it would destroy the list.
    static func refuseOverwriting(_ input: CheckedLineFile, named noun: String, with output: String?) throws(InputError) {
        guard let output, input.isSameFile(as: output) else { return }
        let shown = OutsideText.display(output, limit: 200)
        throw InputError(Words("'\(shown)' is the \(noun) itself; writing results to it would destroy the list being sent",
                               es: "'\(shown)' es el propio archivo de entrada; escribir resultados en él destruiría la lista que se envía"),
                         hint: Words("write the results to another file", es: "escribe los resultados en otro archivo"), kind: .usage)
    }

    /// `--verbose`: libcurl's trace, line by line, on stderr.
    static let traceToStderr: @Sendable (String) -> Void = { Console.err($0) }
}


/// `--proxy URL` (or PUSHCTL_PROXY) and `--proxy-user-file`: checked before anything connects;
/// the credentials are never printed (`shown` masks them).
struct ProxySetting {
    let url: String
    let credentials: String?

    static let schemes = ["http://", "https://", "socks5://", "socks5h://"]

    init?(url text: String?, userFile: String?) throws(InputError) {
        guard let text else {
            if userFile != nil { throw InputError(Words("--proxy-user-file is for a proxy: give --proxy (or PUSHCTL_PROXY) too", es: "--proxy-user-file es para un proxy: da también --proxy (o PUSHCTL_PROXY)"), kind: .usage) }
            return nil
        }
        try HeaderValue.check(text, name: "the proxy URL", limit: 1024)
        guard ProxySetting.schemes.contains(where: { text.lowercased().hasPrefix($0) }),
              !text.contains(" ") else {
            throw InputError(Words("the proxy '\(ProxySetting.masked(text))' is not a proxy URL", es: "el proxy '\(ProxySetting.masked(text))' no es una URL de proxy"),
                             hint: Words("use http://HOST:PORT, https://…, socks5://… or socks5h://… (socks5h resolves names through the proxy)", es: "usa http://HOST:PUERTO, https://…, socks5://… o socks5h://… (socks5h resuelve los nombres a través del proxy)"))
        }
        url = text
        if let userFile {
            var bytes = try InputFiles.read(userFile, what: "proxy credentials file")
            while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
            let value = String(decoding: bytes, as: UTF8.self)
            guard value.contains(":"), !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
                throw InputError(Words("the proxy credentials file '\(userFile)' must hold one line, user:password", es: "el archivo de credenciales del proxy '\(userFile)' debe tener una línea, usuario:contraseña"))
            }
            credentials = value
        } else {
            credentials = nil
        }
    }

    /// The URL with any password replaced, for messages.
    static func masked(_ text: String) -> String {
        guard let schemeEnd = text.firstRange(of: "://"), let at = text[schemeEnd.upperBound...].firstIndex(of: "@") else {
            return OutsideText.display(text, limit: 200)
        }
        let userInfo = text[schemeEnd.upperBound..<at]
        let user = userInfo.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        return OutsideText.display(String(text[..<schemeEnd.upperBound]) + user + ":***" + String(text[at...]), limit: 200)
    }
}
