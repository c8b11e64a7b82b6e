import ChildProcess
import Foundation
import NIOConcurrencyHelpers
import PushCore
import PushSystem
import PushWords
import Testing

@testable import PushMock

/// What the mock and the demo write is never written through a link someone planted: the file the
/// link points at stays as it was, and where the mock refuses, it says which file and why.
@Suite("the mock's and the demo's files, through planted links")
struct MockFileLinkTests {
    static let victimText = "someone else's file\n"

    /// A folder with `victim.txt` (another user's file, say) and `link` pointing at it.
    static func plantedLink() throws -> (folder: URL, victim: String, link: String) {
        let folder = try makeTemporaryDirectory()
        let victim = folder.appendingPathComponent("victim.txt").path
        try victimText.write(toFile: victim, atomically: true, encoding: .utf8)
        let link = folder.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        return (folder, victim, link)
    }

    var environment: [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PUSHCTL_") }.merging(["NO_COLOR": "1"]) { $1 }
    }

    @Test(
        "--ca-out and --log naming a symbolic link are refused (73), saying which file and why, in English and Spanish; the linked file is unchanged",
        arguments: [
            ("--ca-out", "en", "cannot write the CA certificate 'LINK': it is a symbolic link (ELOOP), and the mock never writes through one"),
            ("--log", "en", "cannot write the log file 'LINK': it is a symbolic link (ELOOP), and the mock never writes through one"),
            ("--ca-out", "es", "no se puede escribir el certificado de la CA 'LINK': es un enlace simbólico (ELOOP)"),
            ("--log", "es", "no se puede escribir el archivo de registro 'LINK': es un enlace simbólico (ELOOP)"),
        ])
    func linkRefused(_ option: String, _ language: String, _ message: String) throws {
        let (folder, victim, link) = try Self.plantedLink()
        defer { try? FileManager.default.removeItem(at: folder) }
        var arguments = ["mock", "--port", "0", option, link]
        if option == "--log" { arguments += ["--ca-out", folder.appendingPathComponent("ca.pem").path] }
        let result = try runTool(try pushctlBinary(), arguments, environment: environment.merging(["PUSHCTL_LANG": language]) { $1 })
        #expect(result.status == 73, "\(result.stderr)")
        let stderr = result.stderr.replacingOccurrences(of: "\n  ", with: " ")
        #expect(stderr.contains(message.replacingOccurrences(of: "LINK", with: link)), "\(result.stderr)")
        #expect(result.text.isEmpty, "nothing starts")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == Self.victimText)
        #expect(FileSystem.linkStatus(link)?.kind == .symbolicLink, "the link itself is left alone")
    }

    @Test(
        "without --ca-out the CA goes into a new private folder (0700) in TMPDIR, not to a link planted at the old predictable name; the folder goes at the end"
    )
    func defaultCAInPrivateFolder() throws {
        let (folder, victim, _) = try Self.plantedLink()
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try #require(Sockets.freeLoopbackPort())
        let planted = folder.appendingPathComponent("pushctl-mock-\(port)-ca.pem").path
        try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: victim)
        var environment = environment
        environment["TMPDIR"] = folder.path
        environment["XDG_RUNTIME_DIR"] = nil
        let (process, banner) = try Self.startMock(["--port", String(port)], environment: environment)
        let caPath = try #require(banner.firstMatch(of: /--cacert (\S+)/).map { String($0.output.1) }, "\(banner)")
        let caFolder = (caPath as NSString).deletingLastPathComponent
        #expect(caFolder.hasPrefix(folder.path + "/pushctl-mock-\(port)-") && caPath.hasSuffix("/mock-ca.pem"), "\(caPath)")
        #expect(FileSystem.linkStatus(caFolder)?.kind == .directory)
        #expect(FileSystem.linkStatus(caFolder)?.permissions == 0o700)
        #expect(try String(contentsOfFile: caPath, encoding: .utf8).hasPrefix("-----BEGIN CERTIFICATE-----"))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == Self.victimText)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(FileSystem.linkStatus(caFolder) == nil, "the private folder is removed at the end")
        #expect(FileSystem.linkStatus(planted)?.kind == .symbolicLink)
    }

    @Test("$XDG_RUNTIME_DIR holds the CA's folder when it is the user's own and private (0700), never when others may write it")
    func runtimeFolder() throws {
        let base = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let runtime = base.appendingPathComponent("runtime")
        let temporary = base.appendingPathComponent("tmp")
        for (folder, mode) in [(runtime, 0o700), (temporary, 0o700)] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: mode])
        }
        for (mode, expected) in [(0o700, runtime), (0o777, temporary)] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: runtime.path)
            var environment = environment
            environment["TMPDIR"] = temporary.path
            environment["XDG_RUNTIME_DIR"] = runtime.path
            let (process, banner) = try Self.startMock(["--port", "0"], environment: environment)
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            #expect(banner.contains("--cacert \(expected.path)/pushctl-mock-"), "mode \(String(mode, radix: 8)): \(banner)")
        }
    }

    /// `pushctl mock ARGUMENTS` with `environment` (nil: this process's), its banner read up to "Ctrl-C".
    static func startMock(_ arguments: [String], environment: [String: String]? = nil) throws -> (Process, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try pushctlBinary())
        process.arguments = ["mock"] + arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        while !text.contains("Ctrl-C") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return (process, text)
    }
}

// The next process ids are read from Linux's /proc; the folder's code is the same on macOS.
#if os(Linux)
    extension MockFileLinkTests {
        @Test(
            "pushctl demo makes a new private folder: links planted at /tmp/pushctl-demo-PID for the coming process ids are not followed")
        func demoFolder() throws {
            let (folder, _, _) = try Self.plantedLink()
            defer { try? FileManager.default.removeItem(at: folder) }
            let elsewhere = folder.appendingPathComponent("elsewhere")
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
            let last = try #require(
                Int(try String(contentsOfFile: "/proc/sys/kernel/ns_last_pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
            let planted = (last + 1)...(last + 3000)
            for pid in planted {
                try FileManager.default.createSymbolicLink(
                    atPath: folder.appendingPathComponent("pushctl-demo-\(pid)").path, withDestinationPath: elsewhere.path)
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try pushctlBinary())
            process.arguments = ["demo"]
            process.environment = environment.merging(["TMPDIR": folder.path]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let pid = Int(process.processIdentifier)
            #expect(process.waitUntilExit(orKillAfter: 120))
            #expect(process.terminationStatus == 0)
            #expect(planted.contains(pid), "the demo's process id \(pid) was among the planted ones (\(planted))")
            #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty, "nothing was written through a link")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                $0.hasPrefix("pushctl-demo-") && FileSystem.linkStatus(folder.appendingPathComponent($0).path)?.kind != .symbolicLink
            }
            #expect(left.isEmpty, "the demo's own folder is gone: \(left)")
        }
    }
#endif

@Suite struct LogRotationTests {
    /// 100 bytes with its newline.
    static func line(_ n: Int) -> String { "{\"n\":\(String(format: "%05d", n)),\"fill\":\"" + String(repeating: "x", count: 80) + "\"}" }

    @Test("--log is rotated at its size: the full file becomes PATH.1 (the one before it replaced), a new one starts, the latest lines kept")
    func rotates() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("log.jsonl").path
        let log = try LogFile(path: path, sizeLimit: 1000)
        for n in 0..<35 {
            log.append(Self.line(n))
            log.flushNow()
        }
        log.close()
        let current = try String(contentsOfFile: path, encoding: .utf8)
        let previous = try String(contentsOfFile: path + ".1", encoding: .utf8)
        #expect(current == (30..<35).map { Self.line($0) + "\n" }.joined(), "\(current)")
        #expect(previous == (20..<30).map { Self.line($0) + "\n" }.joined(), "\(previous)")
        #expect(!FileManager.default.fileExists(atPath: path + ".2"))
    }

    @Test("a link someone puts at the log's path before its rotation is moved aside with the old log, never written through; the new log is a file of its own")
    func rotationMovesALinkAside() throws {
        let (folder, victim, _) = try MockFileLinkTests.plantedLink()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("log.jsonl").path
        let problems = NIOLockedValueBox<[MockWarning]>([])
        let log = try LogFile(path: path, sizeLimit: 300) { warning in problems.withLockedValue { $0.append(warning) } }
        for n in 0..<3 {
            log.append(Self.line(n))
            log.flushNow()
        }
        // Full: the next write rotates. Someone swaps the log for a link first.
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: victim)
        for n in 3..<6 {
            log.append(Self.line(n))
            log.flushNow()
        }
        log.close()
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == MockFileLinkTests.victimText)
        #expect(FileSystem.linkStatus(path)?.kind == .regular)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == (3..<6).map { Self.line($0) + "\n" }.joined())
        #expect(FileSystem.linkStatus(path + ".1")?.kind == .symbolicLink)
        #expect(problems.withLockedValue { $0 }.isEmpty)
    }
}
