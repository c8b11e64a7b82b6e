import ArgumentParser
import PushCore
import PushEngine
import PushSystem
import PushWords
import PushctlCommandLine

enum DoctorOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// `pushctl doctor`: why sending fails on this machine or this network. Each check says what it
/// found and, when it fails, what to do; every connection goes through libcurl, as `send`'s do.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check this machine for sending: key, clock, DNS, TCP, TLS, HTTP/2, proxy.",
        usage: """
            pushctl doctor [--key-file <path> --team-id <id>] [--output text|json]
            pushctl doctor --endpoint <url> [--cacert <path>] [--proxy <url>]
            pushctl doctor [auth] --topic <bundle-id> --device-token <hex>
            """,
        discussion: """
            Checks libcurl, the key and its ids, the clock against the server's date,
            the proxy, and DNS, TCP, TLS (the certificate chain) and HTTP/2 to
            api.sandbox.push.apple.com and api.push.apple.com on ports 443 and 2197 —
            or only to --endpoint. --device-token sends a real test notification and
            says which environment took it. Each check is at most --timeout seconds.
            Exits 0 when no check failed (skipped ones do not count), 1 otherwise.

            Examples:
              pushctl doctor --key-file AuthKey_ABC123DEFG.p8 --team-id DEF123GHIJ
              pushctl doctor --output json
              pushctl doctor --topic com.example.app --device-token "$TOKEN"
              pushctl doctor --endpoint https://127.0.0.1:8443 --cacert mock-ca.pem
            """
    )

    @OptionGroup(title: "Authentication") var auth: AuthOptions
    @OptionGroup(title: "Certificate authentication (instead of a key)") var certificate: CertificateOptions

    @Option(help: ArgumentHelp("Check only this https URL (e.g. pushctl mock's) (env PUSHCTL_ENDPOINT).", valueName: "url"))
    var endpoint: String?
    @Option(
        help: ArgumentHelp("Also trust this CA certificate (PEM) (env PUSHCTL_CACERT).", valueName: "path"),
        completion: .file(extensions: ["pem", "crt"]))
    var cacert: String?
    @Option(help: ArgumentHelp("Connect through this proxy, as send does (env PUSHCTL_PROXY; else https_proxy).", valueName: "url"))
    var proxy: String?
    @Option(help: ArgumentHelp("The proxy's user:password, read from this file.", valueName: "path"), completion: .file())
    var proxyUserFile: String?
    @Option(name: .customLong("device-token"), help: ArgumentHelp("Send a real test notification (an alert) to this device.", valueName: "hex"))
    var deviceToken: String?
    @Option(help: ArgumentHelp("The bundle id for the test notification (env PUSHCTL_TOPIC).", valueName: "bundle-id"))
    var topic: String?
    @Option(help: ArgumentHelp("Seconds each check may take.", valueName: "seconds"))
    var timeout: Double = 5
    @Option(help: "text (a line per check) or json (one document).")
    var output: DoctorOutputFormat = .text
    @OptionGroup var language: LanguageOption

    func validate() throws {
        if !(timeout > 0 && timeout <= 60) {
            throw ValidationError(
                Words(
                    "--timeout must be more than 0 and at most 60 seconds; got \(timeout)",
                    es: "--timeout debe ser mayor que 0 y como mucho 60 segundos; se recibió \(timeout)"))
        }
        let env = Console.environment
        let certificateGiven = certificate.cert != nil || env["PUSHCTL_CERT"].nonEmpty != nil
        if deviceToken != nil && (topic ?? env["PUSHCTL_TOPIC"].nonEmpty) == nil && !certificateGiven {
            throw ValidationError(
                Words(
                    "--device-token needs --topic (or PUSHCTL_TOPIC): the bundle id of the app that has the token",
                    es: "--device-token necesita --topic (o PUSHCTL_TOPIC): el bundle id de la app que tiene el token"))
        }
    }

    func run() throws {
        try reportingErrors {
            var flags = auth.settings.merging(certificate.settings) { $1 }
            flags[.topic] = topic
            flags[.endpoint] = endpoint
            flags[.caCertificate] = cacert
            flags[.proxy] = proxy
            var options = DoctorOptions(settings: .command(flags))
            options.timeout = timeout
            options.deviceToken = deviceToken
            options.proxyCredentialsFile = proxyUserFile
            options.credentials.askPassword = CertificateOptions.askPassword
            options.credentials.askPIN = AuthOptions.askPIN
            options.credentials.warn = { Console.warn($0) }
            let report = try Doctor(options).run()
            let status: Int32 = report.passed ? 0 : ExitStatus.rejected.rawValue
            switch output {
            case .text:
                let marks: [DoctorCheck.Status: String] = [.pass: Console.paint("✓", .green), .fail: Console.paint("✗", .red), .skip: Console.paint("–", .dim)]
                report.lines(width: Console.width(of: Descriptors.standardOutput), marks: marks, language: LanguageSetting.language, naming: FlagNames.naming)
                    .forEach(Console.out)
            case .json: Console.out(report.json(exitStatus: status, language: LanguageSetting.jsonLanguage, naming: FlagNames.naming).pretty)
            }
            if status != 0 { throw ExitCode(status) }
        }
    }
}
