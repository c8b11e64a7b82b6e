import Foundation
import Testing

/// pushctl carries no server: `mock` and `demo` run pushctl-mock from beside it.
@Suite struct CompanionTests {
    let dir = try! TemporaryDirectory()

    @Test("pushctl mock and demo run pushctl-mock from pushctl's folder, arguments and exit status passed through")
    func handsOver() throws {
        let help = try CLI.pushctl(["mock", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--answer-status"), "the mock's own help, not a stub's")
        let bad = try CLI.pushctl(["mock", "--port", "70000"])
        #expect(bad.status == 64, "the mock's own validation and exit status")
        let demoHelp = try CLI.pushctl(["demo", "--help"])
        #expect(demoHelp.stdout.contains("--pause"))
    }

    /// `pushctl --lang es demo` used to run nothing and exit 0: the hand-over looked only at the
    /// first word, and the stub it fell through to has no body.
    @Test("pushctl's --lang before mock or demo still hands over, and the language reaches pushctl-mock")
    func languageFirst() throws {
        let bad = try CLI.pushctl(["--lang", "es", "mock", "--port", "70000"])
        #expect(bad.status == 64, "\(bad.stderr)")
        #expect(bad.stderr.contains("--port debe estar entre 0 y 65535"), "the mock's own validation, in Spanish: \(bad.stderr)")
        let english = try CLI.pushctl(["--lang=en", "mock", "--port", "70000"])
        #expect(english.status == 64)
        #expect(english.stderr.contains("--port must be between 0 and 65535"), "\(english.stderr)")
        let help = try CLI.pushctl(["--lang", "es", "demo", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--pause"), "the demo's own help, not the mock's: \(help.stdout)")
    }

    @Test("without pushctl-mock beside it or on PATH: a clear message saying how to get it, exit 69")
    func missing() throws {
        let lonely = dir.path("pushctl")
        // Copied by cp, not in this process: a test process that forks elsewhere while holding the
        // new file open for writing would make running it fail with "Text file busy".
        #expect(try CLI.run("/bin/cp", [CLI.pushctlPath, lonely]).status == 0)
        let result = try CLI.run(lonely, ["mock", "--port", "0"], env: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("pushctl-mock, which is not installed beside pushctl"), "\(result.stderr)")
        #expect(result.stderr.contains("swift build --product pushctl-mock"))
        // Sending needs no companion.
        let version = try CLI.run(lonely, ["--version"], env: ["PATH": "/usr/bin:/bin"])
        #expect(version.status == 0)
    }

    @Test("the sender links no server: no SwiftNIO or BoringSSL symbols in pushctl")
    func senderCarriesNoServer() throws {
        let symbols = try CLI.run(
            "/usr/bin/env", ["sh", "-c", "nm -C '\(CLI.pushctlPath)' 2>/dev/null | grep -c -E 'NIOCore|NIOPosix|NIOSSL|BoringSSL|CNIOBoringSSL' || true"])
        #expect(symbols.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "pushctl links the server's libraries")
        // The same check finds them in pushctl-mock, so it can tell.
        let mock = URL(fileURLWithPath: CLI.pushctlPath).deletingLastPathComponent().appendingPathComponent("pushctl-mock").path
        let inMock = try CLI.run(
            "/usr/bin/env", ["sh", "-c", "nm -C '\(mock)' 2>/dev/null | grep -c -E 'NIOCore|NIOPosix|NIOSSL|BoringSSL|CNIOBoringSSL' || true"])
        #expect((Int(inMock.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 0)
    }
}
