public import PushCore
import PushCrypto
public import PushCurl
import PushFiles
public import PushSystem
public import PushWords

/// One finding of `Doctor`: what was checked, whether it passed, what was found, what to do when
/// it did not, and the fields a program reads.
public struct DoctorCheck: Sendable {
    public enum Status: String, Sendable { case pass, fail, skip }
    /// What a check looks at.
    public enum Subject: Sendable, Equatable {
        case libcurl, key, certificate, clock, proxy, testPush, simulator
        /// A server's connection checks, by its host and port.
        case server(String)

        /// The check's name in json.
        public var name: String {
            switch self {
            case .libcurl: "libcurl"
            case .key: "key"
            case .certificate: "certificate"
            case .clock: "clock"
            case .proxy: "proxy"
            case .testPush: "test push"
            case .simulator: "simulator"
            case .server(let hostAndPort): hostAndPort
            }
        }
    }
    public let subject: Subject
    public let status: Status
    public let found: Words
    /// What to do: when it failed, or how to have it checked when it was skipped.
    public var hint: Words?
    /// The check's own fields in json, after name, status, found and hint.
    public var details: [(String, JSONValue)]

    public init(subject: Subject, status: Status, found: Words, hint: Words? = nil, details: [(String, JSONValue)] = []) {
        self.subject = subject
        self.status = status
        self.found = found
        self.hint = hint
        self.details = details
    }

    /// The check's name in json; a server's checks are named by its host and port.
    public var name: String { subject.name }

    /// The name as a person reads it (json keeps `name` as it is; a server's stays its host and port).
    public var shownName: Words {
        switch subject {
        case .key: Words("key", es: "clave")
        case .certificate: Words("certificate", es: "certificado")
        case .clock: Words("clock", es: "reloj")
        case .testPush: Words("test push", es: "prueba de envío")
        case .simulator: Words("Simulator", es: "Simulador")
        case .libcurl, .proxy, .server: Words(verbatim: name)
        }
    }

    /// The check as one json object, its words in `language`.
    public func json(_ language: Language, naming: SettingNaming = .plain) -> JSONValue {
        .object(
            [
                ("name", .string(name)), ("status", .string(status.rawValue)), ("found", .string(found.text(language, naming: naming))),
                ("hint", hint.map { .string($0.text(language, naming: naming)) } ?? .null),
            ] + details)
    }
}

/// Every check of one `Doctor` run, in the order they are shown.
public struct DoctorReport: Sendable {
    public let checks: [DoctorCheck]

    public func count(_ status: DoctorCheck.Status) -> Int { checks.filter { $0.status == status }.count }

    /// No check failed (skipped ones do not count).
    public var passed: Bool { count(.fail) == 0 }

    /// "7 checks: 5 passed, 0 failed, 2 skipped".
    public var line: Words {
        let failed = count(.fail)
        let skipped = count(.skip)
        let passed = checks.count - failed - skipped
        return Words(
            "\(checks.count) checks: \(passed) passed, \(failed) failed, \(skipped) skipped",
            es: "\(checks.count) comprobaciones: \(passed) correctas, \(failed) fallidas, \(skipped) omitidas")
    }

    /// The whole report as one json document; `exitStatus` is the caller's.
    public func json(exitStatus: Int32, language: Language, naming: SettingNaming = .plain) -> JSONValue {
        .object([
            ("checks", .array(checks.map { $0.json(language, naming: naming) })), ("passed", .integer(Int64(count(.pass)))),
            ("failed", .integer(Int64(count(.fail)))), ("skipped", .integer(Int64(count(.skip)))),
            ("exitStatus", .integer(Int64(exitStatus))),
        ])
    }
}

/// What `Doctor` is given: the settings (flags over `PUSHCTL_*`), how long each check may take,
/// a device to send a real test notification to, and how to talk to the person running it.
public struct DoctorOptions {
    public var settings: SettingValues
    /// Seconds each check may take, connecting included.
    public var timeout: Double = 5
    /// A device token to send a test alert to (it needs the topic, or a certificate's).
    public var deviceToken: String?
    /// A file holding the proxy's `user:password`.
    public var proxyCredentialsFile: String?
    /// The certificate's password prompt and the warnings while reading the credentials.
    public var credentials = CredentialOptions()
    /// libcurl's CONNECT_TO entries (`HOST:PORT:CONNECT-HOST:CONNECT-PORT`): Apple's host names
    /// sent to other addresses, as a test's two local servers play sandbox and production.
    public var connectTo: [String] = []

    public init(settings: SettingValues) { self.settings = settings }
}

/// What `Doctor` asks of this machine, each replaceable so that a test runs doctor in process:
/// how far a connection to each server gets, the wall clock, the operating system, and where a
/// program is on the PATH of the settings' environment.
public struct DoctorMachine {
    public var probe: ([CurlTransportConfiguration]) -> [ConnectionProbeReport] = { ConnectionProbe.run($0) }
    public var now: () -> Int64 = { WallClock.now() }
    public var system: OperatingSystem = .current
    public var findProgram: (String, EnvironmentVariables) -> String? = ExecutablePath.find

    public init() {}
}

/// `pushctl doctor`: why sending fails on this machine or this network. Each check says what it
/// found and, when it fails, what to do; every connection goes through libcurl, as a send's do.
public struct Doctor {
    let options: DoctorOptions
    let machine: DoctorMachine
    /// `--endpoint`'s base URL, checked; nil: Apple's hosts.
    let endpoint: String?
    let caCertificate: String?
    let proxy: ProxyPolicy
    let topic: String?
    /// The certificate the settings name, if any (read by the certificate check).
    let certificatePath: String?

    var values: SettingValues { options.settings }

    /// Reads where to connect and how; a malformed endpoint, CA file or proxy is bad input, as in a send.
    public init(_ options: DoctorOptions, machine: DoctorMachine = DoctorMachine()) throws(InputError) {
        self.options = options
        self.machine = machine
        let values = options.settings
        endpoint = try values.value(.endpoint).map { text throws(InputError) in try Endpoint.baseURL(parsing: text) }
        caCertificate = values.value(.caCertificate)
        if let caCertificate { try CACertificateFile.check(caCertificate) }
        proxy = try ProxyPolicy(values, credentialsFile: options.proxyCredentialsFile)
        topic = values.value(.topic)
        certificatePath = values.value(.certificate)
    }

    /// Every check, in the order they are shown. The connections are probed side by side, so a
    /// machine where all four time out waits one timeout, not four.
    public func run() -> DoctorReport {
        var checks = [libcurl()]
        let certificate = self.certificate()
        let key =
            certificate.identity == nil || values.flags[.keyFile] != nil
            ? self.key()
            : (
                check: DoctorCheck(
                    subject: .key, status: .skip,
                    found: Words(
                        "a certificate authenticates instead (see the certificate check)",
                        es: "se autentica con un certificado (mira la comprobación del certificado)")), signer: nil
            )
        checks.append(key.check)
        checks.append(certificate.check)
        let targets = self.targets
        let reports = zip(targets, machine.probe(targets.map { transport($0, certificate: certificate.identity) })).map { (target: $0, report: $1) }
        checks.append(clock(reports))
        checks.append(proxyCheck(reports))
        checks += reports.map { connection($0.target, $0.report) }
        let authorization: (any AuthorizationSource)? = certificate.identity != nil ? CertificateAuthorization() : key.signer
        checks.append(testPush(authorization, certificate: certificate.identity))
        if machine.system == .macOS { checks.append(simulator()) }
        return DoctorReport(checks: checks)
    }

    /// The servers to check: the endpoint alone, or both of Apple's hosts on both ports.
    var targets: [String] {
        if let endpoint { return [endpoint] }
        return APNsEnvironment.allCases.flatMap { environment in
            ["https://\(environment.host):443", "https://\(environment.host):2197"]
        }
    }

    /// One request at a time; connecting may take the whole timeout (it is what is checked).
    func connection(certificate: ClientIdentity?) -> ConnectionSettings {
        var settings = ConnectionSettings(concurrency: 1, connections: 1, timeout: options.timeout)
        settings.connectTimeout = options.timeout
        proxy.apply(to: &settings)
        settings.connectTo = options.connectTo
        settings.clientCertificate = certificate.map {
            TLSClientCertificate(certificatePEM: $0.certificatePEM, privateKeyPEM: $0.privateKeyPEM)
        }
        return settings
    }

    func transport(_ baseURL: String, certificate: ClientIdentity?) -> CurlTransportConfiguration {
        connection(certificate: certificate).transport(baseURL: baseURL, caCertificate: caCertificate)
    }
}
