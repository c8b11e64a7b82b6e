public import ArgumentParser
import Dispatch
import Foundation
import PushCore
import PushEngine
import PushFiles
import PushMock
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
        name: .customLong("max-connections"), help: ArgumentHelp("Connections open at once; more are closed when accepted (default 10000).", valueName: "n"))
    var maxConnections = 10_000

    @Option(
        name: .customLong("max-connections-per-address"),
        help: ArgumentHelp(
            "Connections open at once from one IP address, so that one laptop cannot take every place; more from it are closed when accepted (default 1000).",
            valueName: "n"))
    var maxConnectionsPerAddress = 1000
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
            do { _ = try Self.parseFailFirst(spec) } catch { throw ValidationError(Words(verbatim: "--fail-first: \(error.description)")) }
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

    private var limits: MockProtocolLimits {
        MockProtocolLimits(
            tokenUpdateIntervalSeconds: tokenUpdateInterval == 0 ? nil : tokenUpdateInterval,
            badDeviceTokenLimit: badTokenLimit,
            idleTimeoutMilliseconds: idleTimeout == 0 ? nil : max(1, Int((idleTimeout * 1000).rounded())),
            streamResetLimit: resetLimit)
    }

    /// The banner's lines for the limits that differ from APNs' defaults.
    private var limitLines: [String] {
        var lines: [String] = []
        if tokenUpdateInterval != 20 * 60 {
            lines.append(
                tokenUpdateInterval == 0
                    ? Words(
                        "  limit: tokens may change any time (no TooManyProviderTokenUpdates)",
                        es: "  límite: los tokens pueden cambiar en cualquier momento (sin TooManyProviderTokenUpdates)"
                    ).description
                    : Words(
                        "  limit: a token may change every \(tokenUpdateInterval) s on a connection",
                        es: "  límite: un token puede cambiar cada \(tokenUpdateInterval) s en una conexión"
                    ).description)
        }
        if let badTokenLimit {
            lines.append(
                Words(
                    "  limit: GOAWAY after \(badTokenLimit) BadDeviceToken answers on a connection",
                    es: "  límite: GOAWAY tras \(badTokenLimit) respuestas BadDeviceToken en una conexión"
                ).description)
        }
        if idleTimeout == 0 {
            lines.append(Words("  limit: idle connections are never closed", es: "  límite: las conexiones inactivas no se cierran nunca").description)
        } else if idleTimeout * 1000 != Double(MockProtocolLimits.defaultIdleTimeoutMilliseconds) {
            lines.append(
                Words(
                    "  limit: 400 IdleTimeout after \(idleTimeout) s without a frame; idle connections closed",
                    es: "  límite: 400 IdleTimeout tras \(idleTimeout) s sin ningún frame; las conexiones inactivas se cierran"
                ).description)
        }
        if maxConnectionsPerAddress != 1000 {
            lines.append(
                Words(
                    "  limit: \(maxConnectionsPerAddress) connections at once from one address",
                    es: "  límite: \(maxConnectionsPerAddress) conexiones a la vez desde una dirección"
                ).description)
        }
        return lines
    }

    /// `TOKEN=N:REASON`
    static func parseFailFirst(_ spec: String) throws(InputError) -> (DeviceToken, MockFaults.FailFirst) {
        let parts = spec.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let equals = parts[0].firstIndex(of: "="), let n = Int(parts[0][parts[0].index(after: equals)...]), n >= 1 else {
            throw InputError(
                Words(
                    "takes TOKEN=N:REASON, e.g. 00fc13ad…=2:ServiceUnavailable; got '\(OutsideText.display(spec))'",
                    es: "recibe TOKEN=N:MOTIVO, p. ej. 00fc13ad…=2:ServiceUnavailable; se recibió '\(OutsideText.display(spec))'"), kind: .usage)
        }
        let (token, reason) = try MockFaults.parseFailure(String(parts[0][..<equals]) + "=" + parts[1])
        return (token, MockFaults.FailFirst(attempts: n, reason: reason))
    }

    func run() throws {
        try waitFor { try await self.serve() }
    }

    /// The flags read and checked: the faults, the keys, the client CAs and the environment played.
    private func settings() throws(InputError) -> (MockFaults, [MockProviderKey], [String], APNsEnvironment) {
        var faults = MockFaults()
        var keys: [MockProviderKey] = []
        var clientCAPEMs: [String] = []
        for spec in failures {
            let (token, reason) = try MockFaults.parseFailure(spec)
            faults.failTokens[token] = reason
        }
        for spec in failFirst {
            let (token, rule) = try Self.parseFailFirst(spec)
            faults.failFirstAttempts[token] = rule
        }
        faults.goAwayAfterRequests = goAwayAfter
        faults.closeAfterRequests = closeAfter
        faults.refuseEveryNthStream = refuseEvery
        faults.responseDelayMilliseconds = delay
        faults.goAwayErrorCode = goAwayError.flatMap(MockFaults.parseHTTP2ErrorCode) ?? 0
        if let goAwayInstead {
            faults.goAwayInstead = try MockFaults.parseReason(goAwayInstead)
        }
        faults.answer = answerStatus.map { MockFaults.Answer(status: $0, body: Array((answerBody ?? "").utf8)) }
        faults.answerCount = answerCount
        faults.retryAfter = retryAfter
        faults.padBodyBytes = padBody
        faults.silent = silent
        faults.resetStreams = resetStreams
        for spec in keyFiles { keys.append(try MockProviderKey.load(spec: spec)) }
        if let keyDir {
            guard FileOutput.isDirectory(keyDir) else {
                throw InputError(
                    Words("--key-dir '\(OutsideText.display(keyDir))' is not a folder", es: "--key-dir '\(OutsideText.display(keyDir))' no es una carpeta"),
                    hint: Words("make it first (mkdir), then give its path", es: "créala primero (mkdir) y luego indica su ruta"), kind: .missingInput)
            }
        }
        for path in clientCAs { clientCAPEMs.append(try Self.readClientCA(path)) }
        return (faults, keys, clientCAPEMs, environment)
    }

    private func serve() async throws {
        let faults: MockFaults
        let keys: [MockProviderKey]
        let clientCAPEMs: [String]
        let playedEnvironment: APNsEnvironment
        do throws(InputError) {
            (faults, keys, clientCAPEMs, playedEnvironment) = try settings()
        } catch {
            throw fail(error)
        }

        // Beyond loopback, the certificate names every address of this machine and its name.
        let certificateNames = MockNetwork.certificateNames(listeningOn: host, extra: extraNames)
        let web = webPort.map { _ in MockWebView(language: LanguageSetting.language) }
        let server: MockAPNsServer
        do {
            var configuration = MockAPNsConfiguration(
                host: host, port: port, providerKeys: keys, teamID: teamID,
                maxConcurrentStreams: maxStreams, initialConcurrentStreams: initialStreams, logPath: log, faults: faults, recordLimit: 0,
                limits: limits, connectionLimit: maxConnections, onTokenRefused: Self.reportRefusedToken)
            configuration.language = LanguageSetting.language
            configuration.connectionsPerAddressLimit = maxConnectionsPerAddress
            configuration.onAddressAtLimit = Self.reportAddressAtLimit
            configuration.clientCAPEMs = clientCAPEMs
            configuration.keyDirectory = keyDir
            configuration.onKeyFolderProblem = Self.reportWarning
            configuration.logSizeLimit = Int64(logMaxSize) << 20
            configuration.onLogProblem = Self.reportWarning
            configuration.environment = playedEnvironment
            configuration.channelLimit = max(0, min(channelLimit, 1_000_000))
            configuration.onLiveActivityProblem = LiveActivityWarnings.print
            configuration.certificateNames = certificateNames
            if let web { configuration.onRecord = web.publish }
            server = try await MockAPNsServer.start(configuration)
        } catch let error as InputError {
            await web?.shutdown()
            throw fail(error)
        }
        let classroom: Classroom
        do {
            classroom = try await startClassroom(server: server, web: web, certificateNames: certificateNames)
        } catch let error as InputError {
            await web?.shutdown()
            try? await server.shutdown()
            throw fail(error)
        }

        let (caPath, caFolder): (String, String?)
        do throws(InputError) {
            (caPath, caFolder) = try writeCACertificate(server.caCertificatePEM, port: server.port)
        } catch {
            await classroom.shutdown()
            try? await server.shutdown()
            throw fail(error)
        }

        let signals = TerminationSignals()
        // Unbuffered, so a script reading a pipe sees the URL at once.
        let banner = startUpText(server: server, caPath: caPath, keys: keys, faults: faults, classroom: classroom)
        Console.out(Self.fitted(banner, width: Console.width(of: Descriptors.standardOutput)))

        let signal = await signals.next()
        let stopping = Words("pushctl mock: \(signal), stopping", es: "pushctl mock: \(Self.spanish(signal)), parando")
        Console.out(stopping.description)
        await classroom.shutdown()
        try await server.shutdown()
        if let caFolder {
            FileSystem.remove(caPath)
            FileSystem.removeDirectory(caFolder)
        }
    }

    /// Writes the CA certificate to --ca-out (a symbolic link there refused), else into a private
    /// folder made for this run (``privateFolder(port:)``); its path. Written whole to a new file
    /// renamed into place: nothing is opened through a link, even one planted meanwhile. Its
    /// path, and the folder made for it (removed at the end) when there was no --ca-out.
    private func writeCACertificate(_ pem: String, port: Int) throws(InputError) -> (path: String, folder: String?) {
        let what = Words("the CA certificate", es: "el certificado de la CA")
        if let caOut { try MockOutputFiles.refuseSymbolicLink(caOut, what: what) }
        let folder = caOut == nil ? try Self.privateFolder(port: port) : nil
        let path = caOut ?? (folder ?? "") + "/mock-ca.pem"
        do { try ReplacedFile.write(Array(pem.utf8), to: path, mode: 0o644, what: what) } catch {
            if let folder { FileSystem.removeDirectory(folder) }
            throw error
        }
        return (path, folder)
    }

    /// A new folder only this user can enter (mkdtemp, 0700), `pushctl-mock-PORT-XXXXXX`: in
    /// $XDG_RUNTIME_DIR when it is this user's and private, else in TMPDIR (/tmp). A name anyone
    /// can predict in a shared folder could already be a link to another file.
    static func privateFolder(port: Int) throws(InputError) -> String {
        let base = ProcessEnvironment.value("XDG_RUNTIME_DIR").flatMap { isPrivateFolder($0) ? $0 : nil } ?? FileManager.default.temporaryDirectory.path
        let prefix = (base.hasSuffix("/") ? base : base + "/") + "pushctl-mock-\(port)-"
        guard let folder = FileSystem.makeTemporaryFolder(pathPrefix: prefix) else {
            let reason = SystemError.reason(Errno.current)
            let shown = OutsideText.display(base, limit: 200)
            throw InputError(
                Words(
                    "cannot make a private folder for the CA certificate in '\(shown)': \(reason.en)",
                    es: "no se puede crear una carpeta privada para el certificado de la CA en '\(shown)': \(reason.es)"),
                hint: Words(
                    "give --ca-out PATH, or set TMPDIR to a folder you can write",
                    es: "indica --ca-out RUTA, o define TMPDIR como una carpeta en la que puedas escribir"),
                kind: .cannotCreateOutput)
        }
        return folder
    }

    /// A folder (not a link to one) owned by this user, which nobody else may enter or write.
    static func isPrivateFolder(_ path: String) -> Bool {
        guard path.hasPrefix("/"), let status = FileSystem.linkStatus(path) else { return false }
        return status.kind == .directory && status.owner == CurrentProcess.effectiveUser && status.permissions & 0o077 == 0
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

    /// A CA certificate file for --client-ca: PEM, at most 1 MB, read as pushctl reads its files.
    static func readClientCA(_ path: String) throws(InputError) -> String {
        let text = String(decoding: try InputFiles.read(path, what: .caCertificateFile), as: UTF8.self)
        guard text.contains("-----BEGIN CERTIFICATE-----") else {
            throw InputError(
                Words(
                    "the --client-ca file '\(OutsideText.display(path))' holds no PEM certificate",
                    es: "el archivo de --client-ca '\(OutsideText.display(path))' no contiene ningún certificado PEM"),
                hint: Words(
                    "give the CA's certificate as PEM, e.g. the pushctl-test-ca.pem of `pushctl cert generate`",
                    es: "da el certificado de la CA en PEM, p. ej. el pushctl-test-ca.pem de `pushctl cert generate`"))
        }
        return text
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

    @Sendable private static func reportWarning(_ problem: Words) {
        let warning = Words("pushctl mock: warning: ", es: "pushctl mock: aviso: ")
        Console.err(TextLayout.wrapped((warning + problem).description, width: Console.width(of: Descriptors.standardError), hangingIndent: 2))
    }

    /// The signal's name as the console says it in Spanish.
    static func spanish(_ signal: String) -> String {
        ["interrupted": "interrumpido", "terminated": "terminado", "hung up": "colgado"][signal] ?? signal
    }

    private func fail(_ error: InputError) -> ExitCode {
        Console.err(TextLayout.wrapped("pushctl mock: error: \(error.description)", width: Console.width(of: Descriptors.standardError), hangingIndent: 2))
        return ExitCode(ExitStatus(error.kind).rawValue)
    }

    /// On a terminal (or with COLUMNS) the banner fits the width, as a projector shows it: prose
    /// wraps at word boundaries; a command breaks between its arguments with a backslash, so that
    /// it still pastes as one command, and its comment goes on the line above.
    static func fitted(_ text: String, width: Int?) -> String {
        // At least 20 columns, as TextLayout.wrap: COLUMNS=1 must not leave pieces of nothing.
        guard let width = width.map({ max(20, $0) }) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
            let line = String(line)
            guard TextLayout.columns(line) > width else { return [line] }
            if line.hasPrefix("  pushctl ") || line.hasPrefix("  cp ") { return commandLines(line, width: width) }
            // "label: curl …": the command on a line of its own, whole.
            if let colon = line.range(of: ": curl ") {
                let label = String(line[..<colon.lowerBound]) + ":"
                return TextLayout.wrap(label, width: width, hangingIndent: 2)
                    + commandLines("    " + line[line.index(colon.lowerBound, offsetBy: 2)...], width: width)
            }
            // A fingerprint: broken after a colon, half on each line.
            if line.hasPrefix("    "), line.dropFirst(4).allSatisfy({ $0.isHexDigit || $0 == ":" }) {
                let pairs = line.dropFirst(4).split(separator: ":")
                let half = pairs.count / 2
                return ["    " + pairs[..<half].joined(separator: ":") + ":", "    " + pairs[half...].joined(separator: ":")]
            }
            return TextLayout.wrap(line, width: width, hangingIndent: 2)
        }.joined(separator: "\n")
    }

    static func commandLines(_ line: String, width: Int) -> [String] {
        let width = max(20, width)
        var command = Substring(line)
        var out: [String] = []
        if let comment = line.range(of: "   # ") {
            command = line[..<comment.lowerBound]
            out = TextLayout.wrap("  # " + line[comment.upperBound...], width: width, hangingIndent: 2)
        }
        // A flag stays with its value.
        let words = command.split(separator: " ").map(String.init)
        var groups: [String] = []
        var index = 0
        while index < words.count {
            if words[index].hasPrefix("--"), index + 1 < words.count, !words[index + 1].hasPrefix("--") {
                groups.append(words[index] + " " + words[index + 1])
                index += 2
            } else {
                groups.append(words[index])
                index += 1
            }
        }
        // A group too wide for a continuation line goes as flag and value apart.
        let lead = String(command.prefix { $0 == " " })
        let indent = lead + "    "
        groups = groups.flatMap { group -> [String] in
            guard indent.count + group.count + 2 > width, let space = group.firstIndex(of: " ") else { return [group] }
            return [String(group[..<space]), String(group[group.index(after: space)...])]
        }
        var current = ""
        for group in groups {
            if current.isEmpty {
                current = lead + group
            } else if current.count + 1 + group.count + 2 <= width {
                current += " " + group
            } else if indent.count + group.count + 2 <= width {
                out.append(current + " \\")
                current = indent + group
            } else {
                // Wider than any line (a device token on a narrow screen): broken inside the word
                // with backslash-newline, which the shell removes, the pieces from column 0.
                out.append(current + " \\")
                var rest = Substring(group)
                while rest.count + 2 > width {
                    out.append(rest.prefix(width - 1) + "\\")
                    rest = rest.dropFirst(width - 1)
                }
                current = String(rest)
            }
        }
        out.append(current)
        return out
    }

    private func startUpText(server: MockAPNsServer, caPath: String, keys: [MockProviderKey], faults: MockFaults, classroom: Classroom) -> String {
        var lines = [
            Words(
                "pushctl mock listening on \(classroom.endpoint) (HTTP/2 over TLS, ALPN h2)",
                es: "pushctl mock escuchando en \(classroom.endpoint) (HTTP/2 sobre TLS, ALPN h2)"
            ).description
        ]
        let team =
            teamID.map { Words("; iss must be \($0)", es: "; iss debe ser \($0)").description } ?? Words("; any team", es: "; cualquier equipo").description
        if let keyDir {
            let ids = keys.map(\.keyID).joined(separator: ", ")
            let named = keys.isEmpty ? "" : Words(", and key \(ids)", es: ", y la clave \(ids)").description
            lines.append(
                Words(
                    "  provider tokens: ES256 signatures checked with the keys in \(keyDir) (KEYID.pem, each student's public half, read as they arrive)\(named)\(team)",
                    es:
                        "  tokens del proveedor: firmas ES256 comprobadas con las claves de \(keyDir) (KEYID.pem, la mitad pública de cada alumno, leídas según llegan)\(named)\(team)"
                ).description)
        } else if keys.isEmpty {
            lines.append(
                Words(
                    "  provider tokens: shape only (no --key-file): ES256 header, kid, iss, iat are checked, signatures are NOT\(team)",
                    es: "  tokens del proveedor: solo la forma (sin --key-file): se comprueban la cabecera ES256, kid, iss e iat; las firmas NO\(team)"
                ).description)
        } else {
            let ids = keys.map(\.keyID).joined(separator: ", ")
            lines.append(
                Words(
                    "  provider tokens: ES256 signatures (raw or DER) checked with key \(ids)\(team)",
                    es: "  tokens del proveedor: firmas ES256 (raw o DER) comprobadas con la clave \(ids)\(team)"
                ).description)
        }
        lines.append(Words("  CA certificate: \(caPath)", es: "  certificado de la CA: \(caPath)").description)
        lines += classroom.lines(caPEM: server.caCertificatePEM)
        let otherCAs = clientCAs.joined(separator: ", ")
        lines.append(
            clientCAs.isEmpty
                ? Words(
                    "  client certificates: accepted when signed by the mock's CA; environment \(environment.rawValue)",
                    es: "  certificados de cliente: aceptados si los firma la CA del mock; entorno \(environment.rawValue)"
                ).description
                : Words(
                    "  client certificates: accepted when signed by the mock's CA or \(otherCAs); environment \(environment.rawValue)",
                    es: "  certificados de cliente: aceptados si los firma la CA del mock o \(otherCAs); entorno \(environment.rawValue)"
                ).description)
        lines.append(
            Words(
                "  streams: \(initialStreams) per connection until a request with a valid token, then \(maxStreams)",
                es: "  streams: \(initialStreams) por conexión hasta una petición con un token válido, después \(maxStreams)"
            ).description)
        lines += Self.faultLines(faults)
        lines += limitLines
        if let log {
            let shown = OutsideText.display(log, limit: 200)
            lines.append(
                Words(
                    "  log: \(shown) (one JSON line per request; at \(logMaxSize) MiB it becomes \(shown).1)",
                    es: "  registro: \(shown) (una línea JSON por petición; al llegar a \(logMaxSize) MiB pasa a \(shown).1)"
                ).description)
        }

        lines += sendLines(classroom: classroom, caPath: caPath)
        lines.append(Words("Ctrl-C stops it.", es: "Ctrl-C lo detiene.").description)
        return lines.joined(separator: "\n")
    }

    /// A line for each fault the mock plays.
    private static func faultLines(_ faults: MockFaults) -> [String] {
        var lines: [String] = []
        for (token, reason) in faults.failTokens.sorted(by: { $0.key.hex < $1.key.hex }) {
            lines.append("  fault: \(token.short) answers \(reason.status) \(reason.apnsName)")
        }
        for (token, rule) in faults.failFirstAttempts.sorted(by: { $0.key.hex < $1.key.hex }) {
            lines.append("  fault: \(token.short) answers \(rule.reason.status) \(rule.reason.apnsName) to its first \(rule.attempts) request(s)")
        }
        if let n = faults.goAwayAfterRequests { lines.append("  fault: GOAWAY after \(n) requests on each connection") }
        if let n = faults.closeAfterRequests { lines.append("  fault: connections dropped after \(n) requests") }
        if let n = faults.refuseEveryNthStream { lines.append("  fault: every \(n)th stream refused (REFUSED_STREAM)") }
        if faults.goAwayErrorCode != 0 { lines.append("  fault: the GOAWAY carries error \(MockFaults.describeHTTP2ErrorCode(faults.goAwayErrorCode))") }
        if faults.responseDelayMilliseconds > 0 { lines.append("  fault: answers delayed \(faults.responseDelayMilliseconds) ms") }
        if let answer = faults.answer {
            let scope = faults.answerCount.map { "the first \($0) request(s) that pass the checks" } ?? "every request that passes the checks"
            lines.append("  fault: \(scope) answered \(answer.status) with a \(answer.body.count)-byte body (no apns-id)")
        }
        if let value = faults.retryAfter { lines.append("  fault: retry-after: \(value) on every answer that is not 200") }
        if faults.padBodyBytes > 0 { lines.append("  fault: every answer's body padded with \(faults.padBodyBytes) spaces") }
        if faults.silent { lines.append("  fault: silent: requests are read, never answered; connections never closed") }
        if faults.resetStreams { lines.append("  fault: every request reset with RST_STREAM(INTERNAL_ERROR)") }
        if let reason = faults.goAwayInstead {
            lines.append("  fault: no answers: GOAWAY {\"reason\":\"\(reason.apnsName)\"} on each connection's first request")
        }
        return lines
    }

    /// How to send to it: the key to make (a class folder, or any key for a shape-only mock) and
    /// the send command, pasteable as printed.
    private func sendLines(classroom: Classroom, caPath: String) -> [String] {
        var lines: [String] = []
        var send = ["pushctl send --endpoint \(classroom.endpoint) --cacert \(classroom.caFile == nil ? caPath : "mock-ca.pem")"]
        if let key = keyFiles.first {
            if let equals = key.firstIndex(of: "="), AppleIdentifier.isWellFormed(String(key[..<equals])) {
                send.append("--key-file \(key[key.index(after: equals)...]) --key-id \(key[..<equals])")
            } else {
                send.append("--key-file \(key)")
            }
        } else {
            // Pasteable as printed: any key will do, since this mock checks only the token's shape.
            send.append("--key-file AuthKey_ABC123DEFG.p8")
        }
        send.append("--team-id \(teamID ?? "DEF123GHIJ") --topic com.example.app")
        send.append("--device-token \(String(repeating: "0123456789abcdef", count: 4)) --title Hello")
        lines.append(
            classroom.caFile == nil
                ? Words("Send to it with:", es: "Envíale notificaciones con:").description
                : Words(
                    "Send to it (from any machine, with the mock-ca.pem curl fetched):",
                    es: "Envíale notificaciones (desde cualquier máquina, con el mock-ca.pem que descargó curl):"
                ).description)
        if let keyDir {
            lines.append(
                Words(
                    "  pushctl key generate --key-id ABC123DEFG   # your own key; the .p8 stays with you",
                    es: "  pushctl key generate --key-id ABC123DEFG   # tu propia clave; el .p8 se queda contigo"
                ).description)
            lines.append(
                Words(
                    "  cp ABC123DEFG.pem \(keyDir)/   # the public half, for the mock (or hand it to the teacher)",
                    es: "  cp ABC123DEFG.pem \(keyDir)/   # la mitad pública, para el mock (o dásela al profesor)"
                ).description)
        } else if keyFiles.isEmpty {
            lines.append(
                Words(
                    "  pushctl key generate --key-id ABC123DEFG   # any key: this mock checks only the token's shape",
                    es: "  pushctl key generate --key-id ABC123DEFG   # cualquier clave: este mock solo comprueba la forma del token"
                ).description)
        }
        lines.append("  " + send.joined(separator: " "))
        return lines
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
