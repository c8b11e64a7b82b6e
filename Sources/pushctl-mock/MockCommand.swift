public import ArgumentParser
import Dispatch
import Foundation
import PushCore
import PushEngine
import PushFiles
import PushMock
import PushMockSession
import PushSystem
import PushWords
import PushctlCommandLine
import Synchronization

/// A closed choice taken as an enum (a value outside it is named, with the choices: `Suggestions`).
extension APNsEnvironment: ExpressibleByArgument {}

struct MockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mock",
        abstract: "Run a strict local APNs over TLS + HTTP/2.",
        discussion: """
            Checks every request as Apple documents (path, headers, payload size, provider token) and \
            answers with Apple's status and reason. Makes a throwaway CA at start; trust it with \
            --cacert. Ctrl-C stops it.

            Examples:
              pushctl mock --port 8443 --ca-out mock-ca.pem \\
                --key-file AuthKey_ABC123DEFG.p8
              # a token answered 410 Unregistered (a token is 64 hex digits):
              pushctl mock --fail "$DEAD_TOKEN=Unregistered" --log requests.jsonl
              # a class on one network, watching each push land in a browser:
              pushctl mock --host 0.0.0.0 --port 8443 --web 8080
              # a rough day at APNs:
              pushctl mock --goaway-after 300 --refuse-every 50 --delay 20

            Hostile servers, to test a client at the edges:
              # a proxy's 503, once:
              pushctl mock --answer-status 503 --answer-body '<html>busy</html>' \\
                --answer-count 1
              # a Retry-After of 11 days:
              pushctl mock --answer-status 429 --retry-after 999999
              pushctl mock --pad-body 70000      # a 200 with a 70 KB body
              pushctl mock --silent              # TLS and SETTINGS, then silence
              pushctl mock --reset-streams       # RST_STREAM on every request
              pushctl mock --goaway-after 100 --goaway-error PROTOCOL_ERROR
              pushctl mock --initial-streams 0   # no request may start
            """
    )

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port = 0

    @Option(
        name: .customLong("key-file"),
        help: ArgumentHelp(
            "A provider key whose signatures to accept: AuthKey_<KEYID>.p8, or KEYID=PATH (repeatable). Without one, only the token's shape is checked.",
            valueName: "path"))
    var keyFiles: [String] = []

    @Option(
        name: .customLong("key-dir"),
        help: ArgumentHelp(
            "A folder of keys for a class where nobody shares a private key: each student puts the public half of their key there (KEYID.pem, as `pushctl key generate` writes it); read again when a token names a new key id.",
            valueName: "dir"), completion: .directory)
    var keyDir: String?

    @Option(name: .customLong("team-id"), help: "Require this team id in the tokens' iss (default: any).")
    var teamID: String?

    @Option(
        name: .customLong("ca-out"),
        help:
            "Write the CA certificate (PEM) here, never through a symbolic link (default: mock-ca.pem in a new private folder in $XDG_RUNTIME_DIR or TMPDIR, removed at exit)."
    )
    var caOut: String?

    @Option(help: "Append one JSON line per request to this file (a symbolic link there is refused).")
    var log: String?

    @Option(
        name: .customLong("log-max-size"),
        help: ArgumentHelp(
            "Rotate --log when it reaches this many MiB: it becomes PATH.1 (replacing the last one) and a new file starts, so the log takes at most about twice this (default 64).",
            valueName: "mib"))
    var logMaxSize = Int(MockAPNsConfiguration.defaultLogSizeLimit >> 20)

    @Option(
        name: .customLong("client-ca"),
        help: ArgumentHelp(
            "Accept TLS client certificates (certificate-based authentication) signed by this CA, e.g. the pushctl-test-ca.pem of `pushctl cert generate` (repeatable; the mock's own CA is always accepted).",
            valueName: "path"),
        completion: .file(extensions: ["pem", "crt"]))
    var clientCAs: [String] = []

    @Option(
        name: .customLong("channel-limit"),
        help: ArgumentHelp("Broadcast channels the mock keeps in all (Apple: 10,000 per environment); past it, CannotCreateChannelConfig.", valueName: "n"))
    var channelLimit = BroadcastAPI.channelLimit

    @Option(
        name: .customLong("environment"),
        help: ArgumentHelp("The environment the mock plays for certificates; a certificate for the other gets BadCertificateEnvironment.", valueName: "env"))
    var environment: APNsEnvironment = .sandbox

    @Option(
        name: .customLong("fail"),
        help: ArgumentHelp("Answer requests to TOKEN with REASON, e.g. <hex>=Unregistered (repeatable).", valueName: "token=reason"))
    var failures: [String] = []

    @Option(name: .customLong("max-streams"), help: "Concurrent streams per connection after the first valid token (0 allows none).")
    var maxStreams = 1000

    @Option(
        name: .customLong("initial-streams"),
        help: ArgumentHelp(
            "Concurrent streams per connection until the first valid token (default 1, as APNs; a benchmark may start higher; 0 allows none).",
            valueName: "n"))
    var initialStreamsOption: Int?

    /// 1 unless told otherwise (0 when --max-streams is 0).
    var initialStreams: Int { initialStreamsOption ?? min(1, maxStreams) }

    @Option(
        name: .customLong("fail-first"),
        help: ArgumentHelp(
            "Answer the first N requests to TOKEN with REASON, then accept it, e.g. <hex>=2:ServiceUnavailable (repeatable).",
            valueName: "token=n:reason"))
    var failFirst: [String] = []

    @Option(
        name: .customLong("goaway-after"), help: ArgumentHelp("Send GOAWAY ({\"reason\":\"Shutdown\"}) after N requests on each connection.", valueName: "n"))
    var goAwayAfter: Int?

    @Option(name: .customLong("close-after"), help: ArgumentHelp("Drop each connection abruptly (no GOAWAY) after N requests.", valueName: "n"))
    var closeAfter: Int?

    @Option(name: .customLong("refuse-every"), help: ArgumentHelp("Reset every Nth stream with RST_STREAM(REFUSED_STREAM).", valueName: "n"))
    var refuseEvery: Int?

    @Option(help: ArgumentHelp("Wait this many milliseconds before each answer.", valueName: "ms"))
    var delay = 0

    @Option(
        name: .customLong("goaway-error"),
        help: ArgumentHelp(
            "The HTTP/2 error code of --goaway-after's GOAWAY: a number or a name such as PROTOCOL_ERROR (default NO_ERROR).",
            valueName: "code"))
    var goAwayError: String?

    @Option(
        name: .customLong("goaway-instead"),
        help: ArgumentHelp(
            "Answer no request: GOAWAY (last stream 0) with {\"reason\":REASON} on each connection's first, as APNs does for some refusals.",
            valueName: "reason"))
    var goAwayInstead: String?

    @Option(
        name: .customLong("answer-status"),
        help: ArgumentHelp(
            "Answer requests that pass the checks with this HTTP status (100-599) instead, as a proxy would: no apns-id, no JSON.",
            valueName: "code"))
    var answerStatus: Int?

    @Option(name: .customLong("answer-body"), help: ArgumentHelp("The body of --answer-status's answer, sent verbatim (default: empty).", valueName: "text"))
    var answerBody: String?

    @Option(
        name: .customLong("answer-count"),
        help: ArgumentHelp("Only the first N requests that pass the checks get --answer-status (default: all).", valueName: "n"))
    var answerCount: Int?

    @Option(name: .customLong("retry-after"), help: ArgumentHelp("Add 'retry-after: VALUE' (verbatim) to every answer that is not 200.", valueName: "value"))
    var retryAfter: String?

    @Option(
        name: .customLong("pad-body"),
        help: ArgumentHelp("Append this many spaces to every answer's body, 200s included (at most 16 MiB).", valueName: "bytes"))
    var padBody = 0

    @Option(
        name: .customLong("san"),
        help: ArgumentHelp(
            "Another host name or IP address for the mock's certificate (repeatable). Beyond loopback it names this machine's addresses and host name already.",
            valueName: "name"))
    var extraNames: [String] = []

    @Option(
        name: .customLong("ca-port"),
        help: ArgumentHelp(
            "Serve the CA certificate over plain HTTP at /mock-ca.pem on this port (0 picks one; done on a free port anyway when --host is beyond loopback).",
            valueName: "port"))
    var caPort: Int?

    @Option(
        name: .customLong("web"),
        help: ArgumentHelp(
            "Serve a live web view of the requests on this port, on the same --host (0 picks a free one). \(MockWebView.viewerLimit) viewers at once, \(MockWebView.viewersPerAddress) per address, \(MockWebView.viewersKeptForLoopback) kept for this machine (the projector); a viewer that reads nothing for \(MockWebView.stalledViewerSeconds) s is dropped, and a stream ends every \(MockWebView.streamMinutes) minutes (a browser reconnects at once).",
            valueName: "port"))
    var webPort: Int?

    @Flag(help: "Complete TLS and HTTP/2 set-up and read requests, but never answer and never close.")
    var silent = false

    @Flag(name: .customLong("reset-streams"), help: "Answer every request with RST_STREAM(INTERNAL_ERROR).")
    var resetStreams = false

    // APNs' own limits, and the guards against floods (MockProtocolLimits).

    @Option(
        name: .customLong("token-update-interval"),
        help: ArgumentHelp(
            "Answer 429 TooManyProviderTokenUpdates when a connection changes to a token issued less than this many seconds after its current one (default 1200, as APNs; 0 allows any).",
            valueName: "seconds"))
    var tokenUpdateInterval: Int64 = 20 * 60

    @Option(
        name: .customLong("bad-token-limit"),
        help: ArgumentHelp(
            "After N BadDeviceToken answers on a connection, send GOAWAY ({\"reason\":\"BadDeviceToken\"}) and close it, as APNs drops such connections (default: never).",
            valueName: "n"))
    var badTokenLimit: Int?

    @Option(
        name: .customLong("idle-timeout"),
        help: ArgumentHelp(
            "Answer 400 IdleTimeout to a request whose frames stop this long, and GOAWAY and close a connection idle this long, as APNs closes idle connections (default 300; 0: wait for ever).",
            valueName: "seconds"))
    var idleTimeoutOption: Double?

    /// 300 s unless told otherwise; 0 is never.
    var idleTimeout: Double { idleTimeoutOption ?? Double(MockProtocolLimits.defaultIdleTimeoutMilliseconds / 1000) }

    @Option(
        name: .customLong("reset-limit"),
        help: ArgumentHelp(
            "RST_STREAM frames for unanswered streams within 10 s that end a connection, a rapid-reset flood (default 1000; 0: no limit). Resets of answered streams, as curl sends, never count.",
            valueName: "n"))
    var resetLimit = 1000

    @Option(
        name: .customLong("max-connections"),
        help: ArgumentHelp(
            "Connections open at once; more are closed when accepted (default 4000: about 230 MB when all are open, some 50 KB each).",
            valueName: "n"))
    var maxConnections = MockAPNsConfiguration.defaultConnectionLimit

    @Option(
        name: .customLong("max-connections-per-address"),
        help: ArgumentHelp(
            "Connections open at once from one IP address, so that one laptop cannot take every place; more from it are closed when accepted (default 1000).",
            valueName: "n"))
    var maxConnectionsPerAddress = 1000

    @Option(
        help: ArgumentHelp(
            "The app the notifications are for (its project folder or a built .app): each accepted request is checked against its strings, Live Activity types and capabilities, shown on the web view in its words (env PUSHCTL_APP).",
            valueName: "path"))
    var app: String?

    @Option(help: ArgumentHelp("The app's language for --app's words (default: its development region).", valueName: "locale"))
    var locale: String?
    @OptionGroup var language: LanguageOption

    func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError(Words("--port must be between 0 and 65535; got \(port)", es: "--port debe estar entre 0 y 65535; se recibió \(port)"))
        }
        guard (0...Int(Int32.max)).contains(maxStreams) else {
            throw ValidationError(
                Words(
                    "--max-streams must be between 0 and \(Int32.max); got \(maxStreams)",
                    es: "--max-streams debe estar entre 0 y \(Int32.max); se recibió \(maxStreams)"))
        }
        guard (0...maxStreams).contains(initialStreams) else {
            throw ValidationError(
                Words(
                    "--initial-streams must be between 0 and --max-streams (\(maxStreams)); got \(initialStreams)",
                    es: "--initial-streams debe estar entre 0 y --max-streams (\(maxStreams)); se recibió \(initialStreams)"))
        }
        if let teamID, !AppleIdentifier.isWellFormed(teamID) {
            throw ValidationError(
                Words(
                    "--team-id must be 10 characters, A–Z and 0–9 (for example DEF123GHIJ); got '\(OutsideText.display(teamID))'",
                    es: "--team-id debe tener 10 caracteres, A–Z y 0–9 (por ejemplo DEF123GHIJ); se recibió '\(OutsideText.display(teamID))'"))
        }
        try validateFaults()
        try validateLimits()
        try validateClassroom()
    }

    /// The faults it is asked to play: each well formed, in range, and not contradicting another.
    private func validateFaults() throws {
        for spec in failures {
            do { _ = try MockFaults.parseFailure(spec) } catch { throw ValidationError(Words(verbatim: "--fail: \(error.description)")) }
        }
        for spec in failFirst {
            do { _ = try MockSettings.parseFailFirst(spec) } catch { throw ValidationError(Words(verbatim: "--fail-first: \(error.description)")) }
        }
        for (name, value) in [("--goaway-after", goAwayAfter), ("--close-after", closeAfter), ("--refuse-every", refuseEvery)] {
            if let value, value < 1 {
                throw ValidationError(Words("\(name) must be 1 or more; got \(value)", es: "\(name) debe ser 1 o más; se recibió \(value)"))
            }
        }
        guard (0...MockFaults.delayLimitMilliseconds).contains(delay) else {
            throw ValidationError(
                Words(
                    "--delay must be between 0 and \(MockFaults.delayLimitMilliseconds) milliseconds; got \(delay)",
                    es: "--delay debe estar entre 0 y \(MockFaults.delayLimitMilliseconds) milisegundos; se recibió \(delay)"))
        }
        if let goAwayError {
            guard goAwayAfter != nil else {
                throw ValidationError(
                    Words(
                        "--goaway-error needs --goaway-after, which sends the GOAWAY",
                        es: "--goaway-error necesita --goaway-after, que es el que envía el GOAWAY"))
            }
            guard MockFaults.parseHTTP2ErrorCode(goAwayError) != nil else {
                throw ValidationError(
                    "--goaway-error takes a number (0 to \(UInt32.max)) or one of \(MockFaults.http2ErrorCodes.map(\.name).joined(separator: ", ")); got '\(OutsideText.display(goAwayError))'"
                )
            }
        }
        if let answerStatus, !(100...599).contains(answerStatus) {
            throw ValidationError(
                Words(
                    "--answer-status must be an HTTP status between 100 and 599; got \(answerStatus)",
                    es: "--answer-status debe ser un estado HTTP entre 100 y 599; se recibió \(answerStatus)"))
        }
        if answerStatus == nil, answerBody != nil || answerCount != nil {
            throw ValidationError(
                Words("--answer-body and --answer-count need --answer-status", es: "--answer-body y --answer-count necesitan --answer-status"))
        }
        if let answerCount, answerCount < 1 {
            throw ValidationError(
                Words("--answer-count must be 1 or more; got \(answerCount)", es: "--answer-count debe ser 1 o más; se recibió \(answerCount)"))
        }
        if let retryAfter, !MockFaults.isSendableHeaderValue(retryAfter) {
            throw ValidationError(
                Words(
                    "--retry-after cannot hold NUL, CR or LF (HTTP/2 forbids them in a header value)",
                    es: "--retry-after no puede llevar NUL, CR ni LF (HTTP/2 los prohíbe en el valor de una cabecera)"))
        }
        guard (0...MockFaults.padBodyLimit).contains(padBody) else {
            throw ValidationError(
                Words(
                    "--pad-body must be between 0 and \(MockFaults.padBodyLimit) bytes; got \(padBody)",
                    es: "--pad-body debe estar entre 0 y \(MockFaults.padBodyLimit) bytes; se recibió \(padBody)"))
        }
        if silent && resetStreams {
            throw ValidationError(
                Words(
                    "--silent and --reset-streams exclude each other: one never answers, the other resets",
                    es: "--silent y --reset-streams se excluyen: uno nunca responde y el otro reinicia el stream"))
        }
    }

    private func validateLimits() throws {
        guard (1...Self.logMaxSizeCeiling).contains(logMaxSize) else {
            throw ValidationError(
                Words(
                    "--log-max-size must be between 1 and \(Self.logMaxSizeCeiling) MiB; got \(logMaxSize)",
                    es: "--log-max-size debe estar entre 1 y \(Self.logMaxSizeCeiling) MiB; se recibió \(logMaxSize)"))
        }
        guard tokenUpdateInterval >= 0 else {
            throw ValidationError(
                Words(
                    "--token-update-interval must be 0 or more seconds; got \(tokenUpdateInterval)",
                    es: "--token-update-interval debe ser 0 o más segundos; se recibió \(tokenUpdateInterval)"))
        }
        if let badTokenLimit, badTokenLimit < 1 {
            throw ValidationError(
                Words("--bad-token-limit must be 1 or more; got \(badTokenLimit)", es: "--bad-token-limit debe ser 1 o más; se recibió \(badTokenLimit)"))
        }
        if idleTimeout != 0, !(0.001...86_400).contains(idleTimeout) {
            throw ValidationError(
                Words(
                    "--idle-timeout must be 0 (never) or between 0.001 and 86400 seconds; got \(idleTimeout)",
                    es: "--idle-timeout debe ser 0 (nunca) o estar entre 0.001 y 86400 segundos; se recibió \(idleTimeout)"))
        }
        guard resetLimit >= 0 else {
            throw ValidationError(Words("--reset-limit must be 0 or more; got \(resetLimit)", es: "--reset-limit debe ser 0 o más; se recibió \(resetLimit)"))
        }
        guard maxConnections >= 1 else {
            throw ValidationError(
                Words("--max-connections must be 1 or more; got \(maxConnections)", es: "--max-connections debe ser 1 o más; se recibió \(maxConnections)"))
        }
        guard maxConnectionsPerAddress >= 1 else {
            throw ValidationError(
                Words(
                    "--max-connections-per-address must be 1 or more; got \(maxConnectionsPerAddress)",
                    es: "--max-connections-per-address debe ser 1 o más; se recibió \(maxConnectionsPerAddress)"))
        }
    }

    func run() throws {
        try waitFor { try await self.serve() }
    }

    /// The flags as the mock's settings.
    private var settings: MockSettings {
        var settings = MockSettings()
        settings.host = host
        settings.port = port
        settings.keyFiles = keyFiles
        settings.keyDirectory = keyDir
        settings.teamID = teamID
        settings.caOut = caOut
        settings.logPath = log
        settings.logMaxSizeMiB = logMaxSize
        settings.clientCAPaths = clientCAs
        settings.channelLimit = channelLimit
        settings.environment = environment
        settings.maxStreams = maxStreams
        settings.initialStreams = initialStreams
        settings.failures = failures
        settings.failFirst = failFirst
        settings.goAwayAfter = goAwayAfter
        settings.closeAfter = closeAfter
        settings.refuseEvery = refuseEvery
        settings.delayMilliseconds = delay
        settings.goAwayError = goAwayError
        settings.goAwayInstead = goAwayInstead
        settings.answerStatus = answerStatus
        settings.answerBody = answerBody
        settings.answerCount = answerCount
        settings.retryAfter = retryAfter
        settings.padBody = padBody
        settings.silent = silent
        settings.resetStreams = resetStreams
        settings.extraNames = extraNames
        settings.caPort = caPort
        settings.webPort = webPort
        settings.tokenUpdateIntervalSeconds = tokenUpdateInterval
        settings.badTokenLimit = badTokenLimit
        settings.idleTimeoutSeconds = idleTimeout
        settings.resetLimit = resetLimit
        settings.maxConnections = maxConnections
        settings.maxConnectionsPerAddress = maxConnectionsPerAddress
        settings.appPath = app ?? Console.environment["PUSHCTL_APP"].flatMap { $0.isEmpty ? nil : $0 }
        settings.locale = locale
        settings.language = LanguageSetting.language
        settings.naming = FlagNames.naming
        return settings
    }

    private static let reporters: MockReporters = {
        var reporters = MockReporters(
            tokenRefused: reportRefusedToken, addressAtLimit: reportAddressAtLimit, warning: reportWarning, liveActivityProblem: LiveActivityWarnings.print)
        reporters.phoneFindings = reportPhoneFindings
        return reporters
    }()

    /// What the phone will do with an accepted request, one line each (at most five a request).
    @Sendable private static func reportPhoneFindings(_ path: String, _ findings: [AppFinding]) {
        let shown = OutsideText.display(path, limit: 120)
        for finding in findings.prefix(5) {
            Console.err(TextLayout.wrapped("\(shown): \(finding.text.description)", width: Console.width(of: STDERR_FILENO), hangingIndent: 2))
        }
    }

    private func serve() async throws {
        let session: MockSession
        do {
            session = try await MockSession.start(settings, reporters: Self.reporters)
        } catch let error as InputError {
            throw fail(error)
        }
        let signals = TerminationSignals()
        // Unbuffered, so a script reading a pipe sees the URL at once.
        Console.out(BannerLayout.fitted(session.banner, width: Console.width(of: Descriptors.standardOutput)))

        let signal = await signals.next()
        let stopping = Words("pushctl mock: \(signal), stopping", es: "pushctl mock: \(Self.spanish(signal)), parando")
        Console.out(stopping.description)
        try await session.stop()
    }

    /// Prints what a device would drop, as a warning on the mock's console (the first 100; the
    /// log has them all).
    enum LiveActivityWarnings {
        static let printed = Mutex(0)

        @Sendable static func print(_ line: String) {
            let count = printed.withLock { value -> Int in
                value += 1
                return value
            }
            guard count <= 101 else { return }
            let warning = Words("pushctl mock: warning: ", es: "pushctl mock: aviso: ").description
            let text =
                count == 101
                ? warning
                    + Words(
                        "more Live Activities a device would drop; see the log (--log)",
                        es: "más Live Activities que un dispositivo descartaría; míralas en el registro (--log)"
                    ).description + "\n"
                : warning + "\(OutsideText.display(line, limit: 600))\n"
            Console.writeOut(Array(text.utf8))
        }
    }

    /// A refused provider token on the console, once per token: which check failed.
    @Sendable private static func reportRefusedToken(_ reason: RejectionReason, _ detail: String) {
        let refused = Words("pushctl mock: provider token refused, ", es: "pushctl mock: token del proveedor rechazado, ").description
        // The detail quotes the client's token (its kid, its iss): shown as outside text.
        Console.err("\(refused)\(reason.status) \(reason.apnsName): \(OutsideText.display(detail, limit: 400))")
    }

    /// One address holds as many connections as it may: said once, until they have all gone.
    @Sendable private static func reportAddressAtLimit(_ address: String, _ limit: Int) {
        let shown = OutsideText.display(address, limit: 60)
        let words = Words(
            "pushctl mock: \(shown) has \(limit) connections open; more from it are closed as they arrive (--max-connections-per-address)",
            es: "pushctl mock: \(shown) tiene \(limit) conexiones abiertas; las demás que abra se cierran al llegar (--max-connections-per-address)")
        Console.err(TextLayout.wrapped(words.description, width: Console.width(of: STDERR_FILENO), hangingIndent: 2))
    }

    /// 1 TiB: a size no classroom disk reaches, and no overflow in bytes.
    static let logMaxSizeCeiling = 1 << 20

    @Sendable private static func reportWarning(_ problem: MockWarning) {
        let warning = Words("pushctl mock: warning: ", es: "pushctl mock: aviso: ")
        Console.err(TextLayout.wrapped((warning + problem.words).description, width: Console.width(of: Descriptors.standardError), hangingIndent: 2))
    }

    /// The signal's name as the console says it in Spanish.
    static func spanish(_ signal: String) -> String {
        ["interrupted": "interrumpido", "terminated": "terminado", "hung up": "colgado"][signal] ?? signal
    }

    private func fail(_ error: InputError) -> ExitCode {
        Console.err(TextLayout.wrapped("pushctl mock: error: \(error.description)", width: Console.width(of: Descriptors.standardError), hangingIndent: 2))
        return ExitCode(ExitStatus(error.kind).rawValue)
    }
}

/// SIGINT, SIGTERM and SIGHUP, caught from the moment it is made so that a stop request is never
/// lost: the handlers are installed with sigaction before `init` returns (a dispatch signal source
/// registers later, on its own queue, and a signal sent right after the banner could be ignored).
private final class TerminationSignals: @unchecked Sendable {
    private let stop = SignalStop()

    /// Waits for the first signal and names it ("interrupted", "terminated", "hung up"); waiting
    /// wakes on the handler's pipe, and once a second whatever happens, so it costs no CPU.
    func next() async -> String {
        guard let stop else {
            // No pipe for the handlers: the signals keep their default action, which ends the process.
            for which in [Signal.interrupt, .terminate, .hangUp] { Signals.restoreDefault(which) }
            while true { try? await Task.sleep(for: .seconds(3600)) }
        }
        return await withCheckedContinuation { continuation in
            Thread {
                while true {
                    if let request = stop.stopRequest {
                        let name =
                            switch request.name {
                            case "SIGINT": "interrupted"
                            case "SIGHUP": "hung up"
                            default: "terminated"
                            }
                        continuation.resume(returning: name)
                        return
                    }
                    _ = Polling.wait(for: stop.wakeDescriptor, .readable, milliseconds: 1000)
                }
            }.start()
        }
    }
}

extension MockCommand {
    func validateClassroom() throws {
        for (name, value) in [("--ca-port", caPort), ("--web", webPort)] {
            if let value, !(0...65535).contains(value) {
                throw ValidationError(Words("\(name) must be between 0 and 65535; got \(value)", es: "\(name) debe estar entre 0 y 65535; se recibió \(value)"))
            }
        }
        let fixed = [("--port", Optional(port)), ("--ca-port", caPort), ("--web", webPort)].compactMap { name, value in
            value.flatMap { $0 == 0 ? nil : (name, $0) }
        }
        for (index, (name, value)) in fixed.enumerated() {
            if let other = fixed[..<index].first(where: { $0.1 == value }) {
                throw ValidationError(
                    Words(
                        "\(other.0) and \(name) are both \(value): each server needs a port of its own (0 picks a free one)",
                        es: "\(other.0) y \(name) son los dos \(value): cada servidor necesita su propio puerto (0 elige uno libre)"))
            }
        }
        for name in extraNames {
            do { try MockNetwork.checkCertificateName(name) } catch { throw ValidationError(Words(verbatim: "--san: \(error.description)")) }
        }
    }
}
