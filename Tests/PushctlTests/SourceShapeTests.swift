import Foundation
import Testing

/// The shape the sources keep (CONTRIBUTING.md), as concepts a change can break: the command line
/// reaches no C-backed module, no library spells a flag, no comment keeps a diary. (Line counts
/// were retired: an 80-line budget parked functions at 79 lines and moved code to the wrong
/// place; review judges length.)
@Suite struct SourceShapeTests {
    @Test("the command line stays thin: Sources/pushctl imports neither PushCurl nor PushCrypto (the engine holds the application)")
    func commandLineStaysThin() throws {
        let files = try WordsCatalogTests.swiftFiles().filter { $0.0.hasPrefix("pushctl/") }
        #expect(files.count >= 10, "the scan found the command line's files")
        let imports = files.filter { $0.1.contains("import PushCurl") || $0.1.contains("import PushCrypto") }.map(\.0)
        #expect(imports.isEmpty, "these reach past the engine: \(imports)")
    }

    @Test("comments explain, they keep no diary: no instruction count or profiler figure in a comment (the benchmarks' table keeps numbers)")
    func commentsKeepNoDiary() throws {
        let diary = /\/\/.*(?:\binstructions\b|\bcallgrind\b|\d+(?:\.\d+)? ?M of )/
        var found: [String] = []
        for (path, text) in try WordsCatalogTests.swiftFiles() {
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.firstMatch(of: diary) != nil {
                found.append("\(path):\(index + 1)")
            }
        }
        #expect(found.isEmpty, "say why, not how many instructions: \(found.joined(separator: "; "))")
    }

    @Test("no library string names a flag: the libraries say which Setting, the command line names it once (FlagNames)")
    func librariesNameNoFlag() throws {
        let libraries = ["PushCore/", "PushWords/", "PushFiles/", "PushCrypto/", "PushCurl/", "PushEngine/", "PushMock/", "PushApp/"]
        let literal = /"((?:[^"\\]|\\.)*)"/
        let flag = /(?:^|[\s(\/`'])--[a-z][a-z-]+/
        var found: [String] = []
        var scanned = 0
        for (path, text) in try WordsCatalogTests.swiftFiles() where libraries.contains(where: { path.hasPrefix($0) }) {
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                for match in line.matches(of: literal) {
                    scanned += 1
                    let content = match.output.1
                    // A command quoted for people to type (the web view's "pushctl send --endpoint …") is an example, not a hint.
                    if content.contains("pushctl send ") || content.contains("xcode-select --install") { continue }
                    // The dry run's curl command: these flags are curl's.
                    if path == "PushEngine/Run/DryRun.swift",
                        content.matches(of: flag).allSatisfy({
                            Self.curlFlags.contains(String($0.output).trimmingCharacters(in: CharacterSet(charactersIn: " (/`'")))
                        })
                    {
                        continue
                    }
                    if content.firstMatch(of: flag) != nil { found.append("\(path):\(index + 1) \(content.prefix(60))") }
                }
            }
        }
        #expect(scanned > 1_000, "the scan read the libraries' strings")
        #expect(found.isEmpty, "say it with a Setting: \(found.joined(separator: "; "))")
    }

    /// The curl options `--dry-run` prints in its curl form of the request (`--http2` matches as `--http`).
    static let curlFlags: Set<String> = [
        "--http", "--request", "--cacert", "--proxy", "--proxy-user", "--cert-type", "--cert", "--key", "--header", "--data-binary",
    ]
}
