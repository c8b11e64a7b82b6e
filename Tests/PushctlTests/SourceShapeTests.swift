import Foundation
import Testing

/// The shape the sources keep (CONTRIBUTING.md): no function body over 80 lines, so each reads
/// at once. Counted from a declaration's line to its closing brace, strings and comments aside.
@Suite struct SourceShapeTests {
    static let longest = 80

    @Test("no function, initialiser or computed property in Sources is longer than 80 lines")
    func functionsStayShort() throws {
        let declaration =
            /^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|static|class|override|mutating|nonisolated|final|convenience|required)\s+)*(?:func\s+\S|init[?(]|init\s*<|deinit\b|var\s+\w+\s*:[^=]*\{\s*$)/
        var long: [String] = []
        for (path, text) in try WordsCatalogTests.swiftFiles() {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where line.firstMatch(of: declaration) != nil {
                if let length = Self.bodyLength(lines, from: index), length > Self.longest {
                    long.append("\(path):\(index + 1) \(line.trimmingCharacters(in: .whitespaces).prefix(60)) — \(length) lines")
                }
            }
        }
        #expect(long.isEmpty, "split these where their steps are: \(long.joined(separator: "; "))")
    }

    @Test(
        "the command line stays thin: Sources/pushctl holds at most 2,000 lines and imports neither PushCurl nor PushCrypto (the engine holds the application)")
    func commandLineStaysThin() throws {
        let files = try WordsCatalogTests.swiftFiles().filter { $0.0.hasPrefix("pushctl/") }
        let lines = files.map { $0.1.split(separator: "\n", omittingEmptySubsequences: false).count - 1 }.reduce(0, +)
        #expect(files.count >= 10, "the scan found the command line's files")
        #expect(lines <= 2_000, "Sources/pushctl has \(lines) lines: move application logic into PushEngine")
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
        let libraries = ["PushCore/", "PushWords/", "PushFiles/", "PushCrypto/", "PushCurl/", "PushEngine/", "PushMock/"]
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

    /// Lines from the declaration to the brace that closes its body; nil when no body opens
    /// within a few lines (a protocol requirement).
    static func bodyLength(_ lines: [Substring], from start: Int) -> Int? {
        var depth = 0
        var opened = false
        for index in start..<lines.count {
            var inString = false
            var previous: Character = " "
            for character in lines[index] {
                if character == "\"" && previous != "\\" { inString.toggle() }
                if !inString {
                    if character == "/" && previous == "/" { break }
                    if character == "{" {
                        depth += 1
                        opened = true
                    }
                    if character == "}" { depth -= 1 }
                }
                previous = character
            }
            if opened && depth <= 0 { return index - start + 1 }
            if !opened && index - start > 6 { return nil }
        }
        return nil
    }
}
