import Foundation
import Testing

/// The shape the sources keep (CONTRIBUTING.md): no function body over 80 lines, so each reads
/// at once. Counted from a declaration's line to its closing brace, strings and comments aside.
@Suite struct SourceShapeTests {
    static let longest = 80

    @Test("no function, initialiser or computed property in Sources is longer than 80 lines")
    func functionsStayShort() throws {
        let declaration = /^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|static|class|override|mutating|nonisolated|final|convenience|required)\s+)*(?:func\s+\S|init[?(]|init\s*<|deinit\b|var\s+\w+\s*:[^=]*\{\s*$)/
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
                    if character == "{" { depth += 1; opened = true }
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
