import ChildProcess
import Foundation
import Testing

/// The README's first journey, run as a reader would type it, so it cannot go stale: its commands
/// come from README.md itself and run through bash against the mock it starts.
@Suite struct ReadmeJourneyTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The fenced blocks of a README section, in order: (language, lines).
    static func blocks(in section: String) throws -> [(String, [String])] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "## \(section)\n"), "README.md has no section \(section)")
        let body = readme[start.upperBound...].components(separatedBy: "\n## ").first ?? ""
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

    /// The commands of a `console` block: `$ ` lines with their `\` continuations.
    static func commands(_ lines: [String]) -> [String] {
        var commands: [String] = []
        var continuing = false
        for line in lines {
            if line.hasPrefix("$ ") {
                commands.append(String(line.dropFirst(2)))
            } else if continuing, var last = commands.popLast() {
                last += "\n" + line
                commands.append(last)
            } else {
                continue
            }
            continuing = line.hasSuffix("\\")
        }
        return commands
    }

    @Test("\"Your first push\": the key, the mock and the send, as printed in the README, work, and print what it shows")
    func firstPush() throws {
        let blocks = try Self.blocks(in: "Your first push")
        let setUp = try #require(blocks.first { $0.0 == "sh" }?.1, "an sh block with the key and the mock")
        let keyLine = try #require(setUp.first { $0.hasPrefix("pushctl key generate") })
        let mockLine = try #require(setUp.first { $0.hasPrefix("pushctl mock") })
        let console = try #require(blocks.first { $0.0 == "console" }?.1)
        let typed = Self.commands(console)
        #expect(typed.count >= 2, "\(console)")

        let folder = try TemporaryDirectory()
        let bin = URL(fileURLWithPath: CLI.pushctlPath).deletingLastPathComponent().path
        let env = ["PATH": bin + ":/usr/bin:/bin"]
        let key = try CLI.run("/bin/bash", ["-c", keyLine], env: env, in: folder.url)
        #expect(key.status == 0, "\(keyLine): \(key.stderr)")

        // The mock as the README starts it, on a free port instead of 8443.
        let mockCommand = mockLine.components(separatedBy: "#").first!.replacingOccurrences(of: "--port 8443", with: "--port 0")
        let (mock, banner) = try start("/bin/bash", ["-c", "exec " + mockCommand], env: env, in: folder.url)
        defer { kill(mock.processIdentifier, SIGKILL) }
        let url = try #require(banner.firstMatch(of: /https:\/\/127\.0\.0\.1:[0-9]+/).map { String($0.output) }, "\(banner)")

        // On a terminal, as the reader runs it.
        let script = typed.joined(separator: "\n").replacingOccurrences(of: "https://127.0.0.1:8443", with: url)
        let (shell, primary) = try PseudoTerminal.spawn("/bin/bash", ["-c", "set -e\n" + script],
                                                        environment: CLI.baseEnvironment.merging(env) { $1 }, directory: folder.url, columns: 100)
        defer { close(primary) }
        let drawn = String(decoding: PseudoTerminal.readAll(primary, seconds: 60), as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        #expect(shell.waitUntilExit(orKillAfter: 30) && shell.terminationStatus == 0, "\(script)\n\(drawn)")
        // Each line the README shows comes out the same, ids and times aside.
        func shape(_ line: String) -> String {
            line.replacing(/[0-9a-f]{8}…/, with: "ID…").replacing(/in [0-9]+ ms/, with: "in N ms")
        }
        let printed = Set(drawn.components(separatedBy: "\n").map(shape))
        for line in console where !line.hasPrefix("$ ") && !line.hasPrefix("    ") && !line.isEmpty {
            #expect(printed.contains(shape(line)), "README shows \(line); pushctl printed \(drawn)")
        }
    }
}
