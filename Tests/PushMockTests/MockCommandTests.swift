import ChildProcess
import Foundation
import PushCore
import PushSystem
import PushWords
import Testing

/// The built `pushctl` next to this test bundle (`.build/debug`), or `PUSHCTL_BIN`.
func pushctlBinary() throws -> String {
    if let path = ProcessInfo.processInfo.environment["PUSHCTL_BIN"] { return path }
    if let path = BuiltProducts.path(of: "pushctl") { return path }
    throw TestFailure.tool("cannot find the pushctl binary near \(BuiltProducts.searchedFrom); build it (swift build --product pushctl) or set PUSHCTL_BIN")
}

@Suite("pushctl mock, the built binary")
struct MockCommandTests {
    /// `pushctl mock ARGUMENTS` started, its banner read up to "Ctrl-C" (standard output stays open).
    static func startMock(_ arguments: [String], errors: Any) throws -> (Process, Pipe, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try pushctlBinary())
        process.arguments = ["mock"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var text = ""
        while !text.contains("Ctrl-C") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return (process, output, text)
    }

    @Test func startsPrintsTheURLAnswersAndStopsOnSIGTERM() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = try TestKey.openSSL(in: folder)
        let caPath = folder.appendingPathComponent("ca.pem").path
        let logPath = folder.appendingPathComponent("log.jsonl").path
        let dead = String(repeating: "ab", count: 32)

        let (process, output, text) = try Self.startMock(
            [
                "--port", "0", "--ca-out", caPath, "--key-file", key.path, "--team-id", sampleTeam,
                "--log", logPath, "--fail", "\(dead)=Unregistered", "--max-streams", "500",
            ], errors: FileHandle.nullDevice)
        // The first line names the URL; the rest is read after the stop.
        let firstLine = try #require(text.split(separator: "\n").first.map(String.init))
        let url = try #require(firstLine.split(separator: " ").first { $0.hasPrefix("https://127.0.0.1:") }.map(String.init), "\(text)")
        #expect(text.contains("checked with key \(key.keyID)"))
        #expect(text.contains("pushctl send --endpoint \(url) --cacert \(caPath)"))
        #expect(text.contains("then 500"))

        let token = try key.openSSLToken(team: sampleTeam)
        func curl(_ device: String) throws -> String {
            try runTool(
                Tool.path("curl"),
                [
                    "--http2", "--cacert", caPath, "-s", "-w", " %{http_code}", "-H", "authorization: bearer \(token)",
                    "-H", "apns-topic: \(sampleTopic)", "--data-binary", #"{"aps":{"alert":"Hi"}}"#, "\(url)/3/device/\(device)",
                ]
            ).text
        }
        #expect(try curl(sampleToken) == " 200")
        #expect(try curl(dead).hasPrefix(#"{"reason":"Unregistered","timestamp":"#))
        #expect(try curl(dead).hasSuffix(" 410"))

        kill(process.processIdentifier, SIGTERM)
        #expect(process.waitUntilExit(orKillAfter: 15), "SIGTERM stops the mock")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(rest.contains("terminated, stopping"))

        let log = try String(contentsOfFile: logPath, encoding: .utf8).split(separator: "\n")
        #expect(log.count == 3)
        #expect(!log.joined().contains(String(token.split(separator: ".")[2])))
    }

    @Test("a provider token's kid with an escape sequence is said on the mock's console as outside text, never raw")
    func refusedTokenDetailIsDisplayText() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = try TestKey.openSSL(in: folder)
        let caPath = folder.appendingPathComponent("ca.pem").path
        let errorsPath = folder.appendingPathComponent("errors.txt").path
        _ = FileManager.default.createFile(atPath: errorsPath, contents: nil)
        let (process, _, text) = try Self.startMock(
            ["--port", "0", "--ca-out", caPath, "--key-file", key.path], errors: try FileHandle(forWritingTo: URL(fileURLWithPath: errorsPath)))
        defer { kill(process.processIdentifier, SIGKILL) }
        let url = try #require(text.firstMatch(of: /https:\/\/127\.0\.0\.1:[0-9]+/).map { String($0.output) }, "\(text)")
        func part(_ json: String) -> String {
            Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let header = part(#"{"alg":"ES256","kid":"\u001b[2JAB\u009b31m"}"#)
        let claims = part(#"{"iss":"\#(sampleTeam)","iat":\#(now())}"#)
        let jwt = "\(header).\(claims).\(part(String(repeating: "s", count: 64)))"
        _ = try runTool(
            Tool.path("curl"),
            [
                "--http2", "--cacert", caPath, "-s", "-o", "/dev/null", "-H", "authorization: bearer \(jwt)", "-H", "apns-topic: \(sampleTopic)",
                "--data-binary", #"{"aps":{"alert":"Hi"}}"#, "\(url)/3/device/\(sampleToken)",
            ])
        var errors = ""
        let deadline = Date().addingTimeInterval(10)
        while !errors.contains("provider token refused") && Date() < deadline {
            usleep(20_000)
            errors = (try? String(contentsOfFile: errorsPath, encoding: .utf8)) ?? ""
        }
        #expect(errors.contains(#"kid '\u{1B}[2JAB\u{9B}31m' is not a 10-character key id"#), "\(errors.debugDescription)")
        #expect(!errors.unicodeScalars.contains { $0 != "\n" && OutsideText.isControl($0) }, "\(errors.debugDescription)")
    }

    @Test("a reader that stops reading (`pushctl mock | head -1`) does not crash the mock when it stops")
    func closedStandardOutput() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let errors = Pipe()
        let (process, output, _) = try Self.startMock(["--port", "0", "--ca-out", folder.appendingPathComponent("ca.pem").path], errors: errors)
        // The banner read, then the reading end closed: "stopping" goes to a pipe nobody reads.
        try output.fileHandleForReading.close()
        kill(process.processIdentifier, SIGTERM)
        #expect(process.waitUntilExit(orKillAfter: 15), "SIGTERM stops the mock")
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(stderr)")
        #expect(!stderr.contains("Fatal error") && !stderr.contains("crashed"), "\(stderr)")
    }

    @Test(arguments: [
        (["--key-file", "/nonexistent/AuthKey_ABC123DEFG.p8"], Int32(66), "cannot read key file '/nonexistent/AuthKey_ABC123DEFG.p8': no such file"),
        (["--key-file", "ABC123DEFG=/tmp"], 66, "cannot read key file '/tmp': it is a directory"),
        // Read as pushctl reads its files: bounded, so an endless file is refused, not read forever.
        (["--client-ca", "/dev/zero"], 65, "CA certificate file '/dev/zero' is larger than 1024 KiB"),
        (["--client-ca", "/nonexistent/ca.pem"], 66, "cannot read CA certificate file '/nonexistent/ca.pem': no such file"),
        (["--key-file", "/etc/hostname"], 64, "cannot tell the key id"),
        (["--fail", "xyz=Unregistered"], 64, "--fail"),
        (["--fail", "\(sampleToken)=Sad"], 64, "not a reason APNs sends"),
        (["--team-id", "team"], 64, "--team-id"),
        (["--max-streams=-1"], 64, "--max-streams"),
        (["--max-streams", "2147483648"], 64, "--max-streams"),
        (["--max-streams", "500", "--initial-streams", "501"], 64, "--initial-streams"),
        (["--max-streams", "0", "--initial-streams", "1"], 64, "--initial-streams"),
        (["--answer-status", "99"], 64, "--answer-status"),
        (["--answer-status", "600"], 64, "--answer-status"),
        (["--answer-status", "1e300"], 64, "--answer-status"),
        (["--answer-body", "busy"], 64, "need --answer-status"),
        (["--answer-count", "1"], 64, "need --answer-status"),
        (["--answer-status", "503", "--answer-count", "0"], 64, "--answer-count"),
        (["--pad-body", "16777217"], 64, "--pad-body"),
        (["--pad-body=-1"], 64, "--pad-body"),
        (["--delay", "9223372036854775807"], 64, "--delay"),
        (["--goaway-error", "2"], 64, "needs --goaway-after"),
        (["--goaway-after", "1", "--goaway-error", "SAD"], 64, "--goaway-error"),
        (["--goaway-after", "1", "--goaway-error", "4294967296"], 64, "--goaway-error"),
        (["--silent", "--reset-streams"], 64, "exclude each other"),
        (["--ca-out", "/nonexistent-folder/ca.pem"], 73, "cannot write the CA certificate '/nonexistent-folder/ca.pem': no such file"),
        (["--log", "/nonexistent-folder/log.jsonl"], 73, "cannot open the log file '/nonexistent-folder/log.jsonl': no such file"),
        (["--log", "/"], 73, "cannot open the log file"),
        (["--log-max-size", "0"], 64, "--log-max-size must be between 1 and 1048576 MiB; got 0"),
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

    @Test func startsWithEveryHostileFaultNamedInItsBanner() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (process, text) = try MockFileLinkTests.startMock([
            "--port", "0", "--ca-out", folder.appendingPathComponent("ca.pem").path,
            "--answer-status", "503", "--answer-body", "<html>busy</html>", "--answer-count", "2", "--retry-after", "999999",
            "--pad-body", "70000", "--silent", "--goaway-after", "100", "--goaway-error", "ENHANCE_YOUR_CALM",
            "--max-streams", "0",
        ])
        kill(process.processIdentifier, SIGTERM)
        #expect(process.waitUntilExit(orKillAfter: 15), "SIGTERM stops the mock")
        #expect(process.terminationStatus == 0)
        for line in [
            "streams: 0 per connection until a request with a valid token, then 0",
            "fault: the first 2 request(s) that pass the checks answered 503 with a 17-byte body (no apns-id)",
            "fault: retry-after: 999999 on every answer that is not 200",
            "fault: every answer's body padded with 70000 spaces",
            "fault: silent: requests are read, never answered; connections never closed",
            "fault: the GOAWAY carries error ENHANCE_YOUR_CALM (0xb)",
        ] {
            #expect(text.contains(line), "\(line)\n\(text)")
        }
    }

    var demoEnvironment: [String: String] { ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 } }

    /// `demo --pause` waits for Enter only on a terminal: run it on a pseudo-terminal, stop it
    /// while it waits, and look for the folder that held its private key.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func demoInterruptedWhilePausedRemovesItsKeyFolder(signalNumber: Int32, status: Int32) throws {
        let temporary = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temporary) }
        let output = Pipe()
        let (process, primary) = try PseudoTerminal.spawn(
            try pushctlBinary(), ["demo", "--pause"], environment: demoEnvironment.merging(["TMPDIR": temporary.path]) { $1 },
            input: true, errors: false, output: output)
        defer { close(primary) }

        var text = ""
        while !text.contains("Enter to continue") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        #expect(text.contains("Enter to continue"), "\(text)")
        let made = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.hasPrefix("pushctl-demo-") }
        #expect(made.count == 1, "\(made)")
        let work = temporary.appendingPathComponent(made.first ?? "none").path
        let key = work + "/AuthKey_DEMO123456.p8"
        #expect(FileManager.default.fileExists(atPath: key), "the demo is waiting with its key on disk")

        kill(process.processIdentifier, signalNumber)
        #expect(process.waitUntilExit(orKillAfter: 15), "the signal stops the demo")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == status)
        #expect(!FileManager.default.fileExists(atPath: work), "the key's folder is gone")
    }

    /// `demo --pause` on an 80×24 (and a 60×24) terminal: every row fits, and no more rows come
    /// between two waits than the screen holds, so nothing scrolls off before it was read.
    @Test(arguments: [80, 60])
    func demoPagesToTheScreen(columns: Int) throws {
        let (process, primary) = try PseudoTerminal.spawn(
            try pushctlBinary(), ["demo", "--pause"], environment: demoEnvironment,
            columns: columns, input: true, errors: false)
        defer { close(primary) }
        // Read what it draws; answer each wait with Enter.
        var drawn = ""
        var answered = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            var ready = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 200) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(primary, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            drawn += String(decoding: buffer[0..<n], as: UTF8.self)
            let waits = drawn.components(separatedBy: "(Enter to continue)").count - 1
            while answered < waits {
                _ = write(primary, "\n", 1)
                answered += 1
            }
        }
        #expect(process.waitUntilExit(orKillAfter: 15))
        #expect(process.terminationStatus == 0)
        #expect(answered >= 8, "it waited between steps and within long ones: \(answered)")
        let text = drawn.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(text.contains("Step 9 of 9"))
        for page in text.components(separatedBy: "(Enter to continue)") {
            let rows = page.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(rows.count <= 24, "a page of \(rows.count) rows scrolls off a 24-row screen")
            for row in rows { #expect(row.count <= columns, "\(row)") }
        }
    }
}
