import ChildProcess
import Foundation
import Testing

/// Every `console` example of the README, run as a reader would type it, so none can go stale: the
/// key and the mock come from "Your first push" (its `sh` block), the commands from README.md
/// itself, run in order in one shell, on a terminal, against that mock.
@Suite struct ReadmeJourneyTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The fenced blocks of a README section (or of the whole README), in order: (language, lines).
    static func blocks(in section: String? = nil) throws -> [(String, [String])] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var body = Substring(readme)
        if let section {
            let start = try #require(readme.range(of: "## \(section)\n"), "README.md has no section \(section)")
            body = Substring(readme[start.upperBound...].components(separatedBy: "\n## ").first ?? "")
        }
        var blocks: [(String, [String])] = []
        var current: (String, [String])?
        for line in body.components(separatedBy: "\n") {
            if line.hasPrefix("```") {
                if let open = current {
                    blocks.append(open)
                    current = nil
                } else {
                    current = (String(line.dropFirst(3)), [])
                }
            } else if current != nil {
                current?.1.append(line)
            }
        }
        return blocks
    }

    /// A console block's commands (`$ ` lines with their `\` continuations), each with the lines
    /// the README shows it printing.
    static func commands(_ lines: [String]) -> [(command: String, output: [String])] {
        var commands: [(command: String, output: [String])] = []
        var continuing = false
        for line in lines {
            if line.hasPrefix("$ ") {
                commands.append((String(line.dropFirst(2)), []))
            } else if continuing, !commands.isEmpty {
                commands[commands.count - 1].command += "\n" + line
            } else if !commands.isEmpty, !line.isEmpty {
                commands[commands.count - 1].output.append(line)
            }
            continuing = line.hasPrefix("$ ") || continuing ? line.hasSuffix("\\") : false
        }
        return commands
    }

    /// Lines of an `sh` block with their `\` continuations joined.
    static func joined(_ lines: [String]) -> [String] {
        var out: [String] = []
        var continuing = false
        for line in lines {
            if continuing, let last = out.popLast() {
                out.append(String(last.dropLast()) + line.trimmingCharacters(in: .whitespaces))
            } else {
                out.append(line)
            }
            continuing = line.hasSuffix("\\")
        }
        return out
    }

    /// A line as the README shows it and as pushctl prints it, ids, times, the port, libcurl's
    /// version and column padding aside.
    static func shape(_ line: String) -> String {
        line.replacing(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, with: "UUID")
            .replacing(/[0-9a-f]{8}…/, with: "ID…")
            .replacing(/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} UTC/, with: "DATE")
            .replacing(/[0-9]+ ms/, with: "N ms")
            .replacing(/127\.0\.0\.1:[0-9]+/, with: "127.0.0.1:PORT")
            .replacing(/libcurl [0-9.]+/, with: "libcurl V").replacing(/OpenSSL\/[0-9.]+[a-z]*/, with: "OpenSSL/V")
            .replacing(/\ +/, with: " ")
    }

    @Test(
        "every console example of the README, run after the key and the mock of \"Your first push\" as printed, prints what the README shows and exits as it says"
    )
    func consoleExamples() throws {
        let setUp = Self.joined(try #require(try Self.blocks(in: "Your first push").first { $0.0 == "sh" }?.1, "an sh block with the key and the mock"))
        let keyLine = try #require(setUp.first { $0.hasPrefix("pushctl key generate") })
        let mockLine = try #require(setUp.first { $0.hasPrefix("pushctl mock") })
        let examples = try Self.blocks().filter { $0.0 == "console" }.flatMap { Self.commands($0.1) }
        #expect(examples.count >= 4, "\(examples)")

        let folder = try TemporaryDirectory()
        let bin = URL(fileURLWithPath: CLI.pushctlPath).deletingLastPathComponent().path
        let env = ["PATH": bin + ":/usr/bin:/bin"]
        let key = try CLI.run("/bin/bash", ["-c", keyLine], env: env, in: folder.url)
        #expect(key.status == 0, "\(keyLine): \(key.stderr)")

        // The mock as the README starts it, on a free port instead of 8443.
        let mockCommand = mockLine.components(separatedBy: " #").first!.replacingOccurrences(of: "--port 8443", with: "--port 0")
        let (mock, banner) = try start("/bin/bash", ["-c", "exec " + mockCommand], env: env, in: folder.url)
        defer { kill(mock.processIdentifier, SIGKILL) }
        let url = try #require(banner.firstMatch(of: /https:\/\/127\.0\.0\.1:[0-9]+/).map { String($0.output) }, "\(banner)")

        // On a terminal wide enough for the README's lines, as the reader runs them, one shell
        // for all (a variable set in one example is there in the next); each command is marked.
        var script = ""
        for (number, example) in examples.enumerated() {
            script += "printf '[command %d]\\n' \(number)\n"
            script += example.command.replacingOccurrences(of: "https://127.0.0.1:8443", with: url) + "\n"
            script += "printf '[exit %d]\\n' $?\n"
        }
        let (shell, primary) = try PseudoTerminal.spawn(
            "/bin/bash", ["-c", script],
            environment: CLI.baseEnvironment.merging(env) { $1 }, directory: folder.url, columns: 250)
        defer { close(primary) }
        let drawn = String(decoding: PseudoTerminal.readAll(primary, seconds: 90), as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        #expect(shell.waitUntilExit(orKillAfter: 30) && shell.terminationStatus == 0, "\(script)\n\(drawn)")

        for (number, example) in examples.enumerated() {
            let printed =
                drawn.components(separatedBy: "[command \(number)]\n").dropFirst().first?
                .components(separatedBy: "\n").filter { !$0.isEmpty } ?? []
            let status = printed.first { $0.hasPrefix("[exit ") }
            let lines = printed.prefix { !$0.hasPrefix("[exit ") }.map(Self.shape)
            // A refusal (✗) exits 1, as the README says; everything else 0.
            let expected = example.output.contains { $0.hasPrefix("✗ ") } ? 1 : 0
            #expect(status == "[exit \(expected)]", "\(example.command): \(printed)")
            // Each line shown comes out, in order; "…" stands for lines the README leaves out.
            let shown = example.output.filter { $0 != "…" }.map(Self.shape)
            var rest = lines[...]
            for line in shown {
                guard let at = rest.firstIndex(of: line) else {
                    Issue.record("README shows \(line) after \(example.command); pushctl printed \(lines)")
                    break
                }
                rest = rest[(at + 1)...]
            }
            if !example.output.contains("…") { #expect(lines.count == shown.count, "\(example.command) printed \(lines)") }
        }
    }
}
