import Foundation
import Testing

/// Words people read exist in English and Spanish: every `Words(_:es:)` in the sources has a
/// Spanish side that is there and not a copy of the English (a lone technical word aside), and the
/// English-only error literals left over from before `Words` only ever go down.
@Suite struct WordsCatalogTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    static func swiftFiles() throws -> [(String, String)] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        return try enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { path in
            (path, try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8))
        }
    }

    @Test("every Words(_:es:) has a Spanish side, and not the English copied")
    func bothLanguages() throws {
        let pair = /Words\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*es:\s*"((?:[^"\\]|\\.)*)"\s*\)/
        var checked = 0
        var problems: [String] = []
        for (path, text) in try Self.swiftFiles() {
            for match in text.matches(of: pair) {
                checked += 1
                let english = String(match.output.1), spanish = String(match.output.2)
                if spanish.trimmingCharacters(in: .whitespaces).isEmpty && !english.trimmingCharacters(in: .whitespaces).isEmpty {
                    problems.append("\(path): no Spanish for \"\(english.prefix(60))\"")
                } else if spanish == english && english.contains(" ") {
                    problems.append("\(path): the Spanish is the English: \"\(english.prefix(60))\"")
                }
            }
        }
        #expect(checked > 300, "the catalog was read: \(checked) pairs")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// English-only literals still in the sources (`InputError("…")`, `ValidationError("…")`):
    /// each conversion to Words lowers this ceiling; a new one fails here.
    static let englishOnlyCeiling = 0

    @Test("no English-only error literal is left (message or hint)")
    func englishOnlyErrorsDoNotGrow() throws {
        var count = 0
        for (_, text) in try Self.swiftFiles() {
            count += text.components(separatedBy: "InputError(\"").count - 1
            count += text.components(separatedBy: "ValidationError(\"").count - 1
            // The message on the next line: `InputError(\n    "…"`.
            count += text.matches(of: /InputError\(\s*\n\s*"/).count
            // A hint given as a bare literal (`hint: "…"`) reads the same in both languages.
            count += text.matches(of: /[,(]\s*hint:\s*"/).count
        }
        #expect(count <= Self.englishOnlyCeiling, "\(count) English-only error literals (ceiling \(Self.englishOnlyCeiling)): write new messages with Words(_:es:)")
    }
}
