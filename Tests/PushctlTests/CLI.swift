import ChildProcess
import Foundation
import PushCore
import PushWords
import Testing

/// Runs the built `pushctl` (or another program) and captures what a user would see.
struct CommandResult {
    let stdout: String
    let stderr: String
    let status: Int32
    /// The CPU seconds (user and system) the program used.
    var cpuSeconds = 0.0

    var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty } }
}

enum CLI {
    static let testCacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "pushctl-tests-cache-\(ProcessInfo.processInfo.processIdentifier)"
    ).path

    /// `.build/<triple>/debug/pushctl`, beside this test bundle; `PUSHCTL_BIN` overrides.
    static let pushctlPath: String = {
        if let path = ProcessInfo.processInfo.environment["PUSHCTL_BIN"] { return path }
        return BuiltProducts.path(of: "pushctl") ?? BuiltProducts.searchedFrom + "/pushctl"
    }()

    /// What a job engine sets that `--shard auto` reads: a test sets its own.
    static let engineVariables: Set<String> = [
        "CI_NODE_INDEX", "CI_NODE_TOTAL", "AWS_BATCH_JOB_ARRAY_INDEX", "AWS_BATCH_JOB_ARRAY_SIZE", "JOB_COMPLETION_INDEX",
    ]

    /// The environment tests start from: no PUSHCTL_* from the developer's shell (nor a job
    /// engine's shard variables), no colour.
    static var baseEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PUSHCTL_") && !engineVariables.contains($0.key) }
        env["NO_COLOR"] = "1"
        env["PUSHCTL_CACHE_DIR"] = testCacheDirectory  // never the developer's ~/.cache
        return env
    }

    @discardableResult
    static func pushctl(
        _ arguments: [String], stdin: String? = nil, env: [String: String] = [:], in directory: URL? = nil,
        ceiling: Double = 300, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CommandResult {
        try run(pushctlPath, arguments, stdin: stdin, env: env, in: directory, ceiling: ceiling, sourceLocation: sourceLocation)
    }

    /// Runs `program` to its end, or for at most `ceiling` seconds (then it is killed and the test fails).
    /// With `failAtCeiling: false` a program killed at its ceiling is only what it printed (a browser
    /// that hangs on a cold start is tried again by its caller).
    static func run(
        _ program: String, _ arguments: [String], stdin: String? = nil, stdinData: Data? = nil,
        env: [String: String] = [:], in directory: URL? = nil, ceiling: Double = 300, failAtCeiling: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CommandResult {
        let process = Process()
        process.ceiling = ceiling
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = baseEnvironment.merging(env) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let data = stdinData ?? stdin.map({ Data($0.utf8) }) { input.fileHandleForWriting.write(data) }
        try input.fileHandleForWriting.close()
        // Read both pipes before waiting, so a chatty program cannot block on a full pipe.
        let outData = PipeReader(out)
        let errData = PipeReader(err)
        process.waitUntilExit()
        // A grandchild that kept the pipes open (a browser's helpers) does not hold the test up.
        let deadline = Date().addingTimeInterval(10)
        for reader in [outData, errData] { _ = reader.finished.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) }
        if process.exceededCeiling && failAtCeiling {
            Issue.record("\(program) \(arguments.prefix(6).joined(separator: " ")) ran past \(Int(ceiling)) s and was killed", sourceLocation: sourceLocation)
        }
        return CommandResult(
            stdout: String(decoding: outData.data, as: UTF8.self), stderr: String(decoding: errData.data, as: UTF8.self),
            status: process.terminationStatus, cpuSeconds: process.cpuSeconds)
    }
}

/// Reads a pipe to its end on a thread of its own; `data` is what arrived so far.
final class PipeReader: @unchecked Sendable {
    let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var bytes = Data()
    var data: Data { lock.withLock { bytes } }

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock { bytes += chunk }
            }
            finished.signal()
        }.start()
    }
}

/// A fresh temporary directory, removed when the value goes away.
final class TemporaryDirectory {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("pushctl-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    @discardableResult
    func write(_ name: String, _ text: String, mode: Int = 0o600) throws -> String {
        let path = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    /// Runs the `openssl` command line in this directory (an implementation nobody here wrote).
    @discardableResult
    func openssl(_ arguments: [String], stdin: Data? = nil) throws -> CommandResult {
        let result = try CLI.run("/usr/bin/env", ["openssl"] + arguments, stdinData: stdin, in: url)
        #expect(result.status == 0, "openssl \(arguments.joined(separator: " ")): \(result.stderr)")
        return result
    }

    /// A test key made by `pushctl key generate`.
    func generateKey(id: String = "ABC123DEFG") throws -> String {
        let result = try CLI.pushctl(["key", "generate", "--key-id", id, "--out", url.path])
        #expect(result.status == 0, "\(result.stderr)")
        return path("AuthKey_\(id).p8")
    }
}

/// What a long-running child printed up to `marker` (or until it closed its output): a mock's banner.
func read(_ pipe: Pipe, until marker: String) -> String {
    var text = ""
    while !text.contains(marker) {
        let chunk = pipe.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        text += String(decoding: chunk, as: UTF8.self)
    }
    return text
}

/// Starts a long-running program (a mock) and reads its output up to `marker`; the caller kills it.
func start(
    _ program: String, _ arguments: [String], env: [String: String] = [:], in directory: URL? = nil,
    until marker: String = "Ctrl-C stops it."
) throws -> (process: Process, printed: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.environment = CLI.baseEnvironment.merging(env) { $1 }
    process.currentDirectoryURL = directory
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    return (process, read(out, until: marker))
}

/// The keys of a JSON object as written, in order (a dictionary would lose the order).
enum ResultShape {
    /// What every result object says after what it is for, in this order (`<id>` aside).
    static let answer = ["status", "outcome", "<id>", "apnsUniqueId", "reason", "timestamp", "explanation", "attempts"]

    static func keys(_ text: String) -> [String] {
        guard case .object(let fields)? = try? JSONValue.parse(text) else { return [] }
        return fields.map(\.0)
    }

    /// `keys` with the answer's id key written `<id>`.
    static func shape(_ text: String) -> [String] {
        keys(text).map { $0 == "apnsId" || $0 == "apnsRequestId" ? "<id>" : $0 }
    }
}
