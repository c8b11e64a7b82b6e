import Foundation
import PushCore
import PushCrypto
import PushCurl
import PushEngine
import PushSystem
import Testing

/// `Doctor` in process: a fake connection probe and clock, the operating system chosen, programs
/// found on an injected PATH. Nothing here connects anywhere (the test push is never asked for a
/// real server); `DoctorTests` runs the built pushctl against the mock.
@Suite struct DoctorEngineTests {
    static let now: Int64 = 1_800_000_000

    /// What the fake probe was asked, and the reports it gives.
    final class FakeProbe {
        var asked: [CurlTransportConfiguration] = []
        let answer: (String) -> ConnectionProbeReport
        init(_ answer: @escaping (String) -> ConnectionProbeReport) { self.answer = answer }
        func run(_ configurations: [CurlTransportConfiguration]) -> [ConnectionProbeReport] {
            asked += configurations
            return configurations.map { answer($0.baseURL) }
        }
    }

    /// A server that answered over HTTP/2 after every stage, dated `serverDate`.
    static func answered(serverDate: Int64 = now, localDate: Int64 = now, connect: Int? = nil) -> ConnectionProbeReport {
        var report = ConnectionProbeReport()
        report.address = "127.0.0.1"
        report.milliseconds = [.dns: 0, .tcp: 1, .tls: 5, .http2: 11]
        report.status = 405
        report.spokeHTTP2 = true
        report.serverDate = HTTPDate.format(unixSeconds: serverDate)
        report.localDate = localDate
        report.proxyConnectStatus = connect
        return report
    }

    /// Nothing got past `stage`, for `cause`.
    static func failed(at stage: ConnectionProbeReport.Stage, _ cause: UnreachableCause, _ detail: String) -> ConnectionProbeReport {
        var report = ConnectionProbeReport()
        report.failedStage = stage
        report.cause = cause
        report.detail = detail
        if stage != .dns { report.milliseconds[.dns] = 0 }
        return report
    }

    static func doctor(
        _ flags: [Setting: String] = [:], env: EnvironmentVariables = [:], system: OperatingSystem = .linux,
        probe: FakeProbe, configure: (inout DoctorOptions) -> Void = { _ in }
    ) throws -> DoctorReport {
        var options = DoctorOptions(settings: SettingValues(flags: flags, environment: env))
        options.timeout = 3
        configure(&options)
        var machine = DoctorMachine()
        machine.probe = probe.run
        machine.now = { now }
        machine.system = system
        return try Doctor(options, machine: machine).run()
    }

    static func check(_ report: DoctorReport, _ name: String) throws -> DoctorCheck {
        try #require(report.checks.first { $0.name == name }, "\(report.checks.map(\.name))")
    }

    /// A folder of its own, removed by the caller.
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushctl-doctor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A fake `xcrun` in `dir` that writes its arguments to `dir/asked` and exits `status`.
    static func fakeXcrun(in dir: URL, status: Int32) throws {
        let script = dir.appendingPathComponent("xcrun")
        try "#!/bin/sh\necho \"$@\" >> '\(dir.path)/asked'\nexit \(status)\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    }

    @Test("a server that answers: its check passes with every stage and time, the clock is in step, and the probe was asked for that server alone")
    func serverPasses() throws {
        let probe = FakeProbe { _ in Self.answered() }
        let report = try Self.doctor([.endpoint: "https://127.0.0.1:8443"], probe: probe)
        #expect(report.checks.map(\.name) == ["libcurl", "key", "certificate", "clock", "proxy", "127.0.0.1:8443", "test push"])
        let server = try Self.check(report, "127.0.0.1:8443")
        #expect(server.status == .pass)
        #expect(server.found.en == "DNS 127.0.0.1 · TCP 1 ms · TLS 5 ms, certificate verified · HTTP/2 (answered 405) 11 ms")
        #expect(server.hint == nil)
        let clock = try Self.check(report, "clock")
        #expect(clock.status == .pass)
        #expect(clock.found.en == "in step with https://127.0.0.1:8443's date (APNs tolerates about a minute)")
        #expect(probe.asked.map(\.baseURL) == ["https://127.0.0.1:8443"])
        #expect(probe.asked.first?.connectTimeout == 3, "connecting may take the whole timeout")
        #expect(report.passed && report.count(.skip) == 4)
    }

    @Test("nothing listening at an endpoint: the server's check fails at TCP with the engine's hint for a server of the user's; the clock is skipped")
    func refusedConnection() throws {
        let probe = FakeProbe { _ in Self.failed(at: .tcp, .connection, "Failed to connect to 127.0.0.1 port 9: Connection refused") }
        let report = try Self.doctor([.endpoint: "https://127.0.0.1:9"], probe: probe)
        let server = try Self.check(report, "127.0.0.1:9")
        #expect(server.status == .fail)
        #expect(server.found.en == "DNS ok · TCP: Failed to connect to 127.0.0.1 port 9: Connection refused")
        #expect(server.hint == UnreachableCause.connection.hint(endpoint: "https://127.0.0.1:9"))
        #expect(server.hint?.en.hasPrefix("nothing is listening there") == true)
        #expect(try Self.check(report, "clock").status == .skip)
        #expect(!report.passed)
        let json = report.json(exitStatus: 1, language: .en).compact
        #expect(
            json.contains(#""stages":{"dns":{"status":"pass","ms":0},"tcp":{"status":"fail"},"tls":{"status":"skip"},"http2":{"status":"skip"}}"#), "\(json)")
        #expect(json.hasSuffix(#""passed":1,"failed":1,"skipped":5,"exitStatus":1}"#), "\(json)")
    }

    @Test("Apple's four servers: a timeout on 443 says to ask for the port or use the other one (by its setting), on 2197 that 443 is enough")
    func applePorts() throws {
        let probe = FakeProbe { url in
            url.hasSuffix(":2197") || url.contains("sandbox")
                ? Self.failed(at: .tcp, .timeout, "Connection timed out after 3000 milliseconds") : Self.answered()
        }
        let report = try Self.doctor(probe: probe)
        #expect(
            probe.asked.map(\.baseURL) == [
                "https://api.sandbox.push.apple.com:443", "https://api.sandbox.push.apple.com:2197",
                "https://api.push.apple.com:443", "https://api.push.apple.com:2197",
            ])
        let blocked = try Self.check(report, "api.sandbox.push.apple.com:443")
        #expect(blocked.found.en == "DNS ok · TCP: no answer within 3 s")
        #expect(
            blocked.hint?.en
                == "port 443 is blocked or dropped here (a firewall): ask for it to be opened, or send with \(Setting.port) 2197 if that port works")
        #expect(try Self.check(report, "api.push.apple.com:2197").hint?.en.hasPrefix("port 2197 is blocked here") == true)
        #expect(try Self.check(report, "api.push.apple.com:443").status == .pass)
        #expect(try Self.check(report, "clock").found.en.contains("https://api.push.apple.com:443's date"), "the first server with a date")
    }

    @Test("a clock five minutes ahead of the server's date fails, with the skew in json and what to turn on")
    func clockSkew() throws {
        let probe = FakeProbe { _ in Self.answered(serverDate: Self.now - 300) }
        let report = try Self.doctor([.endpoint: "https://127.0.0.1:8443"], probe: probe)
        let clock = try Self.check(report, "clock")
        #expect(clock.status == .fail)
        #expect(clock.found.en == "this machine's clock is 5 min ahead of https://127.0.0.1:8443's date (\(HTTPDate.format(unixSeconds: Self.now - 300)))")
        #expect(clock.found.es.hasPrefix("el reloj de esta máquina va 5 min adelantado"))
        #expect(clock.hint?.en.contains("timedatectl set-ntp true") == true)
        #expect(clock.json(.en).compact.contains(#""skewSeconds":300,"server":"https://127.0.0.1:8443""#))
        #expect(!report.passed)
    }

    @Test("the proxy libcurl takes from https_proxy is shown with its source and without its password, in text and json")
    func proxyFromEnvironment() throws {
        let probe = FakeProbe { _ in Self.answered(connect: 200) }
        let report = try Self.doctor(
            [.endpoint: "https://127.0.0.1:8443"],
            env: ["https_proxy": "http://ana:s3cret@127.0.0.1:3128", "no_proxy": "intranet.example"], probe: probe)
        let proxy = try Self.check(report, "proxy")
        #expect(proxy.status == .pass)
        #expect(
            proxy.found.en
                == "http://ana:***@127.0.0.1:3128 from https_proxy (no_proxy=intranet.example sends the hosts it lists directly): CONNECT to https://127.0.0.1:8443 works"
        )
        let json = report.json(exitStatus: 0, language: .es).compact
        #expect(!json.contains("s3cret") && !proxy.found.es.contains("s3cret"), "\(json)")
        #expect(probe.asked.allSatisfy { $0.proxy == nil }, "libcurl follows https_proxy itself")
        #expect(try Self.check(report, "127.0.0.1:8443").found.en.hasPrefix("DNS 127.0.0.1 (through the proxy)"))
    }

    @Test("an environment proxy that refuses: the proxy check and the server's fail, the hint says to check or unset that variable")
    func environmentProxyRefuses() throws {
        let probe = FakeProbe { _ in Self.failed(at: .tcp, .connection, "Failed to connect to 127.0.0.1 port 3128 after 0 ms: Connection refused") }
        let report = try Self.doctor([.endpoint: "https://127.0.0.1:8443"], env: ["HTTPS_PROXY": "http://127.0.0.1:3128"], probe: probe)
        let proxy = try Self.check(report, "proxy")
        #expect(proxy.status == .fail)
        #expect(proxy.found.en.hasPrefix("http://127.0.0.1:3128 from HTTPS_PROXY: it did not open a tunnel to https://127.0.0.1:8443"))
        #expect(proxy.hint == UnreachableCause.proxy.hint(endpoint: "https://127.0.0.1:8443"))
        let server = try Self.check(report, "127.0.0.1:8443")
        #expect(server.hint?.en.hasPrefix("libcurl goes through the proxy in HTTPS_PROXY here") == true, "\(String(describing: server.hint))")
    }

    @Test("on macOS with neither key nor certificate: the Keychain hint in both languages, and xcrun simctl asked once through the PATH given")
    func macOSHints() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.fakeXcrun(in: dir, status: 0)
        let report = try Self.doctor([.endpoint: "https://127.0.0.1:8443"], env: ["PATH": dir.path], system: .macOS, probe: FakeProbe { _ in Self.answered() })
        let certificate = try Self.check(report, "certificate")
        #expect(certificate.status == .skip)
        let hint = try #require(certificate.hint)
        #expect(hint.en.contains("Keychain Access") && hint.en.contains("File › Export Items…") && hint.en.contains(".p12"), "\(hint.en)")
        #expect(hint.es.contains("Acceso a Llaveros") && hint.es.contains("Archivo › Exportar ítems…"), "\(hint.es)")
        #expect(hint.en.contains("\(Setting.certificate)"))
        let simulator = try #require(report.checks.last)
        #expect(simulator.name == "simulator" && simulator.status == .pass)
        #expect(simulator.found.en.contains("\(Setting.simulator) booted"))
        #expect(simulator.json(.en).compact.contains(#""xcrun":"\#(dir.path)/xcrun","simctl":true"#))
        #expect(try String(contentsOf: dir.appendingPathComponent("asked"), encoding: .utf8) == "simctl help\n")
        #expect(simulator.shownName.es == "Simulador")
    }

    @Test("on macOS without Xcode: xcrun whose simctl fails, or no xcrun at all, skips the Simulator check (not a failure) with how to get Xcode")
    func macOSWithoutXcode() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.fakeXcrun(in: dir, status: 72)
        let probe = FakeProbe { _ in Self.answered() }
        let toolsOnly = try Self.check(
            try Self.doctor([.endpoint: "https://127.0.0.1:8443"], env: ["PATH": dir.path], system: .macOS, probe: probe), "simulator")
        #expect(toolsOnly.status == .skip)
        #expect(toolsOnly.found.en.contains("xcrun simctl did not answer"), "\(toolsOnly.found.en)")
        #expect(toolsOnly.hint?.en.contains("install it from the App Store") == true)
        #expect(toolsOnly.hint?.es.contains("instálalo desde la App Store") == true)
        let empty = try Self.folder()
        defer { try? FileManager.default.removeItem(at: empty) }
        let report = try Self.doctor([.endpoint: "https://127.0.0.1:8443"], env: ["PATH": empty.path], system: .macOS, probe: probe)
        #expect(try Self.check(report, "simulator").found.en.hasPrefix("no xcrun on PATH"))
        #expect(report.passed, "a missing Simulator fails nothing")
    }

    @Test("on Linux: no Simulator check, no Keychain hint, and xcrun is never run even when one is on PATH")
    func linuxHasNoMacHints() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.fakeXcrun(in: dir, status: 0)
        let report = try Self.doctor([.endpoint: "https://127.0.0.1:8443"], env: ["PATH": dir.path], system: .linux, probe: FakeProbe { _ in Self.answered() })
        #expect(!report.checks.contains { $0.name == "simulator" })
        #expect(try Self.check(report, "certificate").hint == nil)
        let json = report.json(exitStatus: 0, language: .en).compact
        #expect(!json.contains("Keychain") && !json.contains("xcrun"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("asked").path))
    }

    @Test("a certificate that cannot be read fails its check; on macOS the hint adds where a push certificate comes from, on Linux it does not")
    func certificateFails() throws {
        let probe = FakeProbe { _ in Self.answered() }
        let missing = "/nonexistent/push-\(UUID().uuidString).p12"
        let mac = try Self.check(try Self.doctor([.endpoint: "https://127.0.0.1:8443", .certificate: missing], system: .macOS, probe: probe), "certificate")
        let linux = try Self.check(try Self.doctor([.endpoint: "https://127.0.0.1:8443", .certificate: missing], system: .linux, probe: probe), "certificate")
        #expect(mac.status == .fail && linux.status == .fail)
        #expect(mac.found == linux.found)
        #expect(mac.hint?.en.contains("File › Export Items…") == true, "\(String(describing: mac.hint))")
        #expect(linux.hint?.en.contains("Keychain") == false, "\(String(describing: linux.hint))")
    }

    @Test("a key that loads passes with its ids; the test push without a working key or certificate is not sent, and says which settings to give")
    func keyAndTestPush() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("AuthKey_ABC123DEFG.p8").path
        try ES256PrivateKey.generate().pkcs8PEM.write(toFile: path, atomically: true, encoding: .utf8)
        let probe = FakeProbe { _ in Self.answered() }
        let keyed = try Self.doctor([.endpoint: "https://127.0.0.1:8443", .keyFile: path, .teamID: "DEF123GHIJ"], probe: probe)
        let key = try Self.check(keyed, "key")
        #expect(key.status == .pass, "\(key.found.en)")
        #expect(key.found.en.contains("loads (P-256); key id ABC123DEFG and team id DEF123GHIJ have Apple's shape"))
        let token = String(repeating: "ab", count: 32)
        let keyless = try Self.doctor([.endpoint: "https://127.0.0.1:8443", .topic: "com.example.app"], probe: probe) { $0.deviceToken = token }
        let push = try Self.check(keyless, "test push")
        #expect(push.status == .fail)
        #expect(push.found.en == "not sent: it needs a working key or certificate (see their checks)")
        #expect(push.hint?.en.hasPrefix("give \(Setting.keyFile), \(Setting.teamID)") == true)
        let bad = try Self.doctor([.endpoint: "https://127.0.0.1:8443", .keyFile: path, .teamID: "DEF123GHIJ", .topic: "com.example.app"], probe: probe) {
            $0.deviceToken = "not-hex"
        }
        #expect(try Self.check(bad, "test push").found.en.hasPrefix("not sent: "))
    }

    @Test("the unreachable hints name settings, never a flag: without a program's names they read the engine's words")
    func unreachableHintsNameSettings() {
        let causes: [UnreachableCause] = [.dns, .connection, .certificate, .tls, .timeout, .protocolMismatch, .proxy, .other]
        for cause in causes {
            for endpoint in [nil, "https://127.0.0.1:8443"] {
                let hint = cause.hint(endpoint: endpoint)
                #expect(!hint.en.isEmpty && !hint.es.isEmpty && hint.en != hint.es)
                #expect(!hint.en.contains("--") && !hint.es.contains("--"), "\(cause): \(hint.en)")
            }
        }
        #expect(UnreachableCause.connection.hint(endpoint: nil).en.hasSuffix("try \(Setting.port) 2197"))
        #expect(UnreachableCause.other.hint(endpoint: nil).en == "\(Setting.verbose) shows libcurl's trace")
        #expect(UnreachableCause.proxy.hint(endpoint: nil).en.contains("\(Setting.proxy) (or PUSHCTL_PROXY, https_proxy) and \(Setting.proxyCredentials)"))
    }

    @Test("a malformed endpoint or a proxy that is not a URL is refused before anything is checked")
    func badSettings() {
        let probe = FakeProbe { _ in Self.answered() }
        #expect(throws: InputError.self) { try Self.doctor([.endpoint: "http://127.0.0.1:9"], probe: probe) }
        #expect(throws: InputError.self) { try Self.doctor([.proxy: "ftp://127.0.0.1"], probe: probe) }
        #expect(probe.asked.isEmpty)
    }
}
