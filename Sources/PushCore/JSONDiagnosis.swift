/// Why a text is not JSON, said so a person can fix it: the line and column, the line itself with a
/// caret under the spot, and the usual mistakes named (a trailing comma, single quotes, comments,
/// keys without quotes, typographic quotes, Python's literals, a missing comma, an unclosed brace).
public struct JSONDiagnosis: Sendable {
    /// 1-based; `line` counts from `firstLine` (a requests file's line, for instance).
    public let line: Int
    public let column: Int
    /// The mistake named, or the parser's own complaint.
    public let cause: Words
    /// Whether `cause` names a usual mistake (then no generic hint is needed).
    public let named: Bool
    /// The line (or a window of it) and a caret line under the spot, indented.
    public let excerpt: [String]
    /// The text is one line (inline JSON): its column says where.
    let singleLine: Bool

    /// The widest excerpt shown, in columns (it fits a 60-column terminal with its indent).
    static let window = 50

    public init(bytes: [UInt8], error: JSONParseError, firstLine: Int = 1) {
        let (spot, cause, named) = JSONDiagnosis.name(bytes: bytes, error: error)
        self.cause = cause
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

    /// "line 3, column 5: <cause>" then the excerpt, one line each (inline JSON: the column alone).
    public var words: Words {
        if singleLine { return wordsWithinLine }
        return Words("line \(line), column \(column): ", es: "línea \(line), columna \(column): ") + cause
            + Words(verbatim: excerpt.map { "\n" + $0 }.joined())
    }

    /// "column 5: <cause>" then the excerpt: for one line of a file whose line number is said elsewhere.
    public var wordsWithinLine: Words {
        Words("column \(column): ", es: "columna \(column): ") + cause + Words(verbatim: excerpt.map { "\n" + $0 }.joined())
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
    static func name(bytes: [UInt8], error: JSONParseError) -> (spot: Int, cause: Words, named: Bool) {
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
            return (0, mark, true)
        }
        if ["\u{201C}", "\u{201D}", "\u{2018}", "\u{2019}", "\u{00AB}", "\u{00BB}"].contains(where: { starts($0, at: at) }) {
            return (at, Words("typographic quotes (“ ” or ‘ ’), as a word processor or a chat app writes them: JSON needs straight double quotes (\")",
                              es: "comillas tipográficas (“ ” o ‘ ’), como las escribe un procesador de textos o un chat: JSON necesita comillas dobles rectas (\")"), true)
        }
        if here == UInt8(ascii: "'") {
            return (at, Words("single quotes: JSON strings and keys take double quotes (\"…\")",
                              es: "comillas simples: en JSON las cadenas y las claves van entre comillas dobles (\"…\")"), true)
        }
        if starts("//", at: at) || starts("/*", at: at) || here == UInt8(ascii: "#") {
            return (at, Words("a comment: JSON has no comments; remove it",
                              es: "un comentario: JSON no admite comentarios; quítalo"), true)
        }
        if byte(previous) == UInt8(ascii: ","), here == UInt8(ascii: "}") || here == UInt8(ascii: "]") {
            return (previous, Words("a comma after the last item: JSON allows none before '}' or ']'",
                                    es: "una coma tras el último elemento: JSON no admite ninguna antes de '}' o ']'"), true)
        }
        if ["True", "False", "None"].contains(where: { starts($0, at: at) }) {
            return (at, Words("True, False and None are Python's: JSON writes true, false and null",
                              es: "True, False y None son de Python: en JSON se escriben true, false y null"), true)
        }
        if error.message == "expected a string key", let here, here == UInt8(ascii: "_") || here == UInt8(ascii: "$")
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(here | 0x20) {
            return (at, Words("a key without quotes: JSON keys are strings, e.g. \"aps\"",
                              es: "una clave sin comillas: en JSON las claves son cadenas, p. ej. \"aps\""), true)
        }
        if at >= bytes.count {
            return (bytes.count, unclosed(bytes), true)
        }
        if error.message.hasPrefix("expected ','"), let here, here == UInt8(ascii: "\"") || here == UInt8(ascii: "{") || here == UInt8(ascii: "[")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(here) {
            return (at, Words("a comma is missing between two items", es: "falta una coma entre dos elementos"), true)
        }
        if error.message == "unexpected text after the JSON value" {
            return (at, Words("more text after the JSON value ended (a second object, or a stray character?)",
                              es: "hay más texto tras el final del valor JSON (¿un segundo objeto, o un carácter de más?)"), true)
        }
        if error.message == "expected ':'" {
            return (at, Words("a ':' is missing after the key", es: "falta ':' tras la clave"), false)
        }
        return (at, error.words, false)
    }

    /// At the end of the text: what is still open (a string, an object, an array).
    static func unclosed(_ bytes: [UInt8]) -> Words {
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
        if inString {
            return Words("the text ends inside a string: a closing \" is missing", es: "el texto termina dentro de una cadena: falta la \" de cierre")
        }
        let missing = String(open.reversed().map { $0 == UInt8(ascii: "{") ? "}" : "]" })
        guard !missing.isEmpty else {
            return Words("the text ends before the JSON value is complete", es: "el texto termina antes de completar el valor JSON")
        }
        return Words("the text ends before it is closed: '\(missing)' missing at the end",
                     es: "el texto termina sin cerrarse: falta '\(missing)' al final")
    }
}
