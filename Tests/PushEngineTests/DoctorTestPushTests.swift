import ChildProcess
import Foundation
import PushCore
import PushCrypto
import PushCurl
import PushEngine
import PushSystem
import Testing

/// Doctor's test push in process, through `SendRun`'s environment detection: two built
/// `pushctl-mock`s play Apple's sandbox and production (CONNECT_TO sends the host names to them,
/// and their certificates carry those names), each refusing the other's tokens.
@Suite(.serialized) struct DoctorTestPushTests {
    static let development = String(repeating: "d1", count: 32), production = String(repeating: "e2", count: 32)
    static let neither = String(repeating: "f3", count: 32), gone = String(repeating: "a4", count: 32)

    /// A mock on loopback; its URL's port, and its CA file in `dir`.
    final class Mock {
        let process = SpawnedProcess()
        let port: String
        let caFile: String

        init(_ name: String, dir: URL, key: String, extra: [String]) throws {
            caFile = dir.appendingPathComponent("\(name)-ca.pem").path
            process.executableURL = URL(fileURLWithPath: try #require(BuiltProducts.path(of: "pushctl-mock"), "build pushctl-mock first"))
            process.arguments = ["mock", "--port", "0", "--key-file", key, "--team-id", "DEF123GHIJ", "--ca-out", caFile] + extra
            process.ceiling = 120
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            var banner = ""
            while !banner.contains("Ctrl-C stops it.") {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                banner += String(decoding: chunk, as: UTF8.self)
            }
            port = try #require(banner.firstMatch(of: /https:\/\/127\.0\.0\.1:([0-9]+)/).map { String($0.output.1) }, "\(banner)")
        }

        deinit { process.send(.kill) }
    }

    /// The test push's check for `token`, the sandbox and production played by the two mocks.
    static func testPush(_ token: String) throws -> DoctorCheck {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushctl-doctor-push-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let key = dir.appendingPathComponent("AuthKey_ABC123DEFG.p8").path
        try ES256PrivateKey.generate().pkcs8PEM.write(toFile: key, atomically: true, encoding: .utf8)
        let sandbox = try Mock(
            "sandbox", dir: dir, key: key,
            extra: [
                "--san", "api.sandbox.push.apple.com", "--fail", "\(production)=BadDeviceToken",
                "--fail", "\(neither)=BadDeviceToken", "--fail", "\(gone)=BadDeviceToken",
            ])
        let live = try Mock(
            "production", dir: dir, key: key,
            extra: [
                "--san", "api.push.apple.com", "--environment", "production",
                "--fail", "\(development)=BadDeviceToken", "--fail", "\(neither)=BadDeviceToken",
                "--fail", "\(gone)=Unregistered",
            ])
        let bundle = dir.appendingPathComponent("both-cas.pem").path
        try (String(contentsOfFile: sandbox.caFile, encoding: .utf8) + String(contentsOfFile: live.caFile, encoding: .utf8))
            .write(toFile: bundle, atomically: true, encoding: .utf8)
        var options = DoctorOptions(
            settings: SettingValues(
                flags: [
                    .keyFile: key, .teamID: "DEF123GHIJ", .topic: "com.example.app",
                    .caCertificate: bundle,
                ], environment: [:]))
        options.deviceToken = token
        options.connectTo = ["api.sandbox.push.apple.com:443:127.0.0.1:\(sandbox.port)", "api.push.apple.com:443:127.0.0.1:\(live.port)"]
        var machine = DoctorMachine()
        machine.probe = { configurations in configurations.map { _ in ConnectionProbeReport() } }
        machine.system = .linux
        let report = try Doctor(options, machine: machine).run()
        return try #require(report.checks.last { $0.name == "test push" })
    }

    static func field(_ check: DoctorCheck, _ name: String) -> String? {
        check.details.first { $0.0 == name }.map { $0.1.compact }
    }

    @Test("a development build's token: the sandbox accepts it")
    func sandboxTakesIt() throws {
        let check = try Self.testPush(Self.development)
        #expect(check.status == .pass, "\(check.found.en)")
        #expect(check.found.en.hasPrefix("accepted by sandbox: the token is from a development build (run from Xcode), apns-id "), "\(check.found.en)")
        #expect(Self.field(check, "environment") == #""sandbox""#)
        #expect(Self.field(check, "accepted") == "true")
        let result = try #require(Self.field(check, "result"))
        #expect(result.contains(#""status":200"#) && !result.contains("environment"), "the answer as given, as before detection: \(result)")
    }

    @Test(
        "a TestFlight token: the sandbox says BadDeviceToken, production accepts, and the check says which setting sends there; json has production's answer as given"
    )
    func productionTakesIt() throws {
        let check = try Self.testPush(Self.production)
        #expect(check.status == .pass, "\(check.found.en)")
        #expect(
            check.found.en.hasPrefix("accepted by production: the token is from a TestFlight or App Store build; send with \(Setting.production), apns-id "))
        #expect(check.found.es.hasPrefix("aceptada por producción:"))
        #expect(Self.field(check, "environment") == #""production""#)
        let result = try #require(Self.field(check, "result"))
        #expect(result.contains(#""status":200"#) && !result.contains("environment") && !result.contains("answered"), "\(result)")
    }

    @Test("a token neither environment knows: both answers in the check, and the hint names the topic")
    func neitherTakesIt() throws {
        let check = try Self.testPush(Self.neither)
        #expect(check.status == .fail)
        #expect(check.found.en == "refused, sandbox: 400 BadDeviceToken; production: 400 BadDeviceToken", "\(check.found.en)")
        #expect(check.found.es == "rechazada, sandbox: 400 BadDeviceToken; producción: 400 BadDeviceToken")
        #expect(check.hint?.en == "neither environment knows this token for com.example.app: check that it is this app's token, copied whole")
        #expect(check.details.isEmpty)
    }

    @Test("a token production calls Unregistered after the sandbox's BadDeviceToken: production's answer and its explanation")
    func productionSaysGone() throws {
        let check = try Self.testPush(Self.gone)
        #expect(check.status == .fail)
        #expect(check.found.en == "refused, sandbox: 400 BadDeviceToken; production: 410 Unregistered", "\(check.found.en)")
        #expect(Self.field(check, "environment") == #""production""#)
        #expect(Self.field(check, "accepted") == "false")
        let hint = try #require(check.hint)
        #expect(
            try #require(Self.field(check, "result")).contains(#""explanation":\#(JSONValue.string(hint.en).compact)"#), "the hint is production's explanation")
    }
}
