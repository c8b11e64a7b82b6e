import Foundation
import Testing

/// macOS is as first-class as Linux, and a Linux build never compiles a Darwin branch: the checks
/// that keep the tree portable by construction, read from the sources themselves.
/// - Only `Sources/PushSystem` imports Glibc, Darwin or Musl; everything else calls it (or Foundation).
/// - A name only Linux has (`environ`, `st_mtim`, `/proc/`, `pipe2`…) appears only inside a
///   Linux-only branch (`#if os(Linux)`, `#if canImport(Glibc)`, or the `#else` of a Darwin one).
/// - Every Darwin branch in the system target says which Darwin declaration it relies on.
@Suite struct PlatformTests {
    static let systemTarget = "Sources/PushSystem/"

    /// Every Swift file of Sources and Tests, by its path from the package root.
    static func files() throws -> [(path: String, text: String)] {
        let root = WordsCatalogTests.sources.deletingLastPathComponent()
        var found: [(String, String)] = []
        for folder in ["Sources", "Tests"] {
            let base = root.appendingPathComponent(folder)
            let enumerator = try #require(FileManager.default.enumerator(atPath: base.path))
            for case let path as String in enumerator where path.hasSuffix(".swift") {
                found.append(("\(folder)/\(path)", try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)))
            }
        }
        return found
    }

    @Test("no file outside the system target imports Glibc, Darwin or Musl")
    func onlyTheSystemTargetImportsLibc() throws {
        let libcImport = /^\s*(?:@\w+\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+(?:Glibc|Darwin|Musl)\b/
        var found: [String] = []
        let files = try Self.files()
        for file in files where !file.path.hasPrefix(Self.systemTarget) {
            for (index, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.firstMatch(of: libcImport) != nil {
                found.append("\(file.path):\(index + 1)")
            }
        }
        #expect(files.count > 150, "the sources were read: \(files.count) files")
        #expect(found.isEmpty, "call PushSystem instead: \(found.joined(separator: ", "))")
    }

    /// Names that exist on Linux only: Darwin's module lacks them, or has them under another name.
    /// Each is a word of its own (`environ`, not `environment`), unless it ends in `(`, `.`, `/` or `_`.
    static let linuxOnly = [
        "environ", "posix_spawn_file_actions_t()", "posix_spawnattr_t()", "st_atim", "st_mtim", "st_ctim", "/proc/",
        "malloc_trim", "Glibc.", "epoll_", "accept4", "pipe2", "MSG_NOSIGNAL", "prctl", "SOCK_STREAM.rawValue", "taskset",
        "sched_setaffinity", "strchrnul", "get_nprocs",
    ]

    /// Whether `code` names one of `linuxOnly` as a word.
    static func namesLinuxOnly(_ code: Substring) -> Bool {
        linuxOnly.contains { name in
            var rest = code[...]
            while let range = rest.range(of: name) {
                let before = range.lowerBound == code.startIndex ? " " : code[code.index(before: range.lowerBound)]
                let after = range.upperBound == code.endIndex ? " " : code[range.upperBound]
                let open = name.last.map { "(./_".contains($0) } ?? false
                if !(before.isLetter || before.isNumber || before == "_") && (open || !(after.isLetter || after.isNumber || after == "_")) { return true }
                rest = code[range.upperBound...]
            }
            return false
        }
    }

    @Test("no Linux-only name appears outside a Linux-only branch")
    func linuxOnlyNamesStayInLinuxBranches() throws {
        var found: [String] = []
        for file in try Self.files() where file.path != "Tests/PushctlTests/PlatformTests.swift" {
            var branches = BranchStack()
            for (index, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                branches.read(line)
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                guard Self.namesLinuxOnly(code), !branches.isLinuxOnly else { continue }
                found.append("\(file.path):\(index + 1): \(line.trimmingCharacters(in: .whitespaces).prefix(80))")
            }
        }
        #expect(found.isEmpty, "macOS cannot compile these: \(found.joined(separator: "; "))")
    }

    @Test("every Darwin branch of the system target names the Darwin declaration it relies on")
    func darwinBranchesNameTheirDeclarations() throws {
        var branches = 0
        var unexplained: [String] = []
        for file in try Self.files() where file.path.hasPrefix(Self.systemTarget) {
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (index, line) in lines.enumerated()
            where line.contains("canImport(Darwin)") && !line.contains("!canImport") && !lines[index + 1].contains("import Darwin") {
                branches += 1
                // The comment that explains it: the documentation of the declaration the branch is in.
                var cursor = index - 1
                while cursor >= 0, !lines[cursor].trimmingCharacters(in: .whitespaces).hasPrefix("///") { cursor -= 1 }
                var comment = ""
                while cursor >= 0, lines[cursor].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                    comment = lines[cursor] + " " + comment
                    cursor -= 1
                }
                let namesDeclaration = comment.contains("Darwin") && comment.firstMatch(of: /<[a-z0-9_\/.-]+\.h>|overlay|module/) != nil
                if !namesDeclaration { unexplained.append("\(file.path):\(index + 1)") }
            }
        }
        #expect(branches >= 10, "the system target's Darwin branches were found: \(branches)")
        #expect(unexplained.isEmpty, "say which Darwin header or overlay each relies on: \(unexplained.joined(separator: ", "))")
    }

    @Test("the check sees through #if/#elseif/#else")
    func branchStackReadsConditions() {
        var stack = BranchStack()
        let lines = [
            "#if os(Linux)", "a", "#else", "b", "#endif", "#if canImport(Darwin)", "c", "#else", "d", "#endif",
            "#if canImport(Glibc)", "e", "#elseif canImport(Darwin)", "f", "#endif", "g",
        ]
        var linux: [String] = []
        for line in lines {
            stack.read(Substring(line))
            if !line.hasPrefix("#"), stack.isLinuxOnly { linux.append(line) }
        }
        #expect(linux == ["a", "d", "e"])
    }
}

/// The `#if` conditions around a line, as far as they say "Linux only".
struct BranchStack {
    /// One entry per open `#if`: whether the branch being read is Linux-only.
    private var linux: [Bool] = []
    /// Whether the `#if` branch of each open block was a Darwin one (its `#else` is then Linux's).
    private var darwin: [Bool] = []

    var isLinuxOnly: Bool { linux.contains(true) }

    mutating func read(_ line: Substring) {
        let text = line.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("#if ") {
            linux.append(Self.isLinux(text))
            darwin.append(Self.isDarwin(text))
        } else if text.hasPrefix("#elseif "), !linux.isEmpty {
            linux[linux.count - 1] = Self.isLinux(text)
            darwin[darwin.count - 1] = darwin[darwin.count - 1] || Self.isDarwin(text)
        } else if text.hasPrefix("#else"), !linux.isEmpty {
            linux[linux.count - 1] = darwin[darwin.count - 1]
        } else if text.hasPrefix("#endif"), !linux.isEmpty {
            linux.removeLast()
            darwin.removeLast()
        }
    }

    private static func isLinux(_ condition: String) -> Bool {
        !condition.contains("!") && (condition.contains("os(Linux)") || condition.contains("canImport(Glibc)") || condition.contains("canImport(Musl)"))
    }

    private static func isDarwin(_ condition: String) -> Bool {
        !condition.contains("!") && (condition.contains("canImport(Darwin)") || condition.contains("os(macOS)"))
    }
}
