import Foundation
import Testing

/// Every command's `--help` and the three completion scripts, compared whole with the files in
/// `Snapshots/` (the habit of swift-argument-parser's own tests): a change to what people read is
/// made on purpose, and shows in the diff. After such a change, write them again with
/// `PUSHCTL_UPDATE_SNAPSHOTS=1 swift test --skip-build --filter HelpSnapshotTests` and read the diff.
@Suite struct HelpSnapshotTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
    static var updating: Bool { ProcessInfo.processInfo.environment["PUSHCTL_UPDATE_SNAPSHOTS"] == "1" }

    static let commands: [[String]] = [
        [], ["send"], ["report"], ["jwt"], ["jwt", "sign"], ["jwt", "decode"], ["jwt", "verify"], ["key"], ["key", "generate"], ["doctor"],
        ["mock"], ["demo"], ["cert"], ["cert", "inspect"], ["cert", "generate"], ["channel"], ["channel", "create"],
        ["channel", "list"], ["channel", "read"], ["channel", "delete"],
    ]

    func compare(_ text: String, with name: String) throws {
        let file = Self.folder.appendingPathComponent(name)
        if Self.updating {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
            return
        }
        let expected = try #require(
            try? String(contentsOf: file, encoding: .utf8),
            "no snapshot \(name): write it with PUSHCTL_UPDATE_SNAPSHOTS=1 and check it in")
        guard text != expected else { return }
        let got = text.split(separator: "\n", omittingEmptySubsequences: false)
        let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let first = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, want.count)
        Issue.record(
            """
            \(name) differs from what pushctl prints, first at line \(first + 1):
              snapshot: \(first < want.count ? String(want[first]) : "(end)")
              printed:  \(first < got.count ? String(got[first]) : "(end)")
            if the change is meant, write the snapshots again (PUSHCTL_UPDATE_SNAPSHOTS=1) and check the diff in
            """)
    }

    @Test("each command's --help is exactly its snapshot", arguments: commands)
    func help(_ command: [String]) throws {
        // Any language: help is English, and a Spanish locale must not change it.
        let result = try CLI.pushctl(command + ["--help"], env: ["COLUMNS": "80", "LANG": "es_ES.UTF-8"])
        #expect(result.status == 0)
        try compare(result.stdout, with: (["pushctl"] + command).joined(separator: "-") + ".txt")
    }

    @Test("each completion script is exactly its snapshot", arguments: ["bash", "zsh", "fish"])
    func completion(_ shell: String) throws {
        let result = try CLI.pushctl(["--generate-completion-script", shell])
        #expect(result.status == 0)
        try compare(result.stdout, with: "completion.\(shell)")
    }
}
