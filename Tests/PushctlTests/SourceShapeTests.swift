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
        let libraries = ["PushCore/", "PushWords/", "PushFiles/", "PushCrypto/", "PushCurl/", "PushEngine/", "PushMock/", "PushMockSession/", "PushApp/"]
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

    /// The library targets that still build words of their own rather than return codes (issue
    /// 46, item 1: typed codes up to the edge), each with why. PushCore, PushFiles and PushCrypto return
    /// codes only; the catalog (PushWords) and the executables say them. An entry whose target no longer
    /// makes words fails, so the list only shrinks.
    static let stillSayingWords: [String: String] = [
        "PushEngine/":
            "its text renderers — doctor, reports — and hints remain words; every problem it throws is a typed code (credentials, run input, outputs, connection settings, files, keys, certificates, signers, journals)",
        "PushMock/":
            "the web view's own words only, a view in the language it is handed: its page (WebViewPage) and its live stream's refusal of a viewer too many, which the browser or curl shows (ServerSentEvents); the mock's problems and warnings are codes (MockSettingProblem, MockServerProblem, MockWarning)",
    ]

    @Test("codes up to the edge: a library target makes no Words of its own (the catalog says its codes), but for the listed ones")
    func librariesReturnCodes() throws {
        let libraries = ["PushCore/", "PushFiles/", "PushCrypto/", "PushCurl/", "PushEngine/", "PushMock/", "PushSystem/"]
        var saying: [String: Int] = [:]
        for (path, text) in try WordsCatalogTests.swiftFiles() {
            guard let library = libraries.first(where: { path.hasPrefix($0) }) else { continue }
            saying[library, default: 0] += text.matches(of: /\bWords\(/).count
        }
        for library in libraries where Self.stillSayingWords[library] == nil {
            #expect(
                saying[library, default: 0] == 0,
                "\(library) says \(saying[library, default: 0]) Words of its own: return a code, and say it in PushWords' catalog")
        }
        for library in Self.stillSayingWords.keys {
            #expect(saying[library, default: 0] > 0, "\(library) makes no words any more: take it off stillSayingWords")
        }
    }

    @Test("the libraries throw codes: no InputError above the core but in the executables is made of words (Words, SaidProblem)")
    func librariesThrowCodes() throws {
        // Every library target above the core, the command line's own (PushctlCommandLine) and the
        // mock's application layer (PushMockSession) included: only the three executables say words.
        let libraries = ["PushEngine/", "PushMock/", "PushMockSession/", "PushctlCommandLine/", "PushFiles/", "PushCrypto/", "PushCurl/", "PushApp/"]
        let files = try WordsCatalogTests.swiftFiles().filter { file in libraries.contains { file.0.hasPrefix($0) } }
        #expect(files.count >= 100, "the scan found the libraries' files")
        // `InputError(` with words as its message, on its line or the next, or a hint given as words.
        let worded = /InputError\(\s*(?:Words|SaidProblem|ProblemPlace)\b|InputError\([^\n]*(?:\n[^\n]*)?\bhint:/
        var found: [String] = []
        for (path, text) in files {
            for match in text.matches(of: worded) {
                let line = text[..<match.range.lowerBound].filter { $0 == "\n" }.count + 1
                found.append("\(path):\(line)")
            }
            if text.contains("SaidProblem") { found.append("\(path): SaidProblem") }
        }
        #expect(found.isEmpty, "throw a PushCore problem and say it in PushWords' catalog: \(found.joined(separator: "; "))")
    }

    @Test("no process-wide mutable state holds the language or the flags' spellings (a library is handed the language)")
    func noGlobalLanguageOrSpellings() throws {
        // A stored static var (no getter body) whose type names a Language or a Setting.
        let stored = /static var (\w+)\s*:\s*([^={]*?)\s*(?:=|$)/
        var found: [String] = []
        for (path, text) in try WordsCatalogTests.swiftFiles() {
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let match = line.firstMatch(of: stored) else { continue }
                let type = match.output.2
                guard type.contains("Language") || type.contains("Setting") else { continue }
                found.append("\(path):\(index + 1) \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "pass the language (or the spellings) to what says the words: \(found.joined(separator: "; "))")
    }

    /// The writers that keep their own file, each with why: they are not "a file a command makes"
    /// but a record kept open (a journal, the mock's log) or a cache written best-effort.
    static let ownWriters: [String: String] = [
        "PushEngine/Journal/Journal.swift": "the journal: appended to, line by line, through the run; its problems are JournalProblem's",
        "PushMock/MockOutputFiles.swift": "the mock's log and CA file: a link is refused by name before it is opened (MockServerProblem)",
        "PushMock/MockRequestRecord.swift": "the mock's log, rotated at its cap",
        "PushEngine/Credentials/ProviderTokens.swift":
            "the provider token cache: sealed, written beside and renamed, silently (a cache that fails is no error)",
        "PushEngine/Run/LineFiles.swift": "temporary files, unlinked at once (TemporaryFile)",
    ]

    @Test("writing a file is one mechanism (OutputFiles), as reading is (InputFiles): no other code opens a file to write, but the listed ones")
    func oneWayToWrite() throws {
        let writes = /Descriptors\.openForWriting|FileSystem\.makeTemporaryFile|FileSystem\.rename\(/
        var found: [String] = []
        for (path, text) in try WordsCatalogTests.swiftFiles() where !path.hasPrefix("PushSystem/") && path != "PushFiles/OutputFiles.swift" {
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            if code.contains(where: { $0.contains(writes) }) && Self.ownWriters[path] == nil { found.append(path) }
        }
        #expect(found.isEmpty, "write through OutputFiles (open, write, append, writeNew, replace): \(found)")
        for path in Self.ownWriters.keys {
            let text = try String(contentsOf: WordsCatalogTests.sources.appendingPathComponent(path), encoding: .utf8)
            #expect(text.contains(writes), "\(path) writes through OutputFiles now: take it off ownWriters")
        }
    }

    @Test("a result carries no String where the domain has a type: only APNs' opaque ids are strings")
    func resultsAreTyped() throws {
        let file = WordsCatalogTests.sources.appendingPathComponent("PushCore/PushResult.swift")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("public struct PushResult") })
        let typed = [
            "reason": "RejectionReason", "environment": "APNsEnvironment", "subject": "RequestSubject", "stopped": "StopMark",
            "token": "DeviceToken", "outcome": "Outcome",
        ]
        let opaqueIDs: Set<String> = ["apnsID", "apnsUniqueID", "requestID", "channelID"]
        var depth = 0
        var seen: Set<String> = []
        var found: [String] = []
        for line in lines[start...] {
            if depth == 1, let match = line.firstMatch(of: /^\s*public (?:let|var|private\(set\) var) (\w+): ([\w\[\]: ?]+)/) {
                let name = String(match.output.1)
                let type = match.output.2.replacing("?", with: "").trimmingCharacters(in: .whitespaces)
                seen.insert(name)
                if let expected = typed[name], type != expected { found.append("\(name): \(type), not \(expected)") }
                if type.contains("String") && !opaqueIDs.contains(name) { found.append("\(name): \(type)") }
            }
            depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
            if depth <= 0 && line.contains("}") { break }
        }
        #expect(seen.isSuperset(of: ["reason", "environment", "subject", "stopped"]), "the scan read PushResult: \(seen.sorted())")
        #expect(found.isEmpty, "type these: \(found.joined(separator: "; "))")
    }
}
