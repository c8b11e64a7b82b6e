import ArgumentParser
import Dispatch
import PushctlSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PushCore
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
        if !(timeout > 0 && timeout <= 60) { throw ValidationError("--timeout must be more than 0 and at most 60 seconds; got \(timeout)") }
        let env = Console.environment
        let certificateGiven = certificate.cert != nil || env["PUSHCTL_CERT"].nonEmpty != nil
        if deviceToken != nil && (topic ?? env["PUSHCTL_TOPIC"].nonEmpty) == nil && !certificateGiven {
            throw ValidationError("--device-token needs --topic (or PUSHCTL_TOPIC): the bundle id of the app that has the token")
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
    let name: String
    let status: Status
    let found: String
    var hint: String?
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
        let proxy: ProxySetting?
        /// The proxy libcurl takes from the environment when none is given, and its variable.
        let environmentProxy: (variable: String, url: String)?
        let noProxy: String?
        let topic: String?
        /// The certificate named by --cert or PUSHCTL_CERT, if any (read by the certificate check).
        let certificatePath: String?

        init(_ c: DoctorCommand, env: [String: String]) throws(InputError) {
            command = c
            endpoint = try (c.endpoint ?? env["PUSHCTL_ENDPOINT"].nonEmpty).map { text throws(InputError) in try Endpoint.baseURL(parsing: text) }
            caCertificate = c.cacert ?? env["PUSHCTL_CACERT"].nonEmpty
            if let caCertificate { try CACertificateFile.check(caCertificate) }
            proxy = try ProxySetting(url: c.proxy ?? env["PUSHCTL_PROXY"].nonEmpty, userFile: c.proxyUserFile)
            // libcurl's own order for https URLs.
            environmentProxy = ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"].lazy
                .compactMap { name in env[name].nonEmpty.map { (name, $0) } }.first
            noProxy = env["no_proxy"].nonEmpty ?? env["NO_PROXY"].nonEmpty
            topic = c.topic ?? env["PUSHCTL_TOPIC"].nonEmpty
            certificatePath = c.certificate.cert ?? env["PUSHCTL_CERT"].nonEmpty
        }

        /// The servers to check: `--endpoint` alone, or both of Apple's hosts on both ports.
        var targets: [String] {
            if let endpoint { return [endpoint] }
            return APNsEnvironment.allCases.flatMap { environment in
                ["https://\(environment.host):443", "https://\(environment.host):2197"]
            }
        }

        func transport(_ baseURL: String, certificate: ClientIdentity? = nil) -> CurlTransportConfiguration {
            var configuration = CurlTransportConfiguration(
                baseURL: baseURL, caCertificateFile: caCertificate, concurrency: 1, connections: 1,
                connectTimeout: command.timeout, timeout: command.timeout)
            configuration.proxy = proxy?.url
            configuration.proxyCredentials = proxy?.credentials
            configuration.clientCertificate = certificate.map {
                TLSClientCertificate(certificatePEM: $0.certificatePEM, privateKeyPEM: $0.privateKeyPEM)
            }
            return configuration
        }
    }

    let setting: Setting
    let env: [String: String]

    func run() -> [DoctorCheck] {
        var checks = [libcurl()]
        let certificate = self.certificate()
        let key = certificate.identity == nil || setting.command.auth.keyFile != nil ? self.key() : (check: DoctorCheck(
            name: "key", status: .skip, found: "a certificate authenticates instead (see the certificate check)"), signer: nil)
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
            return DoctorCheck(name: "libcurl", status: .fail, found: "libcurl could not be initialised",
                               hint: "reinstall libcurl (Debian: libcurl4-openssl-dev)")
        }
        let details: [(String, JSONValue)] = [("version", .string(CurlRuntime.version)), ("http2", .bool(CurlRuntime.supportsHTTP2))]
        guard CurlRuntime.supportsHTTP2 else {
            return DoctorCheck(name: "libcurl", status: .fail, found: "libcurl \(CurlRuntime.version) was built without HTTP/2",
                               hint: "install a libcurl with nghttp2 (Debian: libcurl4-openssl-dev); APNs speaks only HTTP/2", details: details)
        }
        return DoctorCheck(name: "libcurl", status: .pass, found: "libcurl \(CurlRuntime.version) with HTTP/2", details: details)
    }

    /// The certificate loads with its key, is within its validity, and what it covers.
    func certificate() -> (check: DoctorCheck, identity: ClientIdentity?) {
        guard let path = setting.certificatePath else {
            return (DoctorCheck(name: "certificate", status: .skip, found: "no --cert (or PUSHCTL_CERT) given"), nil)
        }
        let shown = OutsideText.display(path, limit: 120)
        do {
            let identity = try setting.command.certificate.loadIdentity(path: path, env: env)
            let c = identity.certificate
            let now = Int64(time(nil))
            var details: [(String, JSONValue)] = [
                ("path", .string(shown)), ("bundleId", c.uid.map(JSONValue.string) ?? .null),
                ("topics", .array(c.allowedTopics.map(JSONValue.string))), ("environments", .string(c.environmentsDescription)),
                ("notAfter", .string(UTCDate.format(unixSeconds: c.notAfter))), ("daysLeft", .integer(c.daysLeft(now: now))),
            ]
            let covers = "\(shown): \(c.uid.map { OutsideText.display($0, limit: 80) } ?? "no bundle id"), \(c.environments), topics \(c.allowedTopics.map { OutsideText.display($0, limit: 80) }.joined(separator: ", "))"
            switch c.validity(now: now) {
            case .expired:
                return (DoctorCheck(name: "certificate", status: .fail, found: "\(covers); expired on \(UTCDate.format(unixSeconds: c.notAfter))",
                                    hint: "make a new one in your Apple Developer account, or move to a .p8 key", details: details), nil)
            case .notYetValid:
                return (DoctorCheck(name: "certificate", status: .fail, found: "\(covers); not valid until \(UTCDate.format(unixSeconds: c.notBefore))",
                                    hint: "check this machine's clock", details: details), nil)
            case let .expiresSoon(days):
                details.append(("expiresSoon", .bool(true)))
                return (DoctorCheck(name: "certificate", status: .pass, found: "\(covers); expires in \(days) days (\(UTCDate.format(unixSeconds: c.notAfter))): renew it soon",
                                    details: details), identity)
            case .valid:
                return (DoctorCheck(name: "certificate", status: .pass, found: "\(covers); valid for \(c.daysLeft(now: now)) more days", details: details), identity)
            }
        } catch {
            return (DoctorCheck(name: "certificate", status: .fail, found: error.message, hint: error.hint ?? "export the certificate with its key as .p12",
                                details: [("path", .string(shown))]), nil)
        }
    }

    /// The key loads, its ids have Apple's shapes, and a token signed with it verifies.
    func key() -> (check: DoctorCheck, signer: SigningAuthorization?) {
        let c = setting.command.auth
        guard let path = c.keyFile ?? env["PUSHCTL_KEY_FILE"].nonEmpty else {
            return (DoctorCheck(name: "key", status: .skip,
                                found: "no --key-file (or PUSHCTL_KEY_FILE) given, so no key to check",
                                hint: "add --key-file AuthKey_<KEYID>.p8 --team-id ID to check the key too"), nil)
        }
        let shown = OutsideText.display(path, limit: 120)
        func failed(_ error: InputError) -> (check: DoctorCheck, signer: SigningAuthorization?) {
            (DoctorCheck(name: "key", status: .fail, found: error.message, hint: error.hint ?? "check the file Apple gave you (a .p8)",
                         details: [("path", .string(shown))]), nil)
        }
        do {
            let file = try KeyLoading.keyFile(at: path)
            let key = try file.privateKey()
            let resolved = try c.resolve()
            let unsigned = UnsignedProviderToken(keyID: resolved.keyID, teamID: resolved.teamID, issuedAt: Int64(time(nil)))
            let token: ProviderToken
            do { token = try unsigned.signed(by: key) } catch {
                return failed(InputError("the key at \(shown) loads but could not sign: \(error)"))
            }
            guard key.publicKey.isValidSignature(token.signature, for: Array(unsigned.signingInput.utf8)) else {
                return failed(InputError("a token signed with \(shown) does not verify with its own public half"))
            }
            var found = "\(shown) loads (P-256); key id \(resolved.keyID) and team id \(resolved.teamID) have Apple's shape; a token signed with it verifies"
            if let named = AppleIdentifier.keyID(fromKeyFileName: path), named != resolved.keyID.value {
                found += "; note: the file is named for key \(OutsideText.display(named, limit: 20)), but the key id used is \(resolved.keyID)"
            }
            let warning = InputFiles.sharingWarning(path)
            let cache = ProviderTokenCache.standard(environment: env, warn: { _ in })
            let signer = SigningAuthorization(keyFile: file, keyID: resolved.keyID, teamID: resolved.teamID, cache: cache)
            return (DoctorCheck(name: "key", status: .pass, found: found + (warning.map { "; " + $0 } ?? ""),
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
            return DoctorCheck(name: "clock", status: .skip, found: "no server answered with a date to compare the clock with",
                               hint: "fix the connection checks below, then run again")
        }
        let (target, server, local) = dated
        let skew = ClockSkew(local: local, server: server)
        let details: [(String, JSONValue)] = [("skewSeconds", .integer(skew.seconds)), ("server", .string(target)),
                                              ("serverDate", .string(HTTPDate.format(unixSeconds: server)))]
        if skew.isAcceptable {
            return DoctorCheck(name: "clock", status: .pass,
                               found: "\(Doctor.compare(skew, target)) (APNs tolerates about a minute)", details: details)
        }
        return DoctorCheck(name: "clock", status: .fail,
                           found: "this machine's clock is \(Doctor.compare(skew, target)) (\(HTTPDate.format(unixSeconds: server)))",
                           hint: "a token's iat comes from this clock, and APNs refuses tokens from the future or over an hour old: turn on time sync (timedatectl set-ntp true)",
                           details: details)
    }

    /// Which proxy is in use, and whether it let the connections through.
    func proxyCheck(_ reports: [(target: String, report: ConnectionProbeReport)]) -> DoctorCheck {
        let proxyURL: String
        let source: String
        if let proxy = setting.proxy {
            proxyURL = proxy.url
            source = setting.command.proxy != nil ? "--proxy" : "PUSHCTL_PROXY"
        } else if let (variable, url) = setting.environmentProxy {
            proxyURL = url
            source = variable
        } else {
            return DoctorCheck(name: "proxy", status: .skip, found: "none (no --proxy, PUSHCTL_PROXY or https_proxy): connecting directly")
        }
        let shown = ProxySetting.masked(proxyURL)
        var found = "\(shown) from \(source)"
        if setting.proxy == nil, let noProxy = setting.noProxy {
            found += " (no_proxy=\(OutsideText.display(noProxy, limit: 80)) sends the hosts it lists directly)"
        }
        let details: [(String, JSONValue)] = [("url", .string(shown)), ("source", .string(source))]
        if let refused = reports.first(where: { $0.report.cause == .proxy || blamesEnvironmentProxy($0.report) }) {
            let status = refused.report.proxyConnectStatus.map { ", CONNECT answered \($0)" } ?? ""
            return DoctorCheck(name: "proxy", status: .fail,
                               found: found + ": it did not open a tunnel to \(refused.target) (\(refused.report.detail)\(status))",
                               hint: SendCommand.hint(for: .proxy, endpoint: setting.endpoint), details: details)
        }
        if let tunnel = reports.first(where: { $0.report.proxyConnectStatus == 200 }) {
            return DoctorCheck(name: "proxy", status: .pass, found: found + ": CONNECT to \(tunnel.target) works", details: details)
        }
        if reports.contains(where: { $0.report.milliseconds[.tcp] != nil }) {
            return DoctorCheck(name: "proxy", status: .pass, found: found + ": connections through it work (or no_proxy sends them around it)",
                               details: details)
        }
        return DoctorCheck(name: "proxy", status: .skip, found: found + ": no connection got far enough to tell whether it works",
                           details: details)
    }

    /// Whether a failure names the proxy libcurl took from the environment (libcurl reports
    /// those as failures to connect to the proxy's host and port).
    func blamesEnvironmentProxy(_ report: ConnectionProbeReport) -> Bool {
        guard setting.proxy == nil, let (_, url) = setting.environmentProxy, report.failedStage == .tcp || report.failedStage == .dns else { return false }
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
        var parts: [String] = []
        var stages: [(String, JSONValue)] = []
        for stage in ConnectionProbeReport.Stage.allCases {
            let passed = report.failedStage.map { stage.order < $0.order } ?? true
            let isFailed = report.failedStage == stage
            let ms = report.milliseconds[stage]
            var stageDetails: [(String, JSONValue)] = [("status", .string(passed ? "pass" : isFailed ? "fail" : "skip"))]
            if let ms, passed { stageDetails.append(("ms", .integer(Int64(ms)))) }
            stages.append((stage.rawValue, .object(stageDetails)))
            guard passed else {
                if isFailed { parts.append("\(stage.label): \(failureText(report))") }
                continue
            }
            let time = ms.map { " \($0) ms" } ?? ""
            switch stage {
            case .dns:
                let through = setting.proxy != nil || setting.environmentProxy != nil ? " (through the proxy)" : ""
                parts.append("DNS " + (report.address.map { "\($0)\(through)" } ?? "ok\(through)"))
            case .tcp: parts.append("TCP\(time)")
            case .tls: parts.append("TLS\(time), certificate verified")
            case .http2: parts.append("HTTP/2" + (report.status.map { " (answered \($0))" } ?? "") + time)
            }
        }
        var details: [(String, JSONValue)] = [("url", .string(target)), ("stages", .object(stages))]
        if let address = report.address { details.append(("address", .string(address))) }
        if let problem = report.certificateProblem { details.append(("certificate", .string(problem))) }
        if !report.detail.isEmpty { details.append(("detail", .string(report.detail))) }
        let cause = blamesEnvironmentProxy(report) ? .proxy : report.cause
        return DoctorCheck(name: host, status: report.passed ? .pass : .fail, found: parts.joined(separator: " · "),
                           hint: cause.map { hint(for: $0, target: target) }, details: details)
    }

    func failureText(_ report: ConnectionProbeReport) -> String {
        if report.cause == .certificate {
            return "the certificate does not chain to a trusted root" + (report.certificateProblem.map { " (\($0))" } ?? " (\(report.detail))")
        }
        if report.cause == .timeout { return "no answer within \(Self.seconds(setting.command.timeout))" }
        return report.detail
    }

    /// What to do, by cause, for this server.
    func hint(for cause: UnreachableCause, target: String) -> String {
        let apple = setting.endpoint == nil
        let onAlternatePort = target.hasSuffix(":2197")
        switch cause {
        case .certificate:
            let root = "Apple's servers chain to \"USERTrust RSA Certification Authority\" since 2025: the system's CA certificates must include it (Debian: apt-get install ca-certificates), and a TLS-inspecting proxy breaks the chain"
            return apple ? root
                : "for pushctl mock, pass its CA with --cacert (pushctl mock --ca-out writes it; a restarted mock makes a new CA). \(root)"
        case .connection where apple, .timeout where apple:
            return onAlternatePort ? "port 2197 is blocked here (a firewall); port 443, the default, is enough"
                : "port 443 is blocked or dropped here (a firewall): ask for it to be opened, or send with --port 2197 if that port works"
        case .dns where apple:
            return "Apple's host names did not resolve: check the network and DNS; a network that needs a proxy needs --proxy (or https_proxy)"
        case .proxy where setting.proxy == nil:
            let variable = setting.environmentProxy?.variable ?? "https_proxy"
            return "libcurl goes through the proxy in \(variable) here and it did not let the connection through: check that proxy, or unset \(variable) if this network needs none"
        case .protocolMismatch:
            return "the server does not speak HTTP/2 (ALPN h2), which APNs needs: check --endpoint, or a proxy that intercepts TLS"
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
                               found: "no --device-token given: no notification sent",
                               hint: "add --topic BUNDLE_ID --device-token HEX to send a real test alert")
        }
        guard let signer else {
            return DoctorCheck(name: "test push", status: .fail, found: "not sent: it needs a working key or certificate (see their checks)",
                               hint: "give --key-file, --team-id (and --key-id unless the file is AuthKey_<KEYID>.p8)")
        }
        let token: DeviceToken
        let template: PushTemplate
        do {
            token = try DeviceToken(parsing: text)
            template = try PushTemplate(PushSpec(topic: topic), payload: Payload(json: .object([
                ("aps", .object([("alert", .object([("title", .string("pushctl doctor")), ("body", .string("A test notification"))]))])),
            ])))
        } catch {
            return DoctorCheck(name: "test push", status: .fail, found: "not sent: \(error.message)", hint: error.hint)
        }
        let places: [(name: String, url: String)] = setting.endpoint.map { [("the endpoint", $0)] }
            ?? APNsEnvironment.allCases.map { ($0.rawValue, "https://" + $0.host) }
        var tried: [String] = []
        for place in places {
            var result: PushResult?
            do {
                _ = try deliver(template, to: [token], authorization: signer, configuration: setting.transport(place.url, certificate: certificate),
                                policy: RetryPolicy(maxRetries: 0, requestTimeout: setting.command.timeout)) { result = $0 }
            } catch {
                return DoctorCheck(name: "test push", status: .fail, found: "not sent: \(error.message)", hint: error.hint)
            }
            guard let result else { break }
            var details: [(String, JSONValue)] = [("environment", .string(place.name)), ("result", result.json())]
            if result.status == 200 {
                let which = setting.endpoint != nil ? "accepted by \(place.url)"
                    : place.name == "sandbox" ? "accepted by sandbox: the token is from a development build (run from Xcode)"
                    : "accepted by production: the token is from a TestFlight or App Store build; send with --production"
                details.append(("accepted", .bool(true)))
                return DoctorCheck(name: "test push", status: .pass,
                                   found: which + (result.apnsID.map { ", apns-id \($0)" } ?? ""), details: details)
            }
            tried.append("\(place.name): " + (result.status.map { "\($0) " } ?? "") + (result.reason ?? result.explanation))
            // Only a token or key of the other environment is worth a second try.
            guard let reason = result.reason, RejectionReason(apnsName: reason).pointsAtOtherEnvironment else {
                details.append(("accepted", .bool(false)))
                return DoctorCheck(name: "test push", status: .fail, found: "refused, " + tried.joined(separator: "; "),
                                   hint: result.unreachableCause.map { hint(for: $0, target: place.url) } ?? result.explanation,
                                   details: details)
            }
        }
        return DoctorCheck(name: "test push", status: .fail, found: "refused, " + tried.joined(separator: "; "),
                           hint: setting.endpoint == nil
                               ? "neither environment knows this token for \(OutsideText.display(topic, limit: 80)): check that it is this app's token, copied whole"
                               : "check the token and --topic")
    }

    /// "in step with X's date", "4 s ahead of X's date".
    static func compare(_ skew: ClockSkew, _ target: String) -> String {
        skew.seconds == 0 ? "in step with \(target)'s date" : "\(skew.description) of \(target)'s date"
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    // MARK: output

    /// One row per check, the name in a column; wrapped to `width` (a terminal's) at word
    /// boundaries, continuation lines under the text; the mark coloured after wrapping.
    static func text(_ checks: [DoctorCheck], width: Int? = Console.width(of: STDOUT_FILENO)) -> [String] {
        let column = min(checks.map(\.name.count).max() ?? 0, 30)
        var lines: [String] = []
        for check in checks {
            let painted = switch check.status {
            case .pass: Console.paint("✓", .green)
            case .fail: Console.paint("✗", .red)
            case .skip: Console.paint("–", .dim)
            }
            let name = check.name.count < column ? check.name + String(repeating: " ", count: column - check.name.count) : check.name
            // The found text wraps in its own column; a narrow screen gets it under the name.
            let indent = column + 4
            let room = (width ?? Int.max / 2) - indent
            let found = TextLayout.wrap(check.found, width: room >= 30 ? room : (width ?? 80) - 4)
            if room >= 30 {
                lines.append("\(painted) \(name)  \(found.first ?? "")")
                lines += found.dropFirst().map { String(repeating: " ", count: indent) + $0 }
            } else {
                lines.append("\(painted) \(check.name)")
                lines += found.map { "    " + $0 }
            }
            if check.status != .pass, let hint = check.hint {
                let label = check.status == .fail ? Words("do: ", es: "haz: ") : Words("to check it: ", es: "para comprobarlo: ")
                lines += TextLayout.wrap("    \(label)\(hint)", width: width ?? Int.max / 2, hangingIndent: 4)
            }
        }
        let failed = checks.filter { $0.status == .fail }.count
        let skipped = checks.filter { $0.status == .skip }.count
        let passed = checks.count - failed - skipped
        lines.append(Words("\(checks.count) checks: \(passed) passed, \(failed) failed, \(skipped) skipped",
                           es: "\(checks.count) comprobaciones: \(passed) correctas, \(failed) fallidas, \(skipped) omitidas").description)
        return lines
    }

    static func json(_ checks: [DoctorCheck], exitStatus: Int32) -> JSONValue {
        let items: [JSONValue] = checks.map { check in
            .object([("name", .string(check.name)), ("status", .string(check.status.rawValue)), ("found", .string(check.found)),
                     ("hint", check.hint.map(JSONValue.string) ?? .null)] + check.details)
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
