import PushctlSupport
public import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PushSystem
import PushCore
import PushWords
import PushFiles
import PushEngine
import PushCrypto
import PushCurl

/// The closed choices the command line takes as enums (a value outside them is named, with the
/// choices, in the user's language: `Suggestions`).
extension ResultFormat: ExpressibleByArgument {}
extension BroadcastAPI.StoragePolicy: ExpressibleByArgument {}
extension SendCommand: CredentialFlags {}

@dynamicMemberLookup
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a push notification to one or more devices over HTTP/2.",
        discussion: """
            Everything is checked before anything is sent (payload size, push type,
            priority, topic, headers, tokens): bad input exits 65 and sends nothing.

            Examples:
              pushctl send --key-file AuthKey_ABC123DEFG.p8 --team-id DEF123GHIJ \\
                --topic com.example.app --device-token "$TOKEN" \\
                --title Hello --body "From pushctl"

              # background push (push type background, priority 5):
              pushctl send --topic com.example.app --device-token "$TOKEN" \\
                --content-available

              pushctl send --topic com.example.app --tokens-file tokens.txt \\
                --payload payload.json --output jsonl

              # with a certificate instead of a key (password from a file):
              pushctl send --cert push.p12 --cert-password-file pw.txt \\
                --device-token "$TOKEN" --title Hello

              # against `pushctl mock`:
              pushctl send --endpoint https://127.0.0.1:8443 --cacert mock-ca.pem \\
                --topic com.example.app --device-token 00ff --title Hi

            """
    )

    @OptionGroup(title: "Authentication") var auth: AuthOptions
    @OptionGroup(title: "Certificate authentication (instead of a key)") var certificate: CertificateOptions

    @Option(help: ArgumentHelp("A provider token made elsewhere, instead of signing one (env PUSHCTL_JWT).", valueName: "token"))
    var jwt: String?

    @Flag(help: "Sign a new JWT instead of reusing the cached one (it is kept up to 50 minutes, env PUSHCTL_CACHE_DIR).")
    var noJwtCache = false

    @OptionGroup(title: "Recipients") var recipientFlags: RecipientFlags
    @OptionGroup(title: "Payload (a file, inline JSON, or built from these flags)") var payloadFlags: PayloadFlags
    @OptionGroup(title: "Live Activities") var liveActivityFlags: LiveActivityFlags
    @OptionGroup(title: "Broadcasts (iOS 18)") var broadcastFlags: BroadcastFlags
    @OptionGroup(title: "Headers") var headerFlags: HeaderFlags
    @OptionGroup(title: "Where to send") var whereFlags: WhereFlags
    @OptionGroup(title: "Run") var runFlags: RunFlags
    @OptionGroup(title: "The iOS Simulator") var simulatorFlags: SimulatorFlags
    @OptionGroup(title: "Output") var outputFlags: OutputFlags
    @OptionGroup var language: LanguageOption

    // The groups' flags read as the command's own: `c.title`, `c.endpoint`.
    subscript<T>(dynamicMember path: KeyPath<RecipientFlags, T>) -> T { recipientFlags[keyPath: path] }
    subscript<T>(dynamicMember path: KeyPath<PayloadFlags, T>) -> T { payloadFlags[keyPath: path] }
    subscript<T>(dynamicMember path: KeyPath<LiveActivityFlags, T>) -> T { liveActivityFlags[keyPath: path] }
    subscript<T>(dynamicMember path: KeyPath<BroadcastFlags, T>) -> T { broadcastFlags[keyPath: path] }
    subscript<T>(dynamicMember path: KeyPath<HeaderFlags, T>) -> T { headerFlags[keyPath: path] }
    subscript<T>(dynamicMember path: KeyPath<WhereFlags, T>) -> T { whereFlags[keyPath: path] }
    subscript<T>(dynamicMember path: KeyPath<RunFlags, T>) -> T { runFlags[keyPath: path] }
    subscript<T>(dynamicMember path: KeyPath<SimulatorFlags, T>) -> T { simulatorFlags[keyPath: path] }
    subscript<T>(dynamicMember path: KeyPath<OutputFlags, T>) -> T { outputFlags[keyPath: path] }

    func validate() throws {
        if certificate.cert != nil && (auth.keyFile != nil || jwt != nil) {
            throw ValidationError(Words("--cert authenticates with a certificate; --key-file and --jwt with a provider token: give one way", es: "--cert autentica con un certificado; --key-file y --jwt, con un token del proveedor: elige una forma"))
        }
        if self.sandbox && self.production { throw ValidationError(Words("--sandbox and --production exclude each other", es: "--sandbox y --production se excluyen entre sí")) }
        try validateJournal()
        try validatePacing()
        try validateFollow()
        if self.simulatorFile != nil || self.simulator != nil {
            let others: [(Bool, String)] = [(self.tokensFile != nil, "--tokens-file"), (self.requestsFile != nil, "--requests-file"), (!self.channelIds.isEmpty, "--channel-id"),
                                            (self.journal != nil, "--journal"), (self.unregisteredOut != nil, "--unregistered-out"), (self.detectEnvironment, "--detect-environment"),
                                            (self.metricsFile != nil, "--metrics-file"), (self.metricsPush != nil, "--metrics-push")]
            if let flag = others.first(where: \.0)?.1 {
                throw ValidationError(Words("the Simulator gets one notification for one app; \(flag) does not go with --simulator-file or --simulator",
                                            es: "el Simulador recibe una notificación para una app; \(flag) no va con --simulator-file ni con --simulator").description)
            }
        }
        if let url = self.metricsPush, !RunMetrics.isPushURL(url) {
            throw ValidationError(Words("--metrics-push is a Pushgateway's http:// or https:// URL (e.g. http://pushgateway:9091); got '\(OutsideText.display(url, limit: 100))'",
                                        es: "--metrics-push es la URL http:// o https:// de un Pushgateway (p. ej. http://pushgateway:9091); se recibió '\(OutsideText.display(url, limit: 100))'"))
        }
        if (self.metricsFile != nil || self.metricsPush != nil) && !self.channelIds.isEmpty {
            throw ValidationError(Words("--metrics-file and --metrics-push count device pushes; a broadcast (--channel-id) has none",
                                        es: "--metrics-file y --metrics-push cuentan notificaciones a dispositivos; una difusión (--channel-id) no tiene ninguna"))
        }
        if self.journal != nil && !self.channelIds.isEmpty {
            throw ValidationError(Words("--journal keeps the results of device pushes; a broadcast (--channel-id) has one result per channel and none to resume",
                                        es: "--journal guarda los resultados de notificaciones a dispositivos; una difusión (--channel-id) no tiene nada que reanudar").description)
        }
        if self.detectEnvironment {
            if self.endpoint != nil { throw ValidationError(Words("--detect-environment tries Apple's other host; it does not go with --endpoint", es: "--detect-environment prueba el otro servidor de Apple; no va con --endpoint")) }
            if self.requestsFile != nil || !self.channelIds.isEmpty {
                throw ValidationError(Words("--detect-environment works with --device-token and --tokens-file", es: "--detect-environment funciona con --device-token y --tokens-file"))
            }
        }
        for spec in self.connectTo where spec.split(separator: ":", omittingEmptySubsequences: false).count < 4 || spec.contains(where: { $0.isWhitespace }) {
            throw ValidationError(Words("--connect-to is HOST:PORT:CONNECT-HOST:CONNECT-PORT (e.g. api.push.apple.com:443:10.0.0.5:443); got '\(spec)'", es: "--connect-to es HOST:PUERTO:HOST-DESTINO:PUERTO-DESTINO (p. ej. api.push.apple.com:443:10.0.0.5:443); se recibió '\(spec)'"))
        }
        if self.endpoint != nil && (self.sandbox || self.production) { throw ValidationError(Words("--endpoint replaces --sandbox/--production; give one", es: "--endpoint sustituye a --sandbox/--production; da solo uno")) }
        if let port = self.port, port != 443 && port != 2197 { throw ValidationError(Words("--port is 443 or 2197 (the ports APNs listens on); for another server use --endpoint", es: "--port es 443 o 2197 (los puertos en los que escucha APNs); para otro servidor usa --endpoint")) }
        if let concurrency = self.concurrency, !(1...SendCommand.concurrencyLimit).contains(concurrency) {
            throw ValidationError(Words("--concurrency must be between 1 and \(SendCommand.concurrencyLimit); got \(concurrency)", es: "--concurrency debe estar entre 1 y \(SendCommand.concurrencyLimit); se recibió \(concurrency)"))
        }
        if self.connections < 1 || self.connections > 64 { throw ValidationError(Words("--connections must be between 1 and 64; got \(self.connections)", es: "--connections debe estar entre 1 y 64; se recibió \(self.connections)")) }
        if !(0...SendCommand.retriesLimit).contains(self.retries) {
            throw ValidationError(Words("--retries must be between 0 and \(SendCommand.retriesLimit); got \(self.retries)", es: "--retries debe estar entre 0 y \(SendCommand.retriesLimit); se recibió \(self.retries)"))
        }
        if !(self.timeout > 0 && self.timeout <= SendCommand.timeoutLimit) {
            throw ValidationError(Words("--timeout must be more than 0 and at most \(Int(SendCommand.timeoutLimit)) seconds; got \(self.timeout)", es: "--timeout debe ser mayor que 0 y como mucho \(Int(SendCommand.timeoutLimit)) segundos; se recibió \(self.timeout)"))
        }
        if self.payload == "-" && self.tokensFile == "-" {
            throw ValidationError(Words("--payload - and --tokens-file - cannot both read standard input; give one of them as a file", es: "--payload - y --tokens-file - no pueden leer los dos la entrada estándar; da uno de ellos como archivo"))
        }
        try validateLiveActivity()
        if !self.channelIds.isEmpty {
            if !self.deviceTokens.isEmpty || self.tokensFile != nil || self.requestsFile != nil {
                throw ValidationError(Words("--channel-id broadcasts to channels; leave out --device-token, --tokens-file and --requests-file", es: "--channel-id difunde a canales; quita --device-token, --tokens-file y --requests-file"))
            }
            if self.collapseId != nil || self.apnsId != nil { throw ValidationError(Words("broadcasts take no --collapse-id or --apns-id (use --request-id)", es: "las difusiones no llevan --collapse-id ni --apns-id (usa --request-id)")) }
        } else if self.requestId != nil {
            throw ValidationError(Words("--request-id is for broadcasts (--channel-id); a device push takes --apns-id", es: "--request-id es para difusiones (--channel-id); una notificación a un dispositivo lleva --apns-id"))
        }
        let sources = [self.payload != nil, self.payloadJson != nil, !builder.isEmpty || self.liveActivity != nil].filter { $0 }.count
        if sources > 1 { throw ValidationError(Words("give the payload one way: --payload, --payload-json, or the builder flags (--title, --body, …)", es: "da la carga útil de una sola forma: --payload, --payload-json o las opciones que la construyen (--title, --body, …)")) }
        if [!self.deviceTokens.isEmpty, self.tokensFile != nil, self.requestsFile != nil].filter({ $0 }).count > 1 {
            throw ValidationError(Words("give the recipients one way: --device-token, --tokens-file or --requests-file", es: "da los destinatarios de una sola forma: --device-token, --tokens-file o --requests-file"))
        }
        if self.requestsFile != nil && sources > 0 {
            throw ValidationError(Words("--requests-file lines carry their own payloads; leave out --payload, --payload-json and the builder flags", es: "las líneas de --requests-file llevan su propia carga útil; quita --payload, --payload-json y las opciones que la construyen"))
        }
        if self.requestsFile != nil && self.apnsId != nil { throw ValidationError(Words("--apns-id names one notification; with --requests-file give \"apns-id\" on a line", es: "--apns-id identifica una sola notificación; con --requests-file pon \"apns-id\" en una línea")) }
        if self.requestsFile == "-" && self.payload == "-" {
            throw ValidationError(Words("--payload - and --requests-file - cannot both read standard input", es: "--payload - y --requests-file - no pueden leer los dos la entrada estándar"))
        }
    }

    /// --follow reads a tokens or requests file as it grows, once: nothing that needs it whole or twice.
    func validateFollow() throws {
        guard self.follow else { return }
        guard self.tokensFile != nil || self.requestsFile != nil else {
            throw ValidationError(Words("--follow reads --tokens-file or --requests-file as lines arrive (- for standard input)",
                                        es: "--follow lee --tokens-file o --requests-file a medida que llegan las líneas (- para la entrada estándar)"))
        }
        let others: [(Bool, String)] = [(self.journal != nil, "--journal"), (self.spread != nil, "--spread"), (self.detectEnvironment, "--detect-environment"),
                                        (self.apnsId != nil, "--apns-id"), (self.dryRun, "--dry-run")]
        if let flag = others.first(where: \.0)?.1 {
            throw ValidationError(Words("\(flag) needs the whole list, and --follow reads a stream once as it arrives: leave one out",
                                        es: "\(flag) necesita la lista entera, y --follow lee un flujo una sola vez a medida que llega: quita uno de los dos"))
        }
    }

    /// --rate N and --spread DURATION: positive numbers, one of them.
    func validatePacing() throws {
        if self.rate != nil && self.spread != nil {
            throw ValidationError(Words("--rate and --spread both set the pace: give one", es: "--rate y --spread fijan los dos el ritmo: da solo uno"))
        }
        if let text = self.rate, SendCommand.rate(text) == nil {
            throw ValidationError(Words("--rate is notifications a second, a number above 0 and at most 1000000 (e.g. 100 or 0.5); got '\(OutsideText.display(text, limit: 40))'",
                                        es: "--rate son notificaciones por segundo, un número mayor que 0 y como mucho 1000000 (p. ej. 100 o 0.5); se recibió '\(OutsideText.display(text, limit: 40))'"))
        }
        if let text = self.spread, SendCommand.seconds(text) == nil {
            throw ValidationError(Words("--spread is a duration above 0 and at most 30 days: seconds, or a number with s, m or h (e.g. 90s, 15m, 2h); got '\(OutsideText.display(text, limit: 40))'",
                                        es: "--spread es una duración mayor que 0 y como mucho 30 días: segundos, o un número con s, m o h (p. ej. 90s, 15m, 2h); se recibió '\(OutsideText.display(text, limit: 40))'"))
        }
    }

    /// `--rate`'s number: above 0, at most a million (nil otherwise).
    static func rate(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite, value > 0, value <= 1_000_000 else { return nil }
        return value
    }

    /// `--spread`'s duration in seconds: a number, or one ending in s, m or h; above 0, at most 30 days.
    static func seconds(_ text: String) -> Double? {
        var number = Substring(text)
        var unit = 1.0
        if let last = number.last, let scale = ["s": 1.0, "m": 60.0, "h": 3600.0][String(last)] {
            unit = scale
            number = number.dropLast()
        }
        guard let value = Double(number), value.isFinite, value > 0, value * unit <= 30 * 86_400 else { return nil }
        return value * unit
    }

    /// --resume, --skip-in-doubt and --no-collapse-id go with a journal.
    func validateJournal() throws {
        if self.resume && self.journal == nil {
            throw ValidationError(Words("--resume carries on the run a journal holds: give --journal PATH too",
                                        es: "--resume continúa el envío que guarda un diario: indica también --journal RUTA").description)
        }
        if self.skipInDoubt && !self.resume {
            throw ValidationError(Words("--skip-in-doubt decides what a resumed run does: give --journal PATH --resume too",
                                        es: "--skip-in-doubt decide qué hace un envío reanudado: indica también --journal RUTA --resume").description)
        }
        if self.noCollapseId && self.journal == nil {
            throw ValidationError(Words("--no-collapse-id turns off the collapse ids a journaled run adds: give --journal PATH too",
                                        es: "--no-collapse-id desactiva los collapse id que añade un envío con diario: indica también --journal RUTA").description)
        }
    }

    /// The Live Activity flags go with --live-activity, and it with only --title, --body, --sound.
    func validateLiveActivity() throws {
        let given: [(Bool, String)] = [
            (self.timestamp != nil, "--timestamp"), (self.contentState != nil, "--content-state"), (self.staleDate != nil, "--stale-date"),
            (self.dismissalDate != nil, "--dismissal-date"), (self.relevanceScore != nil, "--relevance-score"), (self.attributesType != nil, "--attributes-type"),
            (self.attributes != nil, "--attributes"), (self.inputPushToken, "--input-push-token"), (self.inputPushChannel != nil, "--input-push-channel"),
        ]
        guard let event = self.liveActivity else {
            if let flag = given.first(where: \.0)?.1 { throw ValidationError(Words("\(flag) builds a Live Activity: give --live-activity start|update|end too", es: "\(flag) construye una Live Activity: da también --live-activity start|update|end")) }
            return
        }
        guard LiveActivityEvent(rawValue: event) != nil else {
            throw ValidationError(Words("--live-activity is start, update or end; got '\(OutsideText.display(event))'", es: "--live-activity es start, update o end; se recibió '\(OutsideText.display(event))'"))
        }
        if let type = self.pushType, type != PushType.liveactivity.rawValue {
            throw ValidationError(Words("--live-activity sends push type liveactivity; leave out --push-type \(OutsideText.display(type))", es: "--live-activity envía el tipo liveactivity; quita --push-type \(OutsideText.display(type))"))
        }
        let others: [(Bool, String)] = [
            (self.payload != nil, "--payload"), (self.payloadJson != nil, "--payload-json"), (self.subtitle != nil, "--subtitle"), (self.badge != nil, "--badge"),
            (self.category != nil, "--category"), (self.threadId != nil, "--thread-id"), (self.contentAvailable, "--content-available"),
            (self.mutableContent, "--mutable-content"), (self.interruptionLevel != nil, "--interruption-level"), (!self.custom.isEmpty, "--custom"),
        ]
        if let flag = others.first(where: \.0)?.1 {
            throw ValidationError(Words("--live-activity builds the payload; \(flag) does not go with it (--title, --body and --sound make its alert)", es: "--live-activity construye la carga útil; \(flag) no va con ella (--title, --body y --sound forman su alerta)"))
        }
    }

    /// The push type: --push-type, or liveactivity with --live-activity or --channel-id.
    var effectivePushType: String? {
        self.pushType ?? (self.liveActivity != nil || !self.channelIds.isEmpty ? PushType.liveactivity.rawValue : nil)
    }

    /// The Live Activity payload's fields from the flags (the numbers checked here, the rules by the lint).
    func liveActivityBuilder(_ eventName: String) throws(InputError) -> LiveActivityBuilder {
        guard let event = LiveActivityEvent(rawValue: eventName) else {
            throw InputError(Words("--live-activity is start, update or end; got '\(OutsideText.display(eventName))'", es: "--live-activity es start, update o end; se recibió '\(OutsideText.display(eventName))'"), kind: .usage)
        }
        func unix(_ text: String?, _ flag: String) throws(InputError) -> Int64? {
            guard let text else { return nil }
            guard let value = Int64(text), value >= 0, value < 253_402_300_800 else {
                throw InputError(Words("\(flag) must be UNIX seconds (a whole number, e.g. \(WallClock.now() + 3600)); got '\(OutsideText.display(text))'", es: "\(flag) debe ir en segundos UNIX (un número entero, p. ej. \(WallClock.now() + 3600)); se recibió '\(OutsideText.display(text))'"),
                                 hint: DateGiven.hint(text, name: flag))
            }
            return value
        }
        var b = LiveActivityBuilder(event: event)
        b.timestamp = try unix(self.timestamp, "--timestamp")
        b.staleDate = try unix(self.staleDate, "--stale-date")
        b.dismissalDate = try unix(self.dismissalDate, "--dismissal-date")
        if let relevanceScore = self.relevanceScore {
            guard let value = Double(relevanceScore), value.isFinite else {
                throw InputError(Words("--relevance-score must be a number; got '\(OutsideText.display(relevanceScore))'", es: "--relevance-score debe ser un número; se recibió '\(OutsideText.display(relevanceScore))'"))
            }
            b.relevanceScore = value
        }
        b.contentState = try self.contentState.map { text throws(InputError) in try SendCommand.jsonArgument(text, flag: "--content-state") }
        b.attributes = try self.attributes.map { text throws(InputError) in try SendCommand.jsonArgument(text, flag: "--attributes") }
        b.attributesType = self.attributesType
        b.inputPushToken = self.inputPushToken
        b.inputPushChannel = try self.inputPushChannel.map { id throws(InputError) in try BroadcastAPI.channelID(id, name: "--input-push-channel") }
        b.title = self.title
        b.body = self.body
        b.sound = self.sound
        return b
    }

    /// JSON given inline, or `@FILE` to read it from a file.
    static func jsonArgument(_ text: String, flag: String) throws(InputError) -> JSONValue {
        let bytes: [UInt8]
        let source: String
        if text.hasPrefix("@") {
            let path = String(text.dropFirst())
            bytes = try InputFiles.read(path, what: "\(flag) file")
            source = "\(flag) file '\(OutsideText.display(path))'"
        } else {
            bytes = Array(text.utf8)
            source = flag
        }
        guard bytes.count <= 64 * 1024 else { throw InputError(Words("\(source) is over 64 KB; a whole push is at most 4 KB", es: "\(source) pasa de 64 KB; una notificación entera ocupa como mucho 4 KB")) }
        do {
            return try JSONValue.parse(bytes)
        } catch {
            let diagnosis = JSONDiagnosis(bytes: bytes, error: error)
            throw InputError(Words("\(source) is not valid JSON: ", es: "\(source) no es JSON válido: ") + diagnosis.words,
                             hint: diagnosis.named ? nil : Words("give a JSON object, e.g. '{\"score\":3}', or @FILE to read one",
                                                                 es: "da un objeto JSON, p. ej. '{\"score\":3}', o @ARCHIVO para leerlo de un archivo"))
        }
    }

    var builder: PayloadBuilder {
        var b = PayloadBuilder()
        b.title = self.title
        b.subtitle = self.subtitle
        b.body = self.body
        b.badge = self.badge
        b.sound = self.sound
        b.category = self.category
        b.threadID = self.threadId
        b.contentAvailable = self.contentAvailable
        b.mutableContent = self.mutableContent
        b.interruptionLevel = self.interruptionLevel
        b.custom = self.custom
        return b
    }

    /// Bounds on the numeric flags, so that no arithmetic on them can overflow.
    static let concurrencyLimit = 65_536
    static let retriesLimit = 100
    static let timeoutLimit = 3600.0

    /// The settings this command's flags give, over the PUSHCTL_* variables (the engine's table).
    var settings: SettingValues {
        var flags = credentialSettings
        flags[.topic] = self.topic
        if self.sandbox { flags[.environment] = "sandbox" }
        if self.production { flags[.environment] = "production" }
        flags[.endpoint] = self.endpoint
        flags[.caCertificate] = self.cacert
        flags[.proxy] = self.proxy
        return .command(flags)
    }

    /// How to connect, as the flags say (the proxy and the certificate are added once read).
    var connection: ConnectionSettings {
        var settings = ConnectionSettings(concurrency: self.concurrency ?? SendCommand.concurrencyLimit, connections: self.connections, timeout: self.timeout)
        settings.connectTo = self.connectTo
        if self.verbose { settings.trace = { Console.err($0) } }
        settings.showSecrets = self.showSecrets
        return settings
    }

    /// The payload as the flags give it.
    var payloadInput: PayloadInput? {
        if let path = self.payload { return .file(path) }
        if let json = self.payloadJson { return .json(json) }
        if let event = self.liveActivity {
            return .built { now throws(InputError) in try self.liveActivityBuilder(event).build(now: now) }
        }
        if !builder.isEmpty { return .built { _ throws(InputError) in try self.builder.build() } }
        return nil
    }

    /// Everything `send` hands the engine.
    var options: SendOptions {
        var o = SendOptions(settings: settings)
        o.credentials = credentialOptions(quiet: self.quiet)
        o.deviceTokens = self.deviceTokens
        o.tokensFile = self.tokensFile
        o.requestsFile = self.requestsFile
        o.shard = self.shard
        o.payload = payloadInput
        o.pushType = effectivePushType
        o.priority = self.priority
        o.collapseID = self.collapseId
        o.expiration = self.expiration
        o.apnsID = self.apnsId
        o.lint = !self.noLint
        o.fieldName = { "--" + $0.rawValue }
        o.port = self.port
        o.proxyCredentialsFile = self.proxyUserFile
        o.connection = connection
        o.policy = RetryPolicy(maxRetries: self.retries, requestTimeout: self.timeout)
        o.detectEnvironment = self.detectEnvironment
        o.rate = self.rate.flatMap(SendCommand.rate)
        o.spread = self.spread.flatMap(SendCommand.seconds)
        o.follow = self.follow
        o.journal = self.journal
        o.unregisteredOut = self.unregisteredOut
        return o
    }

    func run() throws {
        try reportingErrors {
            try CommandArguments.requireUTF8()
            Console.lostOutputNote = Words("the notifications were still sent", es: "las notificaciones se enviaron igualmente")
            let env = Console.environment
            if !self.channelIds.isEmpty {
                try BroadcastRun.run(self, env: env)
                return
            }
            if self.simulatorFile != nil || self.simulator != nil {
                try SimulatorRun.run(self, env: env)
                return
            }
            let request = try SendSetup(options)
            if !self.quiet {
                request.warnings.forEach(Console.warn)
                if let shard = request.shardChoice?.sourceWords { Console.say(shard) }
            }
            if self.dryRun {
                DryRun(request: request, showSecrets: self.showSecrets).lines.forEach(Console.out)
                return
            }
            let run = try SendRun(plan: request.plan, journal: self.journal.map { JournalSetting(path: $0, resume: self.resume, skipInDoubt: self.skipInDoubt, collapseIDs: !self.noCollapseId) })
            let output = try SendOutput(self, total: request.notifications.count)
            // From here a signal stops the run cleanly: every notification still gets its result.
            let stop = SignalStop()
            let summary = try run.run(observers: output.observers, stop: stop, grace: min(SendCommand.stopGrace, self.timeout))
            try output.finish(summary, run: run, request: request, env: env)
        }
    }

    /// Seconds requests in flight get to be answered after a stop signal (GitHub Actions sends
    /// SIGKILL 10 s after its first SIGINT: the grace and the writing of every result fit before).
    static let stopGrace = 5.0
}

struct RecipientFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Your app's bundle id; the push type's suffix is added (env PUSHCTL_TOPIC).", valueName: "bundle-id"))
    var topic: String?

    @Option(name: .customLong("device-token"), help: ArgumentHelp("A device token in hex; repeat for several (Xcode's <ab cd …> form is fine).", valueName: "hex"))
    var deviceTokens: [String] = []

    @Option(help: ArgumentHelp("A file, pipe or FIFO of device tokens, one per line (# comments and blank lines skipped; a token given twice is sent once), or - for stdin.", valueName: "path"), completion: .file())
    var tokensFile: String?

    @Option(help: ArgumentHelp("A JSON Lines file, one notification per line: {\"token\":HEX,\"payload\":{…}} with optional push-type, priority, collapse-id, expiration, apns-id, topic (the header flags are defaults). Each payload is sent as its compact re-serialisation. - for stdin.", valueName: "path"), completion: .file(extensions: ["jsonl", "json"]))
    var requestsFile: String?

    @Option(help: ArgumentHelp("Send only shard K of N (1 ≤ K ≤ N): the tokens (or requests-file lines) whose stable hash falls in it, so N machines given the same list send every token once between them. auto reads the job engine's index: GitLab's CI_NODE_INDEX/CI_NODE_TOTAL, AWS Batch's AWS_BATCH_JOB_ARRAY_INDEX/_SIZE, Kubernetes' JOB_COMPLETION_INDEX (with auto/N: Kubernetes gives no count).", valueName: "k/n|auto|auto/n"))
    var shard: String?
}

struct PayloadFlags: ParsableArguments {
    @Option(help: ArgumentHelp("The payload JSON file, sent byte for byte, or - for stdin.", valueName: "path"), completion: .file(extensions: ["json"]))
    var payload: String?
    @Option(help: ArgumentHelp("The payload as a JSON string.", valueName: "json"))
    var payloadJson: String?
    @Option(help: "Build the payload: aps.alert.title.") var title: String?
    @Option(help: "Build the payload: aps.alert.subtitle.") var subtitle: String?
    @Option(help: "Build the payload: aps.alert.body.") var body: String?
    // .unconditional: "--badge -1" reaches the check (and its message), not "Missing value".
    @Option(parsing: .unconditional, help: "Build the payload: aps.badge (0 clears it).") var badge: Int?
    @Option(help: "Build the payload: aps.sound (e.g. default).") var sound: String?
    @Option(help: "Build the payload: aps.category.") var category: String?
    @Option(help: "Build the payload: aps.thread-id.") var threadId: String?
    @Flag(help: "Build the payload: aps.content-available = 1 (alone, it makes a background push).") var contentAvailable = false
    @Flag(help: "Build the payload: aps.mutable-content = 1 (for a notification service extension).") var mutableContent = false
    @Option(help: ArgumentHelp("Build the payload: aps.interruption-level (passive, active, time-sensitive, critical).", valueName: "level"), completion: .list(PayloadBuilder.interruptionLevels))
    var interruptionLevel: String?
    @Option(help: ArgumentHelp("Build the payload: a custom key beside aps, KEY=JSON; repeatable.", valueName: "key=json"))
    var custom: [String] = []
}

struct LiveActivityFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Build a Live Activity push: start, update or end (push type liveactivity, priority 10 unless --priority 5). --title/--body make its alert.", valueName: "event"),
            completion: .list(LiveActivityEvent.allCases.map(\.rawValue)))
    var liveActivity: String?
    @Option(help: ArgumentHelp("Live Activity: aps.timestamp, UNIX seconds (default: now).", valueName: "unix")) var timestamp: String?
    @Option(help: ArgumentHelp("Live Activity: aps.content-state, as JSON or @FILE (what your ContentState decodes).", valueName: "json|@file"))
    var contentState: String?
    @Option(help: ArgumentHelp("Live Activity: aps.stale-date, UNIX seconds.", valueName: "unix")) var staleDate: String?
    @Option(help: ArgumentHelp("Live Activity end: aps.dismissal-date, UNIX seconds (at most 4 hours ahead).", valueName: "unix")) var dismissalDate: String?
    @Option(help: ArgumentHelp("Live Activity: aps.relevance-score, a number.", valueName: "n")) var relevanceScore: String?
    @Option(help: ArgumentHelp("Live Activity start: aps.attributes-type, your ActivityAttributes type's name.", valueName: "name")) var attributesType: String?
    @Option(help: ArgumentHelp("Live Activity start: aps.attributes, as JSON or @FILE.", valueName: "json|@file")) var attributes: String?
    @Flag(help: "Live Activity start: aps.input-push-token = 1 (iOS 18: the started activity sends an update token).") var inputPushToken = false
    @Option(help: ArgumentHelp("Live Activity start: aps.input-push-channel (iOS 18: subscribe the activity to this broadcast channel).", valueName: "id"))
    var inputPushChannel: String?
    @Flag(help: "Send Live Activity payloads the lint refuses (missing event, timestamp, content-state, …) anyway.") var noLint = false
}

struct BroadcastFlags: ParsableArguments {
    @Option(name: .customLong("channel-id"), help: ArgumentHelp("Broadcast to this channel (iOS 18; repeatable) instead of devices: POST /4/broadcasts/apps/<bundle> with the Live Activity payload.", valueName: "id"))
    var channelIds: [String] = []
    @Option(help: ArgumentHelp("Broadcasts: apns-request-id, a UUID the server echoes.", valueName: "uuid")) var requestId: String?
}

struct HeaderFlags: ParsableArguments {
    @Option(help: ArgumentHelp("apns-push-type (default: background when aps holds only content-available, else alert).", valueName: "type"), completion: .list(PushType.allCases.map(\.rawValue)))
    var pushType: String?
    @Option(help: ArgumentHelp("apns-priority: 10, 5 or 1 (default: 10; 5 for background).", valueName: "n"))
    var priority: String?
    @Option(help: ArgumentHelp("apns-collapse-id, at most 64 bytes.", valueName: "id")) var collapseId: String?
    @Option(help: ArgumentHelp("apns-expiration, UNIX seconds; 0 = deliver once or drop (default: APNs stores it up to 30 days).", valueName: "unix"))
    var expiration: String?
    @Option(help: ArgumentHelp("apns-id, a UUID (default: APNs makes one).", valueName: "uuid")) var apnsId: String?
}

struct WhereFlags: ParsableArguments {
    @Flag(help: "Send to the sandbox (development) environment: api.sandbox.push.apple.com (default; env PUSHCTL_ENV).") var sandbox = false
    @Flag(help: "Send to production: api.push.apple.com.") var production = false
    @Option(help: ArgumentHelp("Send to this https URL instead (e.g. pushctl mock's) (env PUSHCTL_ENDPOINT).", valueName: "url"))
    var endpoint: String?
    @Option(help: ArgumentHelp("Port on Apple's hosts: 443 (default) or 2197.", valueName: "port")) var port: Int?
    @Option(help: ArgumentHelp("Also trust this CA certificate (PEM) (env PUSHCTL_CACERT).", valueName: "path"), completion: .file(extensions: ["pem", "crt"])) var cacert: String?
    @Option(help: ArgumentHelp("Send through this proxy: http://, https://, socks5:// or socks5h://HOST:PORT, user:password@ allowed (env PUSHCTL_PROXY; either wins over https_proxy/no_proxy, which libcurl follows otherwise).", valueName: "url"))
    var proxy: String?
    @Option(help: ArgumentHelp("The proxy's user:password, read from this file (never on the command line).", valueName: "path"), completion: .file())
    var proxyUserFile: String?
    @Option(name: .customLong("connect-to"), help: ArgumentHelp("As curl's --connect-to: connect to CONNECT-HOST:CONNECT-PORT for HOST:PORT, TLS still checking HOST (repeatable).", valueName: "host:port:connect-host:connect-port"))
    var connectTo: [String] = []
}

struct RunFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Most notifications in flight at once (default: as many as the server's HTTP/2 SETTINGS allow; APNs starts at 1 and raises it to about 1,000 per connection).", valueName: "n"))
    var concurrency: Int?
    @Option(help: ArgumentHelp("HTTP/2 connections to open; more help when one connection's streams are not enough (a server that allows few streams, or a long round trip).", valueName: "n")) var connections = 1
    @Option(help: ArgumentHelp("Retries on 429, 5xx and timeouts (a request lost with its connection gets 5 more), within (n + 1) × --timeout + 60 s per notification.", valueName: "n")) var retries = 3
    @Option(help: ArgumentHelp("Seconds to wait for each answer, connecting included.", valueName: "seconds"))
    var timeout: Double = 30
    @Option(help: ArgumentHelp("Write the tokens APNs called dead (410) to this file, one per line, to prune them.", valueName: "path"), completion: .file())
    var unregisteredOut: String?
    @Flag(help: "Try a token answered BadDeviceToken (or every token, when the key is answered BadEnvironmentKeyIdInToken) once in the other environment; each result says which environment took it.")
    var detectEnvironment = false
    @Option(name: .customLong("journal"), help: ArgumentHelp("Keep every final result in this JSON Lines file as it arrives (crash-safe); an existing journal needs --resume.", valueName: "path"), completion: .file(extensions: ["jsonl"]))
    var journal: String?
    @Flag(help: "With --journal: carry on the run the journal holds — what APNs answered is not sent again; the rest is (a missing or empty journal starts the run).")
    var resume = false
    @Flag(help: "With --resume: leave out what was sent but not answered when the run stopped (in doubt) instead of sending it again.")
    var skipInDoubt = false
    @Flag(help: "With --journal: add no apns-collapse-id. A journaled run gives each alert one derived from the run and the token (and every notification an apns-id), the same in every try and after --resume, so a copy sent twice replaces the first on the device; background and other undisplayed pushes get none; a --collapse-id or a line's collapse-id is never replaced.")
    var noCollapseId = false
    // .unconditional: "--rate -5" reaches the check (and its message), not "Missing value".
    @Option(parsing: .unconditional, help: ArgumentHelp("Start at most N notifications a second, across all connections (retries count too), so a big send does not reach every device in the same minute. With --shard the rate is per shard: N shards send up to N times it.", valueName: "n"))
    var rate: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("Spread the notifications evenly over this long (90, 90s, 15m, 2h): the rate is their count over it. Not with --rate or --follow.", valueName: "duration"))
    var spread: String?
    @Flag(help: "With --tokens-file or --requests-file (- for standard input, a pipe, a FIFO): read the lines as they arrive and send each on arrival, results written in input order as they are final; a bad line is its own result (not sent) and the stream goes on; the end of the input ends the run. Not with --journal (a stream is not read twice: let the queue deliver again what has no result).")
    var follow = false
    @Option(help: ArgumentHelp("Write the run's metrics to this file in Prometheus' text format, replaced at once (for node_exporter's textfile collector: a .prom file in its folder).", valueName: "path"),
            completion: .file(extensions: ["prom"]))
    var metricsFile: String?
    @Option(help: ArgumentHelp("Push the run's metrics to this Prometheus Pushgateway (http://host:9091) as job pushctl, the shard as a grouping label; a failed push is a warning.", valueName: "url"))
    var metricsPush: String?
}

struct SimulatorFlags: ParsableArguments {
    @Option(name: .customLong("simulator-file"), help: ArgumentHelp("Write the notification as an iOS Simulator .apns file (for `xcrun simctl push` or dragging onto a Simulator); sends nothing, needs no key or device token.", valueName: "path"), completion: .file(extensions: ["apns"]))
    var simulatorFile: String?
    @Option(help: ArgumentHelp("macOS: push the notification to this Simulator (a UDID, or booted) with `xcrun simctl push`; sends nothing to APNs.", valueName: "udid|booted"))
    var simulator: String?
}

struct OutputFlags: ParsableArguments {
    @Option(help: "text (one line per token, a summary on stderr), json (one document) or jsonl (one object per token, then a summary).")
    var output: ResultFormat = .text
    @Flag(help: "Check and print the request and an equivalent curl command; send nothing.") var dryRun = false
    @Flag(help: "Show libcurl's trace on stderr (the JWT redacted).") var verbose = false
    @Flag(help: "With --verbose or --dry-run, show the JWT instead of redacting it.") var showSecrets = false
    @Flag(help: "Print nothing but errors; the exit status tells the outcome.") var quiet = false
}
