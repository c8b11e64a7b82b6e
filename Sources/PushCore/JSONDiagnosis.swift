/// Why a text is not JSON, said so a person can fix it: the line and column, the line itself with a
/// caret under the spot, and the usual mistakes named (a trailing comma, single quotes, comments,
/// keys without quotes, typographic quotes, Python's literals, a missing comma, an unclosed brace).
public struct JSONDiagnosis: Sendable, Equatable {
    /// 1-based; `line` counts from `firstLine` (a requests file's line, for instance).
    public let line: Int
    public let column: Int
    /// The mistake named, or the parser's own complaint (the catalog's `cause` says it).
    public let mistake: JSONMistake
    /// Whether `mistake` names a usual mistake (then no generic hint is needed).
    public let named: Bool
    /// The line (or a window of it) and a caret line under the spot, indented.
    public let excerpt: [String]
    /// The text is one line (inline JSON): its column says where.
    public let singleLine: Bool

    /// The widest excerpt shown, in columns (it fits a 60-column terminal with its indent).
    static let window = 50

    public init(bytes: [UInt8], error: JSONParseError, firstLine: Int = 1) {
        let (spot, mistake, named) = JSONDiagnosis.name(bytes: bytes, error: error)
        self.mistake = mistake
        self.named = named
        singleLine = !bytes.contains(0x0A) && firstLine == 1
        var lineStart = 0
        var lineNumber = firstLine
        var index = 0
        while index < min(spot, bytes.count) {
            if bytes[index] == 0x0A {
                lineNumber += 1
                lineStart = index + 1
            }
            index += 1
        }
        var lineEnd = lineStart
        while lineEnd < bytes.count, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D { lineEnd += 1 }
        // Columns count characters (Unicode scalars), as an editor's status bar does.
        let before = String(decoding: bytes[lineStart..<min(max(spot, lineStart), lineEnd)], as: UTF8.self)
        let whole = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
        line = lineNumber
        column = before.unicodeScalars.count + 1
        excerpt = JSONDiagnosis.excerpt(whole, column: column)
    }

    /// The line around the column, control characters shown as spaces, and the caret under it.
    static func excerpt(_ text: String, column: Int) -> [String] {
        // Control and invisible characters (a BOM, bidi controls) take one column each, as a dot.
        let scalars = Array(text.unicodeScalars).map { scalar -> Unicode.Scalar in
            if scalar == "\t" || scalar == "\r" { return " " }
            return OutsideText.isControl(scalar) || scalar.properties.generalCategory == .format ? "·" : scalar
        }
        var start = 0
        var end = scalars.count
        if end > window {
            start = max(0, min(column - 1 - window * 2 / 3, end - window))
            end = min(end, start + window)
        }
        var shown = String(String.UnicodeScalarView(scalars[start..<end]))
        var caretColumn = column - 1 - start
        if start > 0 {
            shown = "…" + shown
            caretColumn += 1
        }
        if end < scalars.count { shown += "…" }
        let indent = "    "
        return [indent + shown, indent + String(repeating: " ", count: max(0, caretColumn)) + "^"]
    }

    /// Where to point and what to call it.
    static func name(bytes: [UInt8], error: JSONParseError) -> (spot: Int, mistake: JSONMistake, named: Bool) {
        let at = min(error.offset, bytes.count)
        func byte(_ i: Int) -> UInt8? { i >= 0 && i < bytes.count ? bytes[i] : nil }
        func starts(_ text: String, at i: Int) -> Bool {
            let probe = Array(text.utf8)
            return i + probe.count <= bytes.count && Array(bytes[i..<i + probe.count]) == probe
        }
        let here = byte(at)
        var previous = at - 1
        while let b = byte(previous), [0x20, 0x09, 0x0A, 0x0D].contains(b) { previous -= 1 }

        if at <= 3, let mark = PastedForm.encodingMark(bytes) {
            return (0, .encodingMark(mark), true)
        }
        if ["\u{201C}", "\u{201D}", "\u{2018}", "\u{2019}", "\u{00AB}", "\u{00BB}"].contains(where: { starts($0, at: at) }) {
            return (at, .typographicQuotes, true)
        }
        if here == UInt8(ascii: "'") {
            return (at, .singleQuotes, true)
        }
        if starts("//", at: at) || starts("/*", at: at) || here == UInt8(ascii: "#") {
            return (at, .comment, true)
        }
        if byte(previous) == UInt8(ascii: ","), here == UInt8(ascii: "}") || here == UInt8(ascii: "]") {
            return (previous, .trailingComma, true)
        }
        if ["True", "False", "None"].contains(where: { starts($0, at: at) }) {
            return (at, .pythonLiteral, true)
        }
        if error.problem == .expectedKey, let here,
            here == UInt8(ascii: "_") || here == UInt8(ascii: "$")
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(here | 0x20)
        {
            return (at, .unquotedKey, true)
        }
        if at >= bytes.count {
            return (bytes.count, unclosed(bytes), true)
        }
        if error.problem == .expectedCommaOrBrace || error.problem == .expectedCommaOrBracket, let here,
            here == UInt8(ascii: "\"") || here == UInt8(ascii: "{") || here == UInt8(ascii: "[")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(here)
        {
            return (at, .missingComma, true)
        }
        if error.problem == .textAfterValue {
            return (at, .textAfterValue, true)
        }
        if error.problem == .expectedColon {
            return (at, .missingColon, false)
        }
        return (at, .parser(error.problem), false)
    }

    /// At the end of the text: what is still open (a string, an object, an array).
    static func unclosed(_ bytes: [UInt8]) -> JSONMistake {
        var open: [UInt8] = []
        var inString = false
        var escaped = false
        for b in bytes {
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): open.append(b)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): if !open.isEmpty { open.removeLast() }
            default: break
            }
        }
        if inString { return .unclosedString }
        let missing = String(open.reversed().map { $0 == UInt8(ascii: "{") ? "}" : "]" })
        return missing.isEmpty ? .incomplete : .unclosed(missing: missing)
    }
}

/// What a text that is not JSON got wrong: a usual mistake named, or the parser's complaint.
public enum JSONMistake: Sendable, Equatable {
    /// A byte order mark, or UTF-16, at the start.
    case encodingMark(PastedForm.EncodingMark)
    /// “ ” or ‘ ’ where JSON needs straight double quotes.
    case typographicQuotes
    case singleQuotes
    case comment
    /// A comma before '}' or ']'.
    case trailingComma
    /// True, False or None.
    case pythonLiteral
    case unquotedKey
    /// The text ends inside a string.
    case unclosedString
    /// The text ends before the value is complete, nothing left open.
    case incomplete
    /// The text ends with these closing brackets missing ("}]").
    case unclosed(missing: String)
    case missingComma
    case textAfterValue
    case missingColon
    /// The parser's own complaint.
    case parser(JSONSyntaxProblem)
}
