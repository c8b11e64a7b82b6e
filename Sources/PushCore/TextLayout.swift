/// Lays text out for a screen of a given width: prose wraps at spaces, never inside a word; a
/// word wider than the screen (a JWT, a URL, a token) is broken on purpose, its pieces indented.
///
/// Widths are terminal columns: ANSI colour sequences take none, combining marks none, East Asian
/// wide characters two.
public enum TextLayout {
    /// `text` wrapped to `width` columns. Each line of `text` is a paragraph: its leading spaces
    /// indent every line it wraps into, and `hangingIndent` more columns indent its continuation
    /// lines (so "error: …" can hang under its first word). A width under 20 is taken as 20.
    public static func wrap(_ text: String, width: Int, hangingIndent: Int = 0) -> [String] {
        let width = max(20, width)
        var out: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            out += wrapParagraph(Substring(paragraph), width: width, hangingIndent: hangingIndent)
        }
        return out
    }

    /// `wrap` joined with newlines.
    public static func wrapped(_ text: String, width: Int?, hangingIndent: Int = 0) -> String {
        guard let width else { return text }
        return join(wrap(text, width: width, hangingIndent: hangingIndent), "\n")
    }

    /// `parts.joined(separator:)`, by hand: the standard library's is generic, and its first use in
    /// a run scans the runtime's conformance records, on every single push.
    public static func join(_ parts: [String], _ separator: String) -> String {
        var joined = ""
        for (index, part) in parts.enumerated() {
            if index > 0 { joined.append(separator) }
            joined.append(part)
        }
        return joined
    }

    private static func wrapParagraph(_ paragraph: Substring, width: Int, hangingIndent: Int) -> [String] {
        guard columns(paragraph) > width else { return [String(paragraph)] }
        let leading = paragraph.prefix { $0 == " " }.count
        // An indent that leaves less than half the screen is no indent worth keeping.
        let indent = min(leading, width / 2)
        let continuation = String(repeating: " ", count: min(indent + hangingIndent, width / 2))
        var lines: [String] = []
        var line = String(repeating: " ", count: indent)
        var lineWidth = indent
        var lineHasWord = false
        func newLine() {
            lines.append(line)
            line = continuation
            lineWidth = continuation.count
            lineHasWord = false
        }
        for word in paragraph.dropFirst(leading).split(separator: " ", omittingEmptySubsequences: true) {
            let wordWidth = columns(word)
            let needed = (lineHasWord ? 1 : 0) + wordWidth
            // `append(contentsOf:)`, not `+=`: `String += Substring` is generic, and its first use in
            // a run scans the runtime's conformance records.
            if lineWidth + needed <= width {
                if lineHasWord { line += " " }
                line.append(contentsOf: word)
                lineWidth += needed
                lineHasWord = true
                continue
            }
            if lineHasWord { newLine() }
            if lineWidth + wordWidth <= width {
                line.append(contentsOf: word)
                lineWidth += wordWidth
                lineHasWord = true
                continue
            }
            // Wider than a whole line: broken on purpose, each piece on a line of its own.
            for piece in pieces(of: word, first: width - lineWidth, rest: width - continuation.count) {
                if lineHasWord { newLine() }
                line += piece
                lineWidth += columns(piece)
                lineHasWord = true
            }
        }
        if lineHasWord || lines.isEmpty { lines.append(line) }
        return lines.map { $0.hasSuffix(" ") ? String($0.reversed().drop { $0 == " " }.reversed()) : $0 }
    }

    /// `word` cut into pieces of at most `first`, then `rest`, columns.
    private static func pieces(of word: Substring, first: Int, rest: Int) -> [String] {
        var pieces: [String] = []
        var current = ""
        var currentWidth = 0
        var limit = max(1, first)
        for character in word {
            let w = columns(character)
            if currentWidth + w > limit && !current.isEmpty {
                pieces.append(current)
                current = ""
                currentWidth = 0
                limit = max(1, rest)
            }
            current.append(character)
            currentWidth += w
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }

    /// The columns `text` takes on a terminal.
    public static func columns(_ text: some StringProtocol) -> Int {
        var total = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                // CSI sequences (colour) end at a letter.
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" {
                inEscape = true
                continue
            }
            total += columns(scalar)
        }
        return total
    }

    private static func columns(_ character: Character) -> Int {
        character.unicodeScalars.reduce(0) { $0 + columns($1) }
    }

    /// 0 for combining and zero-width scalars, 2 for East Asian wide ones and emoji, else 1.
    public static func columns(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        if v < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if v == 0x200B || (0xFE00...0xFE0F).contains(v) { return 0 }
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// `text` cut to `width` columns with an ellipsis at the end when it was longer.
    public static func truncated(_ text: String, width: Int) -> String {
        guard columns(text) > width else { return text }
        var out = ""
        var used = 0
        for character in text {
            let w = columns(character)
            if used + w > width - 1 { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }
}
