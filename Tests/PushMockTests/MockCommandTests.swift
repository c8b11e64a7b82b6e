import Foundation
import PushCore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The built `pushctl` next to this test bundle (`.build/debug`), or `PUSHCTL_BIN`.
private func pushctlBinary() throws -> String {
    if let path = ProcessInfo.processInfo.environment["PUSHCTL_BIN"] { return path }
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var folder = exe.deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = folder.appendingPathComponent("pushctl").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        folder = folder.deletingLastPathComponent()
    }
    throw TestFailure.tool("cannot find the pushctl binary near \(exe.path); build it (swift build --product pushctl) or set PUSHCTL_BIN")
}

@Suite("pushctl mock, the built binary")
struct MockCommandTests {
    @Test func startsPrintsTheURLAnswersAndStopsOnSIGTERM() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = try TestKey.openSSL(in: folder)
        let caPath = folder.appendingPathComponent("ca.pem").path
        let logPath = folder.appendingPathComponent("log.jsonl").path
        let dead = String(repeating: "ab", count: 32)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try pushctlBinary())
        process.arguments = [
            "mock", "--port", "0", "--ca-out", caPath, "--key-file", key.path, "--team-id", sampleTeam,
            "--log", logPath, "--fail", "\(dead)=Unregistered", "--max-streams", "500",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()

        // The first line names the URL; the rest is read after the stop.
        var text = ""
        while !text.contains("Ctrl-C") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let firstLine = try #require(text.split(separator: "\n").first.map(String.init))
        let url = try #require(firstLine.split(separator: " ").first { $0.hasPrefix("https://127.0.0.1:") }.map(String.init), "\(text)")
        #expect(text.contains("checked with key \(key.keyID)"))
        #expect(text.contains("pushctl send --endpoint \(url) --cacert \(caPath)"))
        #expect(text.contains("then 500"))

        let token = try key.openSSLToken(team: sampleTeam)
        func curl(_ device: String) throws -> String {
            try runTool("/usr/bin/curl", [
                "--http2", "--cacert", caPath, "-s", "-w", " %{http_code}", "-H", "authorization: bearer \(token)",
                "-H", "apns-topic: \(sampleTopic)", "--data-binary", #"{"aps":{"alert":"Hi"}}"#, "\(url)/3/device/\(device)",
            ]).text
        }
        #expect(try curl(sampleToken) == " 200")
        #expect(try curl(dead).hasPrefix(#"{"reason":"Unregistered","timestamp":"#))
        #expect(try curl(dead).hasSuffix(" 410"))

        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(rest.contains("terminated, stopping"))

        let log = try String(contentsOfFile: logPath, encoding: .utf8).split(separator: "\n")
        #expect(log.count == 3)
        #expect(!log.joined().contains(String(token.split(separator: ".")[2])))
    }

    @Test(arguments: [
        (["--key-file", "/nonexistent/AuthKey_ABC123DEFG.p8"], Int32(66), "cannot read the key file"),
        (["--key-file", "/etc/hostname"], 64, "cannot tell the key id"),
        (["--fail", "xyz=Unregistered"], 64, "--fail"),
        (["--fail", "\(sampleToken)=Sad"], 64, "not a reason APNs sends"),
        (["--team-id", "team"], 64, "--team-id"),
        (["--max-streams", "0"], 64, "--max-streams"),
        (["--max-streams", "500", "--initial-streams", "501"], 64, "--initial-streams"),
    ])
    func refusesBadInput(_ arguments: [String], _ status: Int32, _ message: String) throws {
        let result = try runTool(try pushctlBinary(), ["mock"] + arguments)
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.text.isEmpty, "nothing starts")
    }

    @Test func refusesAMalformedKeyFile() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("AuthKey_ABC123DEFG.p8").path
        try "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try runTool(try pushctlBinary(), ["mock", "--key-file", path])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("not a P-256 key"), "\(result.stderr)")
    }
}
