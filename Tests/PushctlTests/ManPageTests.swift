import ChildProcess
import Foundation
import Testing

/// pushctl(1) as Scripts/install.sh writes it (Scripts/manpage.py over the built binaries).
@Suite struct ManPageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func page() throws -> String {
        let mock = URL(fileURLWithPath: CLI.pushctlPath).deletingLastPathComponent().appendingPathComponent("pushctl-mock").path
        let app = URL(fileURLWithPath: CLI.pushctlPath).deletingLastPathComponent().appendingPathComponent("pushctl-app").path
        let result = try CLI.run(
            "/usr/bin/env",
            [
                "python3", ManPageTests.root.appendingPathComponent("Scripts/manpage.py").path,
                CLI.pushctlPath, mock, app,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test("the page has every command, an ENVIRONMENT with every PUSHCTL_ variable the README names, our exit statuses, and only ASCII")
    func contents() throws {
        let page = try page()
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "ENVIRONMENT", "EXIT STATUS", "FILES", "SEE ALSO"] {
            #expect(page.contains(".SH \(section)\n"), "\(section)")
        }
        for command in ["send", "jwt sign", "jwt decode", "jwt verify", "key generate", "doctor", "mock", "demo", "check"] {
            #expect(page.contains(".SS \"pushctl \(command)\""), "\(command)")
        }
        #expect(page.contains("\\-\\-fail\\-first"), "the mock's own options, from pushctl-mock")
        #expect(page.contains("\\-\\-locale"), "check's own options, from pushctl-app")
        let readme = try String(contentsOf: ManPageTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        let environment = page.components(separatedBy: ".SH ENVIRONMENT")[1].components(separatedBy: ".SH EXIT STATUS")[0]
        let named = Set(readme.matches(of: /PUSHCTL_[A-Z_]+/).map { String($0.output) })
            .subtracting(["PUSHCTL_SENDER_ONLY", "PUSHCTL_CONFIGURATION"])  // Scripts/install.sh's, not pushctl's
            .subtracting(["PUSHCTL_CHROMIUM"])  // the browser test's, not pushctl's
        for variable in named where !variable.hasPrefix("PUSHCTL_CERT") {
            #expect(environment.contains(variable), "\(variable)")
        }
        #expect(environment.contains("no_proxy") && environment.contains("https_proxy"))
        let exits = page.components(separatedBy: ".SH EXIT STATUS")[1]
        for code in ["0", "1", "64", "65", "66", "69", "73", "74", "75"] {
            #expect(exits.contains(".TP\n\\fB\(code)\\fR\n"), "exit \(code)")
        }
        let ascii = page.unicodeScalars.allSatisfy { $0.isASCII }
        #expect(ascii, "non-ASCII is written as groff escapes")
        #expect(page.contains("raw r||s"), "r‖s is kept, not dropped")
        #expect(!page.contains("\n\n"), "no empty lines (groff warns about them)")
    }

    @Test("man renders it without a warning, in a UTF-8 locale and in C")
    func renders() throws {
        guard FileManager.default.isExecutableFile(atPath: Tool.path("man")) else {
            Issue.record("man is not installed: .ci/run installs man-db and groff-base (Scripts/install-deps.sh man-db groff-base)")
            return
        }
        let dir = try TemporaryDirectory()
        let file = try dir.write("pushctl.1", try page())
        for locale in ["C", "C.UTF-8"] {
            // man-db reads a local file with -l; macOS's man takes a path (one with a slash) as it is,
            // and its mandoc warns in words of its own, so only Linux's is held to no warning.
            #if os(Linux)
                let arguments = ["-l", file]
            #else
                let arguments = [file]
            #endif
            let result = try CLI.run(Tool.path("man"), arguments, env: ["MANWIDTH": "80", "LANG": locale, "LC_ALL": locale, "MANPAGER": "cat", "PAGER": "cat"])
            #expect(result.status == 0)
            #if os(Linux)
                #expect(result.stderr.isEmpty, "\(locale): \(result.stderr)")
            #endif
            #expect(result.stdout.contains("EXIT STATUS") && result.stdout.contains("ENVIRONMENT"))
            #expect(result.stdout.contains("PUSHCTL_CACHE_DIR"))
        }
    }
}
