import Foundation
import PushSystem
import Testing

/// A `pushctl mock` process on loopback (real TLS + HTTP/2), with its log, for end-to-end tests.
final class MockProcess {
    let process = Process()
    let url: String
    /// What the mock printed when it started (up to "Ctrl-C stops it." or, in Spanish, "Ctrl-C lo detiene.").
    let startup: String
    let caFile: String
    let logFile: String
    let keyFile: String
    let dir: TemporaryDirectory

    /// `keyFile`: a key another mock already uses (two mocks playing sandbox and production).
    /// `errors`: a file its standard error goes to (else nowhere).
    init(dir: TemporaryDirectory, extra: [String] = [], keyFile existingKey: String? = nil, env: [String: String] = [:], errors: String? = nil) throws {
        self.dir = dir
        keyFile = try existingKey ?? dir.generateKey()
        caFile = dir.path("mock-ca.pem")
        logFile = dir.path("mock.log")
        process.executableURL = URL(fileURLWithPath: CLI.pushctlPath)
        process.arguments =
            [
                "mock", "--port", "0", "--ca-out", caFile, "--log", logFile, "--key-file", keyFile,
                "--team-id", "DEF123GHIJ",
            ] + extra
        process.environment = CLI.baseEnvironment.merging(env) { $1 }
        let out = Pipe()
        process.standardOutput = out
        if let errors {
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        // The whole start-up text: its first line names the URL, with the port the system chose.
        // A mock that says nothing for 20 s is killed, which ends the read below.
        let started = DispatchSemaphore(value: 0)
        let child = process.processIdentifier
        DispatchQueue.global().async {
            if started.wait(timeout: .now() + 20) == .timedOut { kill(child, SIGKILL) }
        }
        defer { started.signal() }
        startup = read(out, until: "Ctrl-C")
        guard let range = startup.range(of: "https://[^ ]+:[0-9]+", options: .regularExpression) else {
            kill(process.processIdentifier, SIGKILL)
            throw CLIError("pushctl mock did not start: \(startup)")
        }
        url = String(startup[range])
    }

    deinit {
        if process.isRunning {
            // SIGKILL: a sandbox may start processes with SIGTERM ignored.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// `send` with this mock as the endpoint and the generated key.
    func send(_ arguments: [String], stdin: String? = nil, env: [String: String] = [:]) throws -> CommandResult {
        try CLI.pushctl(
            [
                "send", "--endpoint", url, "--cacert", caFile, "--key-file", keyFile, "--team-id", "DEF123GHIJ",
                "--topic", "com.example.app",
            ] + arguments, stdin: stdin, env: env)
    }

    /// The requests the mock received, as JSON objects; waits (briefly) for `count` of them,
    /// since the mock writes its log off the request path.
    func requests(count: Int = 0) throws -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(5)
        while true {
            let lines = (FileManager.default.contents(atPath: logFile).map { String(decoding: $0, as: UTF8.self) } ?? "")
                .split(separator: "\n")
            if lines.count >= count || Date() > deadline {
                return try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            }
            usleep(20_000)
        }
    }
}

extension MockProcess {
    static let markerPrefix = "fefefefe"

    /// Who sends the marker: pushctl (which must be accepted), or curl, for a mock that answers
    /// every request with an error (it still logs every request it reads).
    enum MarkerSender { case pushctl, curl }

    /// Every request the mock received before now, in order, markers aside: a marker request is
    /// sent and awaited in the log (the mock writes its log in batches, so a log read at once can
    /// miss a request that did arrive; a check that nothing was sent must not pass by that).
    func requestsSoFar(markerBy sender: MarkerSender = .pushctl) throws -> [[String: Any]] {
        let marker = MockProcess.markerPrefix + String(format: "%056llx", UInt64.random(in: 0...UInt64.max))
        switch sender {
        case .pushctl:
            let sent = try send(["--device-token", marker, "--title", "marker"])
            guard sent.status == 0 else { throw CLIError("the marker request was refused: \(sent.stderr)") }
        case .curl:
            _ = try curl([
                "--http2", "-sS", "-o", "/dev/null", "--cacert", caFile, "-H", "apns-topic: com.example.app",
                "--data-binary", #"{"aps":{"alert":"marker"}}"#, "\(url)/3/device/\(marker)",
            ])
        }
        let deadline = Date().addingTimeInterval(10)
        func token(_ request: [String: Any]) -> String { (request["path"] as? String).map { String($0.dropFirst("/3/device/".count)) } ?? "" }
        while Date() < deadline {
            let all = try requests()
            if let index = all.firstIndex(where: { token($0) == marker }) {
                return all[..<index].filter { !token($0).hasPrefix(MockProcess.markerPrefix) }
            }
            usleep(20_000)
        }
        throw CLIError("the marker request never reached the mock's log")
    }
}

struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let sampleToken = String(repeating: "a1", count: 32)
let otherToken = String(repeating: "b2", count: 32)
