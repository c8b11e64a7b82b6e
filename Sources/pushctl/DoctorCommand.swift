import ArgumentParser
import Dispatch
import PushctlSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PushSystem
import PushCore
import PushFiles
import PushCrypto
import PushCurl
import PushEngine

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
    @Option(help: ArgumentHelp("Also trust this CA certificate (PEM) (env PUSHCTL_CACERT).", valueName: "path"),
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
        if !(timeout > 0 && timeout <= 60) { throw ValidationError(Words("--timeout must be more than 0 and at most 60 seconds; got \(timeout)", es: "--timeout debe ser mayor que 0 y como mucho 60 segundos; se recibió \(timeout)")) }
        let env = Console.environment
        let certificateGiven = certificate.cert != nil || env["PUSHCTL_CERT"].nonEmpty != nil
        if deviceToken != nil && (topic ?? env["PUSHCTL_TOPIC"].nonEmpty) == nil && !certificateGiven {
            throw ValidationError(Words("--device-token needs --topic (or PUSHCTL_TOPIC): the bundle id of the app that has the token", es: "--device-token necesita --topic (o PUSHCTL_TOPIC): el bundle id de la app que tiene el token"))
        }
    }

    func run() throws {
        try reportingErrors {
            let env = Console.environment
            let setting = try Doctor.Setting(self, env: env)
            let checks = Doctor(setting: setting, env: env).run()
            let failed = checks.filter { $0.status == .fail }.count
            let status: Int32 = failed == 0 ? 0 : ExitStatus.rejected.rawValue
            switch output {
            case .text: Doctor.text(checks).forEach(Console.out)
            case .json: Console.out(Doctor.json(checks, exitStatus: status).pretty)
            }
            if status != 0 { throw ExitCode(status) }
        }
    }
}

/// One finding: what was checked, what was found, and what to do when it failed.
struct DoctorCheck {
    enum Status: String { case pass, fail, skip }
    /// The check's name in json; a server's checks are named by its host and port.
    let name: String
    let status: Status
    let found: Words
    var hint: Words?
    /// Extra fields for `--output json`.
    var details: [(String, JSONValue)] = []
}

/// The checks, in the order they are shown.
struct Doctor {
    /// Where to connect and how, resolved from flags and environment (flags win), checked first:
    /// a malformed endpoint, CA file or proxy is bad input (65), as in `send`.
    struct Setting {
        let command: DoctorCommand
        let endpoint: String?
        let caCertificate: String?
        let proxy: ProxyPolicy
        let topic: String?
        /// The certificate named by --cert or PUSHCTL_CERT, if any (read by the certificate check).
        let certificatePath: String?
        /// The command's flags over the PUSHCTL_* variables.
        let values: PushEngine.SettingValues

        init(_ c: DoctorCommand, env: EnvironmentVariables) throws(InputError) {
            command = c
            var flags = c.auth.settings.merging(c.certificate.settings) { $1 }
            flags[.topic] = c.topic
            flags[.endpoint] = c.endpoint
            flags[.caCertificate] = c.cacert
            flags[.proxy] = c.proxy
            values = .command(flags)
            endpoint = try values.value(.endpoint).map { text throws(InputError) in try Endpoint.baseURL(parsing: text) }
            caCertificate = values.value(.caCertificate)
            if let caCertificate { try CACertificateFile.check(caCertificate) }
            proxy = try ProxyPolicy(values, credentialsFile: c.proxyUserFile)
            topic = values.value(.topic)
            certificatePath = values.value(.certificate)
        }

        /// The servers to check: `--endpoint` alone, or both of Apple's hosts on both ports.
        var targets: [String] {
            if let endpoint { return [endpoint] }
            return APNsEnvironment.allCases.flatMap { environment in
                ["https://\(environment.host):443", "https://\(environment.host):2197"]
            }
        }

        /// One request at a time; connecting may take the whole --timeout (it is what is checked).
        func transport(_ baseURL: String, certificate: ClientIdentity? = nil) -> CurlTransportConfiguration {
            var settings = ConnectionSettings(concurrency: 1, connections: 1, timeout: command.timeout)
            settings.connectTimeout = command.timeout
            proxy.apply(to: &settings)
            settings.clientCertificate = certificate.map {
                TLSClientCertificate(certificatePEM: $0.certificatePEM, privateKeyPEM: $0.privateKeyPEM)
            }
            return settings.transport(baseURL: baseURL, caCertificate: caCertificate)
        }
    }

    let setting: Setting
    let env: EnvironmentVariables

    func run() -> [DoctorCheck] {
        var checks = [libcurl()]
        let certificate = self.certificate()
        let key = certificate.identity == nil || setting.command.auth.keyFile != nil ? self.key() : (check: DoctorCheck(
            name: "key", status: .skip, found: Words("a certificate authenticates instead (see the certificate check)",
                                                         es: "se autentica con un certificado (mira la comprobación del certificado)")), signer: nil)
        checks.append(key.check)
        checks.append(certificate.check)
        let targets = setting.targets
        // The connections are checked side by side, so a machine where all four time out waits
        // one --timeout, not four.
        let reports = zip(targets, ConnectionProbe.run(targets.map { setting.transport($0, certificate: certificate.identity) }))
            .map { (target: $0, report: $1) }
        checks.append(clock(reports))
        checks.append(proxyCheck(reports))
        checks += reports.map { connection($0.target, $0.report) }
        let authorization: (any AuthorizationSource)? = certificate.identity != nil ? CertificateAuthorization() : key.signer
        checks.append(testPush(key: authorization, certificate: certificate.identity, reports: reports))
        return checks
    }

    // MARK: the checks

    func libcurl() -> DoctorCheck {
        guard CurlRuntime.initialise() else {
            return DoctorCheck(name: "libcurl", status: .fail, found: Words("libcurl could not be initialised", es: "no se pudo inicializar libcurl"),
                               hint: Words("reinstall libcurl (Debian: libcurl4-openssl-dev)", es: "reinstala libcurl (Debian: libcurl4-openssl-dev)"))
        }
        let details: [(String, JSONValue)] = [("version", .string(CurlRuntime.version)), ("http2", .bool(CurlRuntime.supportsHTTP2))]
        guard CurlRuntime.supportsHTTP2 else {
            return DoctorCheck(name: "libcurl", status: .fail,
                               found: Words("libcurl \(CurlRuntime.version) was built without HTTP/2", es: "libcurl \(CurlRuntime.version) se compiló sin HTTP/2"),
                               hint: Words("install a libcurl with nghttp2 (Debian: libcurl4-openssl-dev); APNs speaks only HTTP/2",
                                           es: "instala una libcurl con nghttp2 (Debian: libcurl4-openssl-dev); APNs solo habla HTTP/2"), details: details)
        }
        return DoctorCheck(name: "libcurl", status: .pass, found: Words("libcurl \(CurlRuntime.version) with HTTP/2", es: "libcurl \(CurlRuntime.version) con HTTP/2"),
                           details: details)
    }

    /// The certificate loads with its key, is within its validity, and what it covers.
    func certificate() -> (check: DoctorCheck, identity: ClientIdentity?) {
        guard let path = setting.certificatePath else {
            return (DoctorCheck(name: "certificate", status: .skip, found: Words("no --cert (or PUSHCTL_CERT) given", es: "no se dio --cert (ni PUSHCTL_CERT)")), nil)
        }
        let shown = OutsideText.display(path, limit: 120)
        do {
            var options = CredentialOptions()
            options.askPassword = CertificateOptions.askPassword
            options.warn = { Console.warn($0) }
            let identity = try CertificateCredential.identity(path: path, setting.values, options)
            let c = identity.certificate
            let now = WallClock.now()
            var details: [(String, JSONValue)] = [
                ("path", .string(shown)), ("bundleId", c.uid.map(JSONValue.string) ?? .null),
                ("topics", .array(c.allowedTopics.map(JSONValue.string))), ("environments", .string(c.environmentsDescription)),
                ("notAfter", .string(UTCDate.format(unixSeconds: c.notAfter))), ("daysLeft", .integer(c.daysLeft(now: now))),
            ]
            let topics = c.allowedTopics.map { OutsideText.display($0, limit: 80) }.joined(separator: ", ")
            let covers = Words(verbatim: "\(shown): ") + (c.uid.map { Words(verbatim: OutsideText.display($0, limit: 80)) } ?? Words("no bundle id", es: "sin bundle id"))
                + Words(verbatim: ", ") + c.environments + Words(verbatim: ", topics \(topics)")
            let notAfter = UTCDate.format(unixSeconds: c.notAfter)
            switch c.validity(now: now) {
            case .expired:
                return (DoctorCheck(name: "certificate", status: .fail, found: covers + Words("; expired on \(notAfter)", es: "; caducó el \(notAfter)"),
                                    hint: Words("make a new one in your Apple Developer account, or move to a .p8 key",
                                                es: "crea otro en tu cuenta de Apple Developer, o pasa a una clave .p8"), details: details), nil)
            case .notYetValid:
                let notBefore = UTCDate.format(unixSeconds: c.notBefore)
                return (DoctorCheck(name: "certificate", status: .fail, found: covers + Words("; not valid until \(notBefore)", es: "; no es válido hasta el \(notBefore)"),
                                    hint: Words("check this machine's clock", es: "comprueba el reloj de esta máquina"), details: details), nil)
            case let .expiresSoon(days):
                details.append(("expiresSoon", .bool(true)))
                return (DoctorCheck(name: "certificate", status: .pass,
                                    found: covers + Words("; expires in \(days) days (\(notAfter)): renew it soon", es: "; caduca en \(days) días (\(notAfter)): renuévalo pronto"),
                                    details: details), identity)
            case .valid:
                let days = c.daysLeft(now: now)
                return (DoctorCheck(name: "certificate", status: .pass, found: covers + Words("; valid for \(days) more days", es: "; válido \(days) días más"),
                                    details: details), identity)
            }
        } catch {
            return (DoctorCheck(name: "certificate", status: .fail, found: error.words,
                                hint: error.hintWords ?? Words("export the certificate with its key as .p12", es: "exporta el certificado con su clave como .p12"),
                                details: [("path", .string(shown))]), nil)
        }
    }

    /// The key loads, its ids have Apple's shapes, and a token signed with it verifies.
    func key() -> (check: DoctorCheck, signer: SigningAuthorization?) {
        let c = setting.command.auth
        // A key not in a file (a PKCS#11 token, an external signer, PUSHCTL_KEY): the engine checks it.
        var options = CredentialOptions()
        options.askPIN = AuthOptions.askPIN
        options.warn = { Console.warn($0) }
        if let checked = SigningKey.check(setting.values, options) {
            return (DoctorCheck(name: "key", status: checked.passed ? .pass : .fail, found: checked.found, hint: checked.hint,
                                details: checked.details.map { ($0.0, JSONValue.string($0.1)) }), checked.authorization)
        }
        guard let path = c.keyFile ?? env["PUSHCTL_KEY_FILE"].nonEmpty else {
            return (DoctorCheck(name: "key", status: .skip,
                                found: Words("no --key-file (or PUSHCTL_KEY_FILE) given, so no key to check",
                                             es: "no se dio --key-file (ni PUSHCTL_KEY_FILE): no hay clave que comprobar"),
                                hint: Words("add --key-file AuthKey_<KEYID>.p8 --team-id ID to check the key too",
                                            es: "añade --key-file AuthKey_<KEYID>.p8 --team-id ID para comprobar también la clave")), nil)
        }
        let shown = OutsideText.display(path, limit: 120)
        func failed(_ error: InputError) -> (check: DoctorCheck, signer: SigningAuthorization?) {
            (DoctorCheck(name: "key", status: .fail, found: error.words,
                         hint: error.hintWords ?? Words("check the file Apple gave you (a .p8)", es: "comprueba el archivo que te dio Apple (un .p8)"),
                         details: [("path", .string(shown))]), nil)
        }
        do {
            let file = try SigningKey.file(at: path)
            let key = try file.privateKey()
            let resolved = try SigningKey.identity(setting.values)
            let unsigned = UnsignedProviderToken(keyID: resolved.keyID, teamID: resolved.teamID, issuedAt: WallClock.now())
            let token: ProviderToken
            do { token = try unsigned.signed(by: key) } catch {
                return failed(InputError(Words("the key at \(shown) loads but could not sign: \(error)",
                                               es: "la clave de \(shown) se carga pero no pudo firmar: \(error)")))
            }
            guard key.publicKey.isValidSignature(token.signature, for: Array(unsigned.signingInput.utf8)) else {
                return failed(InputError(Words("a token signed with \(shown) does not verify with its own public half",
                                               es: "un token firmado con \(shown) no se verifica con su propia mitad pública")))
            }
            var found = Words("\(shown) loads (P-256); key id \(resolved.keyID) and team id \(resolved.teamID) have Apple's shape; a token signed with it verifies",
                              es: "\(shown) se carga (P-256); el key id \(resolved.keyID) y el team id \(resolved.teamID) tienen la forma de Apple; un token firmado con ella se verifica")
            if let named = AppleIdentifier.keyID(fromKeyFileName: path).map({ OutsideText.display($0, limit: 20) }), named != resolved.keyID.value {
                found = found + Words("; note: the file is named for key \(named), but the key id used is \(resolved.keyID)",
                                      es: "; ojo: el archivo lleva el nombre de la clave \(named), pero el key id que se usa es \(resolved.keyID)")
            }
            let warning = InputFiles.sharingWarning(path)
            let cache = ProviderTokenCache.standard(environment: env, warn: { _ in })
            let signer = SigningAuthorization(keyFile: file, keyID: resolved.keyID, teamID: resolved.teamID, cache: cache)
            return (DoctorCheck(name: "key", status: .pass, found: warning.map { found + Words(verbatim: "; ") + $0 } ?? found,
                                details: [("path", .string(shown)), ("keyId", .string(resolved.keyID.value)),
                                          ("teamId", .string(resolved.teamID.value))]), signer)
        } catch {
            return failed(error)
        }
    }

    /// The machine's clock against the first server date seen: a JWT's iat comes from this clock.
    func clock(_ reports: [(target: String, report: ConnectionProbeReport)]) -> DoctorCheck {
        guard let dated = reports.lazy.compactMap({ item in
            item.report.serverDate.flatMap(HTTPDate.parse).flatMap { server in item.report.localDate.map { (item.target, server, $0) } }
        }).first else {
            return DoctorCheck(name: "clock", status: .skip,
                               found: Words("no server answered with a date to compare the clock with", es: "ningún servidor respondió con una fecha con la que comparar el reloj"),
                               hint: Words("fix the connection checks below, then run again", es: "arregla las comprobaciones de conexión de abajo y vuelve a ejecutarlo"))
        }
        let (target, server, local) = dated
        let skew = ClockSkew(local: local, server: server)
        let details: [(String, JSONValue)] = [("skewSeconds", .integer(skew.seconds)), ("server", .string(target)),
                                              ("serverDate", .string(HTTPDate.format(unixSeconds: server)))]
        if skew.isAcceptable {
            return DoctorCheck(name: "clock", status: .pass,
                               found: Doctor.compare(skew, target) + Words(" (APNs tolerates about a minute)", es: " (APNs tolera alrededor de un minuto)"),
                               details: details)
        }
        let date = HTTPDate.format(unixSeconds: server)
        return DoctorCheck(name: "clock", status: .fail,
                           found: Words("this machine's clock is ", es: "el reloj de esta máquina va ") + Doctor.compare(skew, target) + Words(verbatim: " (\(date))"),
                           hint: Words("a token's iat comes from this clock, and APNs refuses tokens from the future or over an hour old: turn on time sync (timedatectl set-ntp true)",
                                       es: "el iat de un token sale de este reloj, y APNs rechaza los tokens del futuro o de hace más de una hora: activa la sincronización de la hora (timedatectl set-ntp true)"),
                           details: details)
    }

    /// Which proxy is in use, and whether it let the connections through.
    func proxyCheck(_ reports: [(target: String, report: ConnectionProbeReport)]) -> DoctorCheck {
        let proxyURL: String
        let source: String
        if let url = setting.proxy.url {
            proxyURL = url
            source = setting.values.sourceName(.proxy)
        } else if let (variable, url) = setting.proxy.fromEnvironment {
            proxyURL = url
            source = variable
        } else {
            return DoctorCheck(name: "proxy", status: .skip, found: Words("none (no --proxy, PUSHCTL_PROXY or https_proxy): connecting directly",
                                                                          es: "ninguno (ni --proxy, ni PUSHCTL_PROXY, ni https_proxy): conexión directa"))
        }
        let shown = ProxyPolicy.masked(proxyURL)
        var found = Words("\(shown) from \(source)", es: "\(shown) de \(source)")
        if setting.proxy.url == nil, let noProxy = setting.proxy.noProxy.map({ OutsideText.display($0, limit: 80) }) {
            found = found + Words(" (no_proxy=\(noProxy) sends the hosts it lists directly)", es: " (no_proxy=\(noProxy) conecta directamente con los hosts que lista)")
        }
        let details: [(String, JSONValue)] = [("url", .string(shown)), ("source", .string(source))]
        if let refused = reports.first(where: { $0.report.cause == .proxy || blamesEnvironmentProxy($0.report) }) {
            let status = refused.report.proxyConnectStatus.map { Words(", CONNECT answered \($0)", es: ", CONNECT respondió \($0)") } ?? Words(verbatim: "")
            return DoctorCheck(name: "proxy", status: .fail,
                               found: found + Words(": it did not open a tunnel to \(refused.target) (\(refused.report.detail)", es: ": no abrió un túnel a \(refused.target) (\(refused.report.detail)")
                                   + status + Words(verbatim: ")"),
                               hint: SendCommand.hint(for: .proxy, endpoint: setting.endpoint), details: details)
        }
        if let tunnel = reports.first(where: { $0.report.proxyConnectStatus == 200 }) {
            return DoctorCheck(name: "proxy", status: .pass, found: found + Words(": CONNECT to \(tunnel.target) works", es: ": CONNECT a \(tunnel.target) funciona"),
                               details: details)
        }
        if reports.contains(where: { $0.report.milliseconds[.tcp] != nil }) {
            return DoctorCheck(name: "proxy", status: .pass,
                               found: found + Words(": connections through it work (or no_proxy sends them around it)",
                                                    es: ": las conexiones a través de él funcionan (o no_proxy las lleva por fuera)"),
                               details: details)
        }
        return DoctorCheck(name: "proxy", status: .skip,
                           found: found + Words(": no connection got far enough to tell whether it works",
                                                es: ": ninguna conexión llegó lo bastante lejos para saber si funciona"),
                           details: details)
    }

    /// Whether a failure names the proxy libcurl took from the environment (libcurl reports
    /// those as failures to connect to the proxy's host and port).
    func blamesEnvironmentProxy(_ report: ConnectionProbeReport) -> Bool {
        guard setting.proxy.url == nil, let (_, url) = setting.proxy.fromEnvironment, report.failedStage == .tcp || report.failedStage == .dns else { return false }
        if report.detail.contains("resolve proxy") { return true }
        var authority = Substring(url)
        if let scheme = authority.firstRange(of: "://") { authority = authority[scheme.upperBound...] }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        authority = authority.prefix { $0 != "/" }
        guard let colon = authority.lastIndex(of: ":") else { return report.detail.contains("to \(authority) port") }
        return report.detail.contains("to \(authority[..<colon]) port \(authority[authority.index(after: colon)...])")
    }

    /// DNS, TCP, TLS with the chain verified, and HTTP/2, to one server.
    func connection(_ target: String, _ report: ConnectionProbeReport) -> DoctorCheck {
        let host = String(target.dropFirst("https://".count))
        var parts: [Words] = []
        var stages: [(String, JSONValue)] = []
        for stage in ConnectionProbeReport.Stage.allCases {
            let passed = report.failedStage.map { stage.order < $0.order } ?? true
            let isFailed = report.failedStage == stage
            let ms = report.milliseconds[stage]
            var stageDetails: [(String, JSONValue)] = [("status", .string(passed ? "pass" : isFailed ? "fail" : "skip"))]
            if let ms, passed { stageDetails.append(("ms", .integer(Int64(ms)))) }
            stages.append((stage.rawValue, .object(stageDetails)))
            guard passed else {
                if isFailed { parts.append(Words(verbatim: "\(stage.label): ") + failureText(report)) }
                continue
            }
            let time = ms.map { " \($0) ms" } ?? ""
            switch stage {
            case .dns:
                let through = setting.proxy.url != nil || setting.proxy.fromEnvironment != nil
                    ? Words(" (through the proxy)", es: " (a través del proxy)") : Words(verbatim: "")
                parts.append(Words(verbatim: "DNS " + (report.address ?? "ok")) + through)
            case .tcp: parts.append(Words(verbatim: "TCP\(time)"))
            case .tls: parts.append(Words("TLS\(time), certificate verified", es: "TLS\(time), certificado verificado"))
            case .http2:
                parts.append(Words(verbatim: "HTTP/2") + (report.status.map { Words(" (answered \($0))", es: " (respondió \($0))") } ?? Words(verbatim: ""))
                             + Words(verbatim: time))
            }
        }
        var details: [(String, JSONValue)] = [("url", .string(target)), ("stages", .object(stages))]
        if let address = report.address { details.append(("address", .string(address))) }
        if let problem = report.certificateProblem { details.append(("certificate", .string(problem))) }
        if !report.detail.isEmpty { details.append(("detail", .string(report.detail))) }
        let cause = blamesEnvironmentProxy(report) ? .proxy : report.cause
        return DoctorCheck(name: host, status: report.passed ? .pass : .fail, found: Words.joined(parts, separator: Words(verbatim: " · ")),
                           hint: cause.map { hint(for: $0, target: target) }, details: details)
    }

    func failureText(_ report: ConnectionProbeReport) -> Words {
        if report.cause == .certificate {
            return Words("the certificate does not chain to a trusted root", es: "el certificado no lleva a una raíz de confianza")
                + Words(verbatim: " (\(report.certificateProblem ?? report.detail))")
        }
        let limit = Self.seconds(setting.command.timeout)
        if report.cause == .timeout { return Words("no answer within \(limit)", es: "sin respuesta en \(limit)") }
        return Words(verbatim: report.detail)
    }

    /// What to do, by cause, for this server.
    func hint(for cause: UnreachableCause, target: String) -> Words {
        let apple = setting.endpoint == nil
        let onAlternatePort = target.hasSuffix(":2197")
        switch cause {
        case .certificate:
            let root = Words("Apple's servers chain to \"USERTrust RSA Certification Authority\" since 2025: the system's CA certificates must include it (Debian: apt-get install ca-certificates), and a TLS-inspecting proxy breaks the chain",
                             es: "desde 2025 los servidores de Apple llevan a \"USERTrust RSA Certification Authority\": los certificados de CA del sistema deben incluirla (Debian: apt-get install ca-certificates), y un proxy que inspecciona TLS rompe la cadena")
            return apple ? root
                : Words("for pushctl mock, pass its CA with --cacert (pushctl mock --ca-out writes it; a restarted mock makes a new CA). \(root.en)",
                        es: "para pushctl mock, pasa su CA con --cacert (pushctl mock --ca-out la escribe; un mock reiniciado crea una CA nueva). "
                            + root.es.prefix(1).uppercased() + root.es.dropFirst())
        case .connection where apple, .timeout where apple:
            return onAlternatePort ? Words("port 2197 is blocked here (a firewall); port 443, the default, is enough",
                                           es: "el puerto 2197 está bloqueado aquí (un cortafuegos); basta con el 443, el predeterminado")
                : Words("port 443 is blocked or dropped here (a firewall): ask for it to be opened, or send with --port 2197 if that port works",
                        es: "el puerto 443 está bloqueado aquí (un cortafuegos): pide que lo abran, o envía con --port 2197 si ese puerto funciona")
        case .dns where apple:
            return Words("Apple's host names did not resolve: check the network and DNS; a network that needs a proxy needs --proxy (or https_proxy)",
                         es: "los nombres de los servidores de Apple no se resolvieron: comprueba la red y el DNS; una red que necesita proxy necesita --proxy (o https_proxy)")
        case .proxy where setting.proxy.url == nil:
            let variable = setting.proxy.fromEnvironment?.variable ?? "https_proxy"
            return Words("libcurl goes through the proxy in \(variable) here and it did not let the connection through: check that proxy, or unset \(variable) if this network needs none",
                         es: "aquí libcurl pasa por el proxy de \(variable) y no dejó pasar la conexión: revisa ese proxy, o quita \(variable) si esta red no lo necesita")
        case .protocolMismatch:
            return Words("the server does not speak HTTP/2 (ALPN h2), which APNs needs: check --endpoint, or a proxy that intercepts TLS",
                         es: "el servidor no habla HTTP/2 (ALPN h2), que APNs necesita: revisa --endpoint, o un proxy que intercepte TLS")
        default:
            return SendCommand.hint(for: cause, endpoint: setting.endpoint)
        }
    }

    /// A real notification, to sandbox and then production (or to --endpoint), to find which
    /// environment the device token belongs to.
    func testPush(key signer: (any AuthorizationSource)?, certificate: ClientIdentity?,
                  reports: [(target: String, report: ConnectionProbeReport)]) -> DoctorCheck {
        guard let text = setting.command.deviceToken, let topic = setting.topic ?? certificate?.certificate.defaultTopic else {
            return DoctorCheck(name: "test push", status: .skip,
                               found: Words("no --device-token given: no notification sent", es: "no se dio --device-token: no se envió ninguna notificación"),
                               hint: Words("add --topic BUNDLE_ID --device-token HEX to send a real test alert",
                                           es: "añade --topic BUNDLE_ID --device-token HEX para enviar una alerta de prueba real"))
        }
        guard let signer else {
            return DoctorCheck(name: "test push", status: .fail,
                               found: Words("not sent: it needs a working key or certificate (see their checks)",
                                            es: "no se envió: hace falta una clave o un certificado que funcione (mira sus comprobaciones)"),
                               hint: Words("give --key-file, --team-id (and --key-id unless the file is AuthKey_<KEYID>.p8)",
                                           es: "da --key-file, --team-id (y --key-id si el archivo no se llama AuthKey_<KEYID>.p8)"))
        }
        let token: DeviceToken
        let template: PushTemplate
        do {
            token = try DeviceToken(parsing: text)
            template = try PushTemplate(PushSpec(topic: topic), payload: Payload(json: .object([
                ("aps", .object([("alert", .object([("title", .string("pushctl doctor")), ("body", .string("A test notification"))]))])),
            ])))
        } catch {
            return DoctorCheck(name: "test push", status: .fail, found: Doctor.notSent + error.words, hint: error.hintWords)
        }
        // Each place with its name in json and as a person reads it.
        let places: [(name: String, words: Words, url: String)] = setting.endpoint.map { [("the endpoint", Words("the endpoint", es: "el endpoint"), $0)] }
            ?? APNsEnvironment.allCases.map { ($0.rawValue, $0 == .production ? Words("production", es: "producción") : Words(verbatim: $0.rawValue), "https://" + $0.host) }
        var tried: [Words] = []
        for place in places {
            var result: PushResult?
            do {
                _ = try deliver(template, to: [token], authorization: signer, configuration: setting.transport(place.url, certificate: certificate),
                                policy: RetryPolicy(maxRetries: 0, requestTimeout: setting.command.timeout)) { result = $0 }
            } catch {
                return DoctorCheck(name: "test push", status: .fail, found: Doctor.notSent + error.words, hint: error.hintWords)
            }
            guard let result else { break }
            var details: [(String, JSONValue)] = [("environment", .string(place.name)), ("result", result.json())]
            if result.status == 200 {
                let which = setting.endpoint != nil ? Words("accepted by \(place.url)", es: "aceptada por \(place.url)")
                    : place.name == "sandbox" ? Words("accepted by sandbox: the token is from a development build (run from Xcode)",
                                                      es: "aceptada por sandbox: el token es de una compilación de desarrollo (ejecutada desde Xcode)")
                    : Words("accepted by production: the token is from a TestFlight or App Store build; send with --production",
                            es: "aceptada por producción: el token es de una compilación de TestFlight o de la App Store; envía con --production")
                details.append(("accepted", .bool(true)))
                return DoctorCheck(name: "test push", status: .pass,
                                   found: which + Words(verbatim: result.apnsID.map { ", apns-id \($0)" } ?? ""), details: details)
            }
            tried.append(place.words + Words(verbatim: ": " + (result.status.map { "\($0) " } ?? "")) + (result.reason.map { Words(verbatim: $0) } ?? result.explanationWords))
            // Only a token or key of the other environment is worth a second try.
            guard let reason = result.reason, RejectionReason(apnsName: reason).pointsAtOtherEnvironment else {
                details.append(("accepted", .bool(false)))
                return DoctorCheck(name: "test push", status: .fail, found: Doctor.refused + Words.joined(tried, separator: Words(verbatim: "; ")),
                                   hint: result.unreachableCause.map { hint(for: $0, target: place.url) } ?? result.explanationWords,
                                   details: details)
            }
        }
        let shownTopic = OutsideText.display(topic, limit: 80)
        return DoctorCheck(name: "test push", status: .fail, found: Doctor.refused + Words.joined(tried, separator: Words(verbatim: "; ")),
                           hint: setting.endpoint == nil
                               ? Words("neither environment knows this token for \(shownTopic): check that it is this app's token, copied whole",
                                       es: "ningún entorno conoce este token para \(shownTopic): comprueba que es el token de esta app, copiado entero")
                               : Words("check the token and --topic", es: "comprueba el token y --topic"))
    }

    static let notSent = Words("not sent: ", es: "no se envió: ")
    static let refused = Words("refused, ", es: "rechazada, ")

    /// "in step with X's date", "4 s ahead of X's date".
    static func compare(_ skew: ClockSkew, _ target: String) -> Words {
        skew.seconds == 0 ? Words("in step with \(target)'s date", es: "en hora con la fecha de \(target)")
            : skew.words + Words(" of \(target)'s date", es: " respecto a la fecha de \(target)")
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    // MARK: output

    /// One row per check, the name in a column; wrapped to `width` (a terminal's) at word
    /// boundaries, continuation lines under the text; the mark coloured after wrapping.
    static func text(_ checks: [DoctorCheck], width: Int? = Console.width(of: Descriptors.standardOutput)) -> [String] {
        let names = checks.map { Self.displayName[$0.name]?.description ?? $0.name }
        // Wide enough for Apple's longest host and port (api.sandbox.push.apple.com:2197); a longer
        // name (an --endpoint's) gets a row of its own, so every found text starts in one column.
        let column = min(names.map(\.count).max() ?? 0, 31)
        var lines: [String] = []
        for (check, shownName) in zip(checks, names) {
            let painted = switch check.status {
            case .pass: Console.paint("✓", .green)
            case .fail: Console.paint("✗", .red)
            case .skip: Console.paint("–", .dim)
            }
            let name = shownName.count < column ? shownName + String(repeating: " ", count: column - shownName.count) : shownName
            // The found text wraps in its own column; a narrow screen gets it under the name.
            let indent = column + 4
            let room = (width ?? Int.max / 2) - indent
            let found = TextLayout.wrap(check.found.description, width: room >= 30 ? room : (width ?? 80) - 4)
            if room >= 30 && shownName.count > column {
                lines.append("\(painted) \(shownName)")
                lines += found.map { String(repeating: " ", count: indent) + $0 }
            } else if room >= 30 {
                lines.append("\(painted) \(name)  \(found.first ?? "")")
                lines += found.dropFirst().map { String(repeating: " ", count: indent) + $0 }
            } else {
                lines.append("\(painted) \(shownName)")
                lines += found.map { "    " + $0 }
            }
            if check.status != .pass, let hint = check.hint {
                let label = check.status == .fail ? Words("do: ", es: "haz: ") : Words("to check it: ", es: "para comprobarlo: ")
                lines += TextLayout.wrap("    \(label)\(hint.description)", width: width ?? Int.max / 2, hangingIndent: 4)
            }
        }
        let failed = checks.filter { $0.status == .fail }.count
        let skipped = checks.filter { $0.status == .skip }.count
        let passed = checks.count - failed - skipped
        lines.append(Words("\(checks.count) checks: \(passed) passed, \(failed) failed, \(skipped) skipped",
                           es: "\(checks.count) comprobaciones: \(passed) correctas, \(failed) fallidas, \(skipped) omitidas").description)
        return lines
    }

    /// The found texts and hints in English, unless `--lang` (or PUSHCTL_LANG) chose the language.
    /// The checks' names as a person reads them (json keeps `name` as it is).
    static let displayName: [String: Words] = [
        "libcurl": Words(verbatim: "libcurl"), "key": Words("key", es: "clave"), "certificate": Words("certificate", es: "certificado"),
        "clock": Words("clock", es: "reloj"), "proxy": Words(verbatim: "proxy"), "test push": Words("test push", es: "prueba de envío"),
    ]

    static func json(_ checks: [DoctorCheck], exitStatus: Int32, language: Language = Language.chosenExplicitly ? Language.current : .en) -> JSONValue {
        let items: [JSONValue] = checks.map { check in
            .object([("name", .string(check.name)), ("status", .string(check.status.rawValue)), ("found", .string(check.found.text(language))),
                     ("hint", check.hint.map { .string($0.text(language)) } ?? .null)] + check.details)
        }
        func count(_ status: DoctorCheck.Status) -> JSONValue { .integer(Int64(checks.filter { $0.status == status }.count)) }
        return .object([("checks", .array(items)), ("passed", count(.pass)), ("failed", count(.fail)), ("skipped", count(.skip)),
                        ("exitStatus", .integer(Int64(exitStatus)))])
    }
}

extension ConnectionProbeReport.Stage {
    var order: Int { Self.allCases.firstIndex(of: self)! }
    var label: String {
        switch self {
        case .dns: return "DNS"
        case .tcp: return "TCP"
        case .tls: return "TLS"
        case .http2: return "HTTP/2"
        }
    }
}
