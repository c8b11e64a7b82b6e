public import ArgumentParser
import PushCore
import PushEngine
import PushSystem
import PushWords
import PushctlCommandLine

/// The closed choices the command line takes as enums (a value outside them is named, with the
/// choices, in the user's language: `Suggestions`).
extension ResultFormat: ExpressibleByArgument {}
extension BroadcastAPI.StoragePolicy: ExpressibleByArgument {}
extension TestMaterials.Environments: ExpressibleByArgument {}
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
    @OptionGroup(title: "What the phone will do (the app's own files)") var appFlags: AppFlags
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
    subscript<T>(dynamicMember path: KeyPath<AppFlags, T>) -> T { appFlags[keyPath: path] }

    func validate() throws {
        if let conflict = conflicts.first(where: \.0)?.1 ?? liveActivityConflict { throw ValidationError(InputError(conflict).words) }
    }

    /// The flags' contradictions, the first that holds refused (exit 64) before anything is read.
    var conflicts: [(Bool, OptionConflict)] {
        let withSimulator: [(Bool, Setting)] = [
            (self.tokensFile != nil, .tokensFile), (self.requestsFile != nil, .requestsFile), (!self.channelIds.isEmpty, .channelID),
            (self.journal != nil, .journal),
            (self.unregisteredOut != nil, .unregisteredOut), (self.detectEnvironment, .detectEnvironment), (self.metricsFile != nil, .metricsFile),
            (self.metricsPush != nil, .metricsPush),
        ]
        let wholeList: [(Bool, Setting)] = [
            (self.journal != nil, .journal), (self.spread != nil, .spread), (self.detectEnvironment, .detectEnvironment), (self.apnsId != nil, .apnsID),
            (self.dryRun, .dryRun),
        ]
        let followed = self.follow ? wholeList.first(where: \.0)?.1 : nil
        let simulated = (self.simulatorFile != nil || self.simulator != nil) ? withSimulator.first(where: \.0)?.1 : nil
        let channels = !self.channelIds.isEmpty
        let devices = !self.deviceTokens.isEmpty || self.tokensFile != nil || self.requestsFile != nil
        let payloads = [self.payload != nil, self.payloadJson != nil, !builder.isEmpty || self.liveActivity != nil].filter { $0 }.count
        let badConnectTo = self.connectTo.first { $0.split(separator: ":", omittingEmptySubsequences: false).count < 4 || $0.contains(where: \.isWhitespace) }
        return [
            (certificate.cert != nil && (auth.keyFile != nil || jwt != nil), .certificateAndToken),
            (self.sandbox && self.production, .bothEnvironments),
            (self.resume && self.journal == nil, .resumeWithoutJournal),
            (self.skipInDoubt && !self.resume, .skipInDoubtWithoutResume),
            (self.noCollapseId && self.journal == nil, .noCollapseIDWithoutJournal),
            (self.rate != nil && self.spread != nil, .rateAndSpread),
            (self.rate.map { Pacing.rate($0) == nil } ?? false, .rateNotNumber(shown: OutsideText.display(self.rate ?? "", limit: 40))),
            (self.spread.map { Pacing.seconds($0) == nil } ?? false, .spreadNotDuration(shown: OutsideText.display(self.spread ?? "", limit: 40))),
            (self.follow && self.tokensFile == nil && self.requestsFile == nil, .followNeedsFile),
            (followed != nil, .notWithFollow(followed ?? .journal)),
            (simulated != nil, .notWithSimulator(simulated ?? .simulator)),
            (metricsGateway.map { !RunMetrics.isPushURL($0) } ?? false, .metricsPushNotURL(shown: Redaction.url(metricsGateway ?? "", limit: 100))),
            ((self.metricsFile != nil || self.metricsPush != nil) && channels, .metricsWithBroadcast),
            (self.journal != nil && channels, .journalWithBroadcast),
            (self.detectEnvironment && self.endpoint != nil, .detectWithEndpoint),
            (self.detectEnvironment && (self.requestsFile != nil || channels), .detectNeedsDeviceTokens),
            (badConnectTo != nil, .connectToForm(shown: OutsideText.display(badConnectTo ?? ""))),
            (self.endpoint != nil && (self.sandbox || self.production), .endpointAndEnvironment),
            (self.port.map { $0 != 443 && $0 != 2197 } ?? false, .portNotApple),
            (
                self.concurrency.map { !(1...SendCommand.concurrencyLimit).contains($0) } ?? false,
                .outOfRange(.concurrency, lowest: 1, highest: SendCommand.concurrencyLimit, given: "\(self.concurrency ?? 0)")
            ),
            (!(1...64).contains(self.connections), .outOfRange(.connections, lowest: 1, highest: 64, given: "\(self.connections)")),
            (
                !(0...SendCommand.retriesLimit).contains(self.retries),
                .outOfRange(.retries, lowest: 0, highest: SendCommand.retriesLimit, given: "\(self.retries)")
            ),
            (
                !(self.timeout > 0 && self.timeout <= SendCommand.timeoutLimit),
                .secondsOutOfRange(.timeout, highest: Int(SendCommand.timeoutLimit), given: "\(self.timeout)")
            ),
            (self.payload == "-" && self.tokensFile == "-", .standardInputTwice(.tokensFile)),
            (channels && devices, .channelsWithDevices),
            (channels && (self.collapseId != nil || self.apnsId != nil), .broadcastHeaders),
            (!channels && self.requestId != nil, .requestIDWithoutChannels),
            (payloads > 1, .payloadTwice),
            ([!self.deviceTokens.isEmpty, self.tokensFile != nil, self.requestsFile != nil].filter { $0 }.count > 1, .recipientsTwice),
            (self.requestsFile != nil && payloads > 0, .requestsFileCarriesPayloads),
            (self.requestsFile != nil && self.apnsId != nil, .apnsIDWithRequestsFile),
            (self.requestsFile == "-" && self.payload == "-", .standardInputTwice(.requestsFile)),
        ]
    }

    /// The Live Activity flags go with --live-activity, and it with only --title, --body, --sound.
    var liveActivityConflict: OptionConflict? {
        let given: [(Bool, String)] = [
            (self.timestamp != nil, "--timestamp"), (self.contentState != nil, "--content-state"), (self.staleDate != nil, "--stale-date"),
            (self.dismissalDate != nil, "--dismissal-date"), (self.relevanceScore != nil, "--relevance-score"),
            (self.attributesType != nil, "--attributes-type"),
            (self.attributes != nil, "--attributes"), (self.inputPushToken, "--input-push-token"), (self.inputPushChannel != nil, "--input-push-channel"),
        ]
        guard let event = self.liveActivity else { return given.first(where: \.0).map { .liveActivityNeeded(flag: $0.1) } }
        guard LiveActivityEvent(rawValue: event) != nil else { return .liveActivityEvent(shown: OutsideText.display(event)) }
        if let type = self.pushType, type != PushType.liveactivity.rawValue { return .liveActivityPushType(shown: OutsideText.display(type)) }
        let others: [(Bool, String)] = [
            (self.payload != nil, "--payload"), (self.payloadJson != nil, "--payload-json"), (self.subtitle != nil, "--subtitle"),
            (self.badge != nil, "--badge"),
            (self.category != nil, "--category"), (self.threadId != nil, "--thread-id"), (self.contentAvailable, "--content-available"),
            (self.mutableContent, "--mutable-content"), (self.interruptionLevel != nil, "--interruption-level"), (!self.custom.isEmpty, "--custom"),
        ]
        return others.first(where: \.0).map { .notWithLiveActivity(flag: $0.1) }
    }

    /// The push type: --push-type, or liveactivity with --live-activity or --channel-id.
    var effectivePushType: String? {
        self.pushType ?? (self.liveActivity != nil || !self.channelIds.isEmpty ? PushType.liveactivity.rawValue : nil)
    }

    /// The Live Activity flags as given, for the engine to read.
    func liveActivityInput(_ event: String) -> LiveActivityInput {
        var input = LiveActivityInput(event: event)
        input.naming = FlagNames.naming
        (input.timestamp, input.staleDate, input.dismissalDate) = (self.timestamp, self.staleDate, self.dismissalDate)
        (input.relevanceScore, input.contentState, input.attributes) = (self.relevanceScore, self.contentState, self.attributes)
        (input.attributesType, input.inputPushToken, input.inputPushChannel) = (self.attributesType, self.inputPushToken, self.inputPushChannel)
        (input.title, input.body, input.sound) = (self.title, self.body, self.sound)
        return input
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
        flags[.endpoint] = self.endpoint
        flags[.caCertificate] = self.cacert
        flags[.proxy] = self.proxy
        flags[.metricsPush] = self.metricsPush
        return .command(flags, environment: self.sandbox ? .sandbox : self.production ? .production : nil)
    }

    /// The Pushgateway the run's metrics go to: `--metrics-push`, else `PUSHCTL_METRICS_PUSH`.
    var metricsGateway: String? { settings.value(.metricsPush) }

    /// How to connect, as the flags say (the proxy and the certificate are added once read).
    var connection: ConnectionSettings {
        var settings = ConnectionSettings(concurrency: self.concurrency ?? SendCommand.concurrencyLimit, connections: self.connections, timeout: self.timeout)
        settings.connectTo = self.connectTo
        if self.verbose { settings.trace = { Console.err($0) } }
        settings.showSecrets = self.showSecrets
        settings.naming = FlagNames.naming
        return settings
    }

    /// The payload as the flags give it.
    var payloadInput: PayloadInput? {
        if let path = self.payload { return .file(path) }
        if let json = self.payloadJson { return .json(json) }
        if let event = self.liveActivity {
            let input = liveActivityInput(event)
            return .built { now throws(InputError) in try input.builder().build(now: now) }
        }
        if !builder.isEmpty { return .built { _ throws(InputError) in try self.builder.build() } }
        return nil
    }

    /// How a message names a header field: by its flag.
    @Sendable static func flagName(_ field: PushField) -> String { "--" + field.rawValue }

    /// The header flags, checked into their types (a broadcast's said in a broadcast's words).
    func headerFields(broadcast: Bool = false) throws(InputError) -> (pushType: PushType?, priority: Priority?, expiration: Int64?) {
        let name = Self.flagName
        if broadcast {
            return (
                try self.pushType.map { text throws(InputError) in try BroadcastTemplate.pushType(given: text, name: name(.pushType)) },
                try self.priority.map { text throws(InputError) in try BroadcastTemplate.priority(given: .text(text), name: name(.priority)) },
                try self.expiration.map { text throws(InputError) in try BroadcastTemplate.expiration(given: .text(text), name: name(.expiration)) }
            )
        }
        return (
            try effectivePushType.map { text throws(InputError) in try PushSpec.pushType(given: text, name: name(.pushType)) },
            try self.priority.map { text throws(InputError) in try PushSpec.priority(given: .text(text), name: name(.priority)) },
            try self.expiration.map { text throws(InputError) in try PushSpec.expiration(given: .text(text), name: name(.expiration)) }
        )
    }

    /// Everything `send` hands the engine: the header fields typed (a broadcast's in its own words).
    func options(broadcast: Bool = false) throws(InputError) -> SendOptions {
        var o = SendOptions(settings: settings)
        o.credentials = credentialOptions(quiet: self.quiet)
        // A dry run shows the token only when asked: otherwise no signer runs and no token logs in.
        o.credentials.signBeforeSending = !self.dryRun || self.showSecrets
        o.deviceTokens = self.deviceTokens
        o.tokensFile = self.tokensFile
        o.requestsFile = self.requestsFile
        o.shard = self.shard
        o.payload = payloadInput
        (o.pushType, o.priority, o.expiration) = try headerFields(broadcast: broadcast)
        o.collapseID = self.collapseId
        o.apnsID = self.apnsId
        o.lint = !self.noLint
        o.fieldName = Self.flagName
        o.port = self.port
        o.proxyCredentialsFile = self.proxyUserFile
        o.connection = connection
        o.policy = RetryPolicy(maxRetries: self.retries, requestTimeout: self.timeout)
        o.detectEnvironment = self.detectEnvironment
        o.rate = self.rate.flatMap(Pacing.rate)
        o.spread = self.spread.flatMap(Pacing.seconds)
        o.follow = self.follow
        o.journal = self.journal.map { JournalSetting(path: $0, resume: self.resume, skipInDoubt: self.skipInDoubt, collapseIDs: !self.noCollapseId) }
        o.unregisteredOut = self.unregisteredOut
        return o
    }

    func run() throws {
        let lostOutputNote =
            self.dryRun
            ? Words("nothing was sent: this was a dry run (--dry-run)", es: "no se envió nada: era un simulacro (--dry-run)")
            : Words("the notifications were still sent", es: "las notificaciones se enviaron igualmente")
        try reportingErrors(lostOutputNote: lostOutputNote) {
            try CommandArguments.requireUTF8()
            let env = Console.environment
            if !self.channelIds.isEmpty {
                try BroadcastRun.run(self, env: env)
                return
            }
            if self.simulatorFile != nil || self.simulator != nil {
                try SimulatorRun.run(self, env: env)
                return
            }
            // Stop signals are taken over before the credentials are resolved: a stop while a signer
            // signs ends the signer's process group, and pushctl ends as stopped, nothing sent.
            let stop = self.dryRun ? nil : SignalStop()
            let request: SendSetup
            do {
                request = try SendSetup(options())
            } catch {
                throw SendCommand.stoppedBeforeSending(stop) ?? error
            }
            if !self.quiet {
                request.warnings.forEach(Console.warn)
                if let shard = request.shardChoice?.sourceWords { Console.say(shard) }
            }
            // What the phone will do, before anything is sent (--app): a finding that will fail refuses the send.
            let phone: PhoneCheck?
            // A stop while pushctl-app reads the app ends the check, and nothing is sent.
            do { phone = try self.phoneCheck(request) } catch { throw SendCommand.stoppedBeforeSending(stop) ?? error }
            if self.dryRun {
                DryRun(request: request, showSecrets: self.showSecrets, naming: FlagNames.naming).lines.forEach(Console.out)
                let alert = phone?.alert
                let preview =
                    alert.map { NotificationPreview(title: $0.title, subtitle: $0.subtitle, body: $0.body, appName: phone?.appName) }
                    ?? request.template.flatMap { NotificationPreview(payload: $0.payload.json, appName: nil) }
                if !self.quiet, let preview {
                    Console.out("")
                    // Box characters on a terminal; plain lines for a log or a pipe.
                    let card = Terminal.isTerminal(Descriptors.standardOutput) && Console.environment["TERM"] != "dumb"
                    for line in PhonePreviewText.lines(preview, card: card) { Console.out(line.description) }
                }
                return
            }
            var plan = request.plan
            plan.findings = phone?.machine ?? []
            let run = try SendRun(plan: plan)
            let output = try SendOutput(self, total: request.notifications.count)
            // From here a signal stops the run cleanly: every notification still gets its result.
            let summary = try run.run(observers: output.observers, stop: stop, grace: min(SendCommand.stopGrace, self.timeout))
            try output.finish(summary, run: run, request: request, env: env)
        }
    }

    /// `--app` (or PUSHCTL_APP): the findings said on stderr, worst first; nil without an app. A
    /// finding that will fail on the phone ends the run here, exit 65 and nothing sent, unless
    /// `--force`.
    func phoneCheck(_ request: SendSetup) throws -> PhoneCheck? {
        let settings = SettingValues(flags: self.app.map { [.app: $0] } ?? [:], environment: Console.environment, naming: FlagNames.naming)
        guard let app = settings.value(.app) else { return nil }
        guard let template = request.template, self.channelIds.isEmpty else {
            throw InputError(
                Words(
                    "--app checks one payload: it cannot be used with \(Setting.requestsFile) or \(Setting.follow)",
                    es: "--app comprueba una carga útil: no se puede usar con \(Setting.requestsFile) ni con \(Setting.follow)"),
                hint: Words("check each payload with `pushctl check --app`", es: "comprueba cada carga útil con `pushctl check --app`"),
                kind: .usage)
        }
        let check = try PhoneCheck.run(
            app: app, payload: template.payload, pushType: template.pushType, environment: request.plan.destination.environment,
            locale: self.locale, language: LanguageSetting.language)
        for (colour, label, text) in check.lines() { Console.labelled(label + Words(verbatim: ":"), colour, Words(verbatim: text)) }
        if check.willFail && !self.force {
            Console.error(
                Words(
                    "the phone would fail on this notification (above): nothing was sent",
                    es: "el teléfono fallaría con esta notificación (arriba): no se envió nada"))
            Console.hint(
                Words("fix the payload or the app; or send it anyway with --force", es: "corrige la carga útil o la app; o envíala igualmente con --force"))
            throw ExitCode(ExitStatus.dataError.rawValue)
        }
        return check
    }

    /// A stop signal taken before anything was sent (while a signer signs, or pushctl-app reads
    /// the app): said, and the exit status for it; nil when no stop was asked for.
    static func stoppedBeforeSending(_ stop: SignalStop?) -> ExitCode? {
        guard let stopped = stop?.stopRequest else { return nil }
        Console.say(Words("pushctl: \(stopped.name): stopped before anything was sent", es: "pushctl: \(stopped.name): detenido antes de enviar nada"))
        return ExitCode(SignalStop.exitStatus(for: stopped))
    }

    /// Seconds requests in flight get to be answered after a stop signal (GitHub Actions sends
    /// SIGKILL 10 s after its first SIGINT: the grace and the writing of every result fit before).
    static let stopGrace = 5.0
}

struct AppFlags: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The app it is for (its project folder or a built .app): before sending, check the payload against its strings, Live Activity types and capabilities; refuse what will fail on the phone (env PUSHCTL_APP).",
            valueName: "path"),
        completion: .directory)
    var app: String?

    @Option(help: ArgumentHelp("The app's language the alert is read in (default: its development region).", valueName: "locale"))
    var locale: String?

    @Flag(help: "Send what --app says will fail on the phone anyway.") var force = false
}

struct RecipientFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Your app's bundle id; the push type's suffix is added (env PUSHCTL_TOPIC).", valueName: "bundle-id"))
    var topic: String?

    @Option(
        name: .customLong("device-token"), help: ArgumentHelp("A device token in hex; repeat for several (Xcode's <ab cd …> form is fine).", valueName: "hex"))
    var deviceTokens: [String] = []

    @Option(
        help: ArgumentHelp(
            "A file, pipe or FIFO of device tokens, one per line (# comments and blank lines skipped; a token given twice is sent once), or - for stdin.",
            valueName: "path"), completion: .file())
    var tokensFile: String?

    @Option(
        help: ArgumentHelp(
            "A JSON Lines file, one notification per line: {\"token\":HEX,\"payload\":{…}} with optional push-type, priority, collapse-id, expiration, apns-id, topic (the header flags are defaults). Each payload is sent as its compact re-serialisation. - for stdin.",
            valueName: "path"), completion: .file(extensions: ["jsonl", "json"]))
    var requestsFile: String?

    @Option(
        help: ArgumentHelp(
            "Send only shard K of N (1 ≤ K ≤ N): the tokens (or requests-file lines) whose stable hash falls in it, so N machines given the same list send every token once between them. auto reads the job engine's index: GitLab's CI_NODE_INDEX/CI_NODE_TOTAL, AWS Batch's AWS_BATCH_JOB_ARRAY_INDEX/_SIZE, Kubernetes' JOB_COMPLETION_INDEX (with auto/N: Kubernetes gives no count).",
            valueName: "k/n|auto|auto/n"))
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
    @Option(
        help: ArgumentHelp("Build the payload: aps.interruption-level (passive, active, time-sensitive, critical).", valueName: "level"),
        completion: .list(PayloadBuilder.interruptionLevels))
    var interruptionLevel: String?
    @Option(help: ArgumentHelp("Build the payload: a custom key beside aps, KEY=JSON; repeatable.", valueName: "key=json"))
    var custom: [String] = []
}

struct LiveActivityFlags: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Build a Live Activity push: start, update or end (push type liveactivity, priority 10 unless --priority 5). --title/--body make its alert.",
            valueName: "event"),
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
    @Option(
        name: .customLong("channel-id"),
        help: ArgumentHelp(
            "Broadcast to this channel (iOS 18; repeatable) instead of devices: POST /4/broadcasts/apps/<bundle> with the Live Activity payload.",
            valueName: "id"))
    var channelIds: [String] = []
    @Option(help: ArgumentHelp("Broadcasts: apns-request-id, a UUID the server echoes.", valueName: "uuid")) var requestId: String?
}

struct HeaderFlags: ParsableArguments {
    @Option(
        help: ArgumentHelp("apns-push-type (default: background when aps holds only content-available, else alert).", valueName: "type"),
        completion: .list(PushType.allCases.map(\.rawValue)))
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
    @Option(help: ArgumentHelp("Also trust this CA certificate (PEM) (env PUSHCTL_CACERT).", valueName: "path"), completion: .file(extensions: ["pem", "crt"]))
    var cacert: String?
    @Option(
        help: ArgumentHelp(
            "Send through this proxy: http://, https://, socks5:// or socks5h://HOST:PORT, user:password@ allowed (env PUSHCTL_PROXY; either wins over https_proxy/no_proxy, which libcurl follows otherwise).",
            valueName: "url"))
    var proxy: String?
    @Option(help: ArgumentHelp("The proxy's user:password, read from this file (never on the command line).", valueName: "path"), completion: .file())
    var proxyUserFile: String?
    @Option(
        name: .customLong("connect-to"),
        help: ArgumentHelp(
            "As curl's --connect-to: connect to CONNECT-HOST:CONNECT-PORT for HOST:PORT, TLS still checking HOST (repeatable).",
            valueName: "host:port:connect-host:connect-port"))
    var connectTo: [String] = []
}

struct RunFlags: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Most notifications in flight at once (default: as many as the server's HTTP/2 SETTINGS allow; APNs starts at 1 and raises it to about 1,000 per connection).",
            valueName: "n"))
    var concurrency: Int?
    @Option(
        help: ArgumentHelp(
            "HTTP/2 connections to open; more help when one connection's streams are not enough (a server that allows few streams, or a long round trip).",
            valueName: "n")) var connections = 1
    @Option(
        help: ArgumentHelp(
            "Retries on 429, 5xx and timeouts (a request lost with its connection gets 5 more), within (n + 1) × --timeout + 60 s per notification.",
            valueName: "n")) var retries = 3
    @Option(help: ArgumentHelp("Seconds to wait for each answer, connecting included.", valueName: "seconds"))
    var timeout: Double = 30
    @Option(help: ArgumentHelp("Write the tokens APNs called dead (410) to this file, one per line, to prune them.", valueName: "path"), completion: .file())
    var unregisteredOut: String?
    @Flag(
        help:
            "Try a token answered BadDeviceToken (or every token, when the key is answered BadEnvironmentKeyIdInToken) once in the other environment; each result says which environment took it."
    )
    var detectEnvironment = false
    @Option(
        name: .customLong("journal"),
        help: ArgumentHelp(
            "Keep every final result in this JSON Lines file as it arrives (crash-safe); an existing journal needs --resume.", valueName: "path"),
        completion: .file(extensions: ["jsonl"]))
    var journal: String?
    @Flag(
        help:
            "With --journal: carry on the run the journal holds — what APNs answered is not sent again; the rest is (a missing or empty journal starts the run)."
    )
    var resume = false
    @Flag(help: "With --resume: leave out what was sent but not answered when the run stopped (in doubt) instead of sending it again.")
    var skipInDoubt = false
    @Flag(
        help:
            "With --journal: add no apns-collapse-id. A journaled run gives each alert one derived from the run and the token (and every notification an apns-id), the same in every try and after --resume, so a copy sent twice replaces the first on the device; background and other undisplayed pushes get none; a --collapse-id or a line's collapse-id is never replaced."
    )
    var noCollapseId = false
    // .unconditional: "--rate -5" reaches the check (and its message), not "Missing value".
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Start at most N notifications a second, across all connections (retries count too), so a big send does not reach every device in the same minute. With --shard the rate is per shard: N shards send up to N times it.",
            valueName: "n"))
    var rate: String?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Spread the notifications evenly over this long (90, 90s, 15m, 2h): the rate is their count over it. Not with --rate or --follow.",
            valueName: "duration"))
    var spread: String?
    @Flag(
        help:
            "With --tokens-file or --requests-file (- for standard input, a pipe, a FIFO): read the lines as they arrive and send each on arrival, results written in input order as they are final; a bad line is its own result (not sent) and the stream goes on; the end of the input ends the run. Not with --journal (a stream is not read twice: let the queue deliver again what has no result)."
    )
    var follow = false
    @Option(
        help: ArgumentHelp(
            "Write the run's metrics to this file in Prometheus' text format, replaced at once (for node_exporter's textfile collector: a .prom file in its folder).",
            valueName: "path"),
        completion: .file(extensions: ["prom"]))
    var metricsFile: String?
    @Option(
        help: ArgumentHelp(
            "Push the run's metrics to this Prometheus Pushgateway (http://host:9091) as job pushctl, the shard as a grouping label; a failed push is a warning (env PUSHCTL_METRICS_PUSH: keep a URL with a password there).",
            valueName: "url"))
    var metricsPush: String?
}

struct SimulatorFlags: ParsableArguments {
    @Option(
        name: .customLong("simulator-file"),
        help: ArgumentHelp(
            "Write the notification as an iOS Simulator .apns file (for `xcrun simctl push` or dragging onto a Simulator); sends nothing, needs no key or device token.",
            valueName: "path"), completion: .file(extensions: ["apns"]))
    var simulatorFile: String?
    @Option(
        help: ArgumentHelp(
            "macOS: push the notification to this Simulator (a UDID, or booted) with `xcrun simctl push`; sends nothing to APNs.", valueName: "udid|booted"))
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
