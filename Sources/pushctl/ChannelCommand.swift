import ArgumentParser
import PushCore
import PushEngine
import PushSystem
import PushWords
import PushctlCommandLine

struct ChannelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channel",
        abstract: "Manage broadcast channels (iOS 18 broadcast push for Live Activities).",
        discussion: """
            Talks to Apple's channel management API (api-manage-broadcast.sandbox.push.apple.com:2195,
            or api-manage-broadcast.push.apple.com:2196 with --production), with the same
            authentication as send. Then send to a channel with `pushctl send --channel-id ID`.

            Examples:
              ID=$(pushctl channel create --topic com.example.app --storage none)
              pushctl channel list --topic com.example.app
              pushctl channel read "$ID" --topic com.example.app --output json
              pushctl channel delete "$ID" --topic com.example.app

            Exit status as send: 0 done, 1 refused by APNs, 64/65/66 bad input
            (nothing sent), 69 unreachable, 75 retries exhausted.
            """,
        subcommands: [Create.self, List.self, Read.self, Delete.self]
    )

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a channel; prints its id.",
            discussion: "none keeps no message for offline devices (a higher budget); latest keeps the last one up to 8 hours. Fixed at creation.")
        @OptionGroup var options: ChannelOptions
        @Option(help: "Message storage: none keeps nothing, latest the last message.")
        var storage: BroadcastAPI.StoragePolicy = .none

        func run() throws {
            try reportingErrors {
                try options.perform(.create(storage))
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the app's channel ids, one per line.")
        @OptionGroup var options: ChannelOptions

        func run() throws {
            try reportingErrors {
                try options.perform(.list)
            }
        }
    }

    struct Read: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "read", abstract: "Show a channel's storage policy and push type.")
        @Argument(help: ArgumentHelp("The channel id.", valueName: "id")) var id: String
        @OptionGroup var options: ChannelOptions

        func run() throws {
            try reportingErrors {
                let id = try BroadcastAPI.channelID(id, name: "the channel id")
                try options.perform(.read(channelID: id))
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a channel.")
        @Argument(help: ArgumentHelp("The channel id.", valueName: "id")) var id: String
        @OptionGroup var options: ChannelOptions

        func run() throws {
            try reportingErrors {
                let id = try BroadcastAPI.channelID(id, name: "the channel id")
                try options.perform(.delete(channelID: id))
            }
        }
    }
}

/// What every channel call takes: authentication, the app, where, and how to answer.
struct ChannelOptions: ParsableArguments, CredentialFlags {
    @OptionGroup(title: "Authentication") var auth: AuthOptions
    @OptionGroup(title: "Certificate authentication (instead of a key)") var certificate: CertificateOptions
    @Option(help: ArgumentHelp("A provider token made elsewhere, instead of signing one (env PUSHCTL_JWT).", valueName: "token"))
    var jwt: String?
    @Flag(help: "Sign a new JWT instead of reusing the cached one.") var noJwtCache = false

    @Option(help: ArgumentHelp("Your app's bundle id, without a push-type suffix (env PUSHCTL_TOPIC).", valueName: "bundle-id"))
    var topic: String?
    @Flag(help: "The sandbox's channel API: api-manage-broadcast.sandbox.push.apple.com:2195 (default; env PUSHCTL_ENV).") var sandbox = false
    @Flag(help: "Production's: api-manage-broadcast.push.apple.com:2196.") var production = false
    @Option(help: ArgumentHelp("This https URL instead (e.g. pushctl mock's) (env PUSHCTL_ENDPOINT).", valueName: "url")) var endpoint: String?
    @Option(help: ArgumentHelp("Also trust this CA certificate (PEM) (env PUSHCTL_CACERT).", valueName: "path"), completion: .file(extensions: ["pem", "crt"]))
    var cacert: String?
    @Option(help: ArgumentHelp("Through this proxy (env PUSHCTL_PROXY).", valueName: "url")) var proxy: String?
    @Option(help: ArgumentHelp("apns-request-id, a UUID the server echoes.", valueName: "uuid")) var requestId: String?
    @Option(help: ArgumentHelp("Seconds to wait for the answer.", valueName: "seconds")) var timeout: Double = 30
    @Option(help: ArgumentHelp("Retries on 429, 5xx and timeouts.", valueName: "n")) var retries = 3
    @Option(help: "text or json.") var output: TokenOutputFormat = .text
    @Flag(help: "Show libcurl's trace on stderr (the JWT redacted).") var verbose = false
    @OptionGroup var language: LanguageOption

    func validate() throws {
        let conflicts: [(Bool, OptionConflict)] = [
            (sandbox && production, .bothEnvironments), (endpoint != nil && (sandbox || production), .endpointAndEnvironment),
            (!(timeout > 0 && timeout <= SendCommand.timeoutLimit), .secondsOutOfRange(.timeout, highest: Int(SendCommand.timeoutLimit), given: "\(timeout)")),
            (!(0...SendCommand.retriesLimit).contains(retries), .outOfRange(.retries, lowest: 0, highest: SendCommand.retriesLimit, given: "\(retries)")),
            (certificate.cert != nil && (auth.keyFile != nil || jwt != nil), .certificateAndToken),
        ]
        if let conflict = conflicts.first(where: \.0)?.1 { throw ValidationError(InputError(conflict).words) }
    }

    var bundleShown: String { OutsideText.display(settings.value(.topic) ?? "the app") }

    /// The settings these flags give, over the PUSHCTL_* variables.
    var settings: SettingValues {
        var flags = credentialSettings
        flags[.topic] = topic
        flags[.endpoint] = endpoint
        flags[.caCertificate] = cacert
        flags[.proxy] = proxy
        return .command(flags, environment: sandbox ? .sandbox : production ? .production : nil)
    }

    /// Sends one call (a run of one, through the engine) and prints what `describe` makes of its
    /// success; failures as `send` shows them.
    func perform(_ call: BroadcastAPI.ChannelCall) throws {
        try CommandArguments.requireUTF8()
        let values = settings
        var connection = ConnectionSettings(timeout: timeout)
        if verbose { connection.trace = { Console.err($0) } }
        connection.naming = FlagNames.naming
        let plan = try ChannelCallSetup.plan(
            call, values, credentials: credentialOptions(quiet: false), requestID: requestId, connection: connection,
            policy: RetryPolicy(maxRetries: retries, requestTimeout: timeout))
        var answered: PushResult?
        let summary = try SendRun(plan: plan).run(stop: SignalStop(), grace: min(SendCommand.stopGrace, timeout)) { answered = $0 }
        guard let result = answered else { return }
        let status: Int32 = summary.stoppedBy.map(SignalStop.exitStatus) ?? ExitStatus(summary.outcome).rawValue
        if result.outcome == .accepted {
            let made = ChannelCallSetup.describe(call, result, bundle: bundleShown)
            switch output {
            case .text:
                made.text.forEach(Console.out)
                if let note = made.note { Console.say(note) }
            case .json:
                Console.out(result.json(CallOutput.jsonLanguage, naming: FlagNames.naming, extra: made.json).pretty)
            }
        } else {
            switch output {
            case .text: Console.err(CallOutput.line(result, on: Descriptors.standardError))
            case .json: Console.out(result.json(CallOutput.jsonLanguage, naming: FlagNames.naming).pretty)
            }
            if let cause = result.unreachableCause {
                Console.hint(cause.hint(endpoint: values.value(.endpoint)))
            }
        }
        if status != 0 { throw ExitCode(status) }
    }
}
