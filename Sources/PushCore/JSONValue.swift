/// A JSON value that keeps object keys in order and integers exact.
///
/// pushctl prints JWT headers and claims, payloads and results; keeping the order
/// a human wrote (or Apple documents) makes output readable and byte-stable, and an
/// exact integer type tells `"iat": 1700000000` from `"iat": "1700000000"`.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var integerValue: Int64? { if case .integer(let i) = self { return i } else { return nil } }
    public var objectMembers: [(String, JSONValue)]? { if case .object(let m) = self { return m } else { return nil } }

    /// The value's JSON type, for messages ("an array" / "un array" is the catalog's).
    public var kind: JSONKind {
        switch self {
        case .null: return .null
        case .bool: return .boolean
        case .integer, .number: return .number
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }
}

/// The type of a JSON value, as a message names it.
public enum JSONKind: Sendable, Equatable, CaseIterable {
    case null, boolean, number, string, array, object
}

// MARK: - Writing

extension JSONValue {
    /// Compact JSON (no spaces), the form used on the wire.
    public var compact: String { String(decoding: compactBytes, as: UTF8.self) }

    /// The compact form as UTF-8 bytes, written straight into a byte buffer (what a payload sends;
    /// the fast path of a requests file, where every line is re-serialised).
    public var compactBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        writeCompact(into: &out)
        return out
    }

    private func writeCompact(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .integer(let i): out.append(contentsOf: String(i).utf8)
        case .number:
            var text = ""
            write(into: &text, indent: nil, level: 0)
            out.append(contentsOf: text.utf8)
        case .string(let string):
            var s = string
            let plain = s.withUTF8 { $0.allSatisfy { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C } }
            if plain {
                out.append(0x22)
                s.withUTF8 { out.append(contentsOf: $0) }
                out.append(0x22)
            } else {
                var text = ""
                JSONValue.writeString(s, into: &text)
                out.append(contentsOf: text.utf8)
            }
        case .array(let items):
            out.append(0x5B)
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(0x2C) }
                item.writeCompact(into: &out)
            }
            out.append(0x5D)
        case .object(let members):
            out.append(0x7B)
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(0x2C) }
                JSONValue.string(member.0).writeCompact(into: &out)
                out.append(0x3A)
                member.1.writeCompact(into: &out)
            }
            out.append(0x7D)
        }
    }

    /// Indented JSON for people, two spaces a level.
    public var pretty: String {
        var out = ""
        write(into: &out, indent: "  ", level: 0)
        return out
    }

    private func write(into out: inout String, indent: String?, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .integer(let i): out += String(i)
        case .number(let d):
            if d.isFinite { out += d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)" } else { out += "null" }
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let items):
            writeContainer(open: "[", close: "]", count: items.count, into: &out, indent: indent, level: level) { i, out in
                items[i].write(into: &out, indent: indent, level: level + 1)
            }
        case .object(let members):
            writeContainer(open: "{", close: "}", count: members.count, into: &out, indent: indent, level: level) { i, out in
                JSONValue.writeString(members[i].0, into: &out)
                out += indent == nil ? ":" : ": "
                members[i].1.write(into: &out, indent: indent, level: level + 1)
            }
        }
    }

    private func writeContainer(
        open: String, close: String, count: Int, into out: inout String, indent: String?, level: Int,
        element: (Int, inout String) -> Void
    ) {
        out += open
        if count == 0 {
            out += close
            return
        }
        for i in 0..<count {
            if i > 0 { out += "," }
            if let indent { out += "\n" + String(repeating: indent, count: level + 1) }
            element(i, &out)
        }
        if let indent { out += "\n" + String(repeating: indent, count: level) }
        out += close
    }

    static func writeString(_ s: String, into out: inout String) {
        // Most strings need no escape at all: append them whole rather than scalar by scalar.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) {
            out += "\""
            out += s
            out += "\""
            return
        }
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

// MARK: - Parsing

/// Why a text is not JSON, and where (byte offset).
public struct JSONParseError: Error, Equatable {
    /// What was wrong (the catalog says it in words).
    public let problem: JSONSyntaxProblem
    public let offset: Int

    public init(_ problem: JSONSyntaxProblem, offset: Int) {
        self.problem = problem
        self.offset = offset
    }
}

/// Each way the parser refuses a text.
public enum JSONSyntaxProblem: Sendable, Equatable {
    case textAfterValue
    case invalidLiteral
    case tooDeep(levels: Int)
    case unexpectedEnd
    /// A character no value starts with (shown bounded, control characters escaped).
    case unexpectedCharacter(String)
    case expectedKey
    case expectedColon
    case unterminatedObject
    case expectedCommaOrBrace
    case unterminatedArray
    case expectedCommaOrBracket
    case truncatedUnicodeEscape
    case invalidUnicodeEscape
    case notUTF8
    case unterminatedString
    case controlCharacter
    case unterminatedEscape
    case unpairedSurrogate
    case invalidCodePoint
    case invalidEscape
    case invalidNumber
    case numberOutOfRange
}

extension JSONValue {
    /// Parses exactly one JSON value (RFC 8259), surrounded by optional whitespace.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var parser = Parser(bytes: bytes)
        return try parser.document()
    }

    /// Parses like `parse(_:)` and also says, for each member of a top-level object (in order),
    /// where its value's text is when that text already is the value's compact form, byte for byte
    /// (no whitespace, no escape, no number `compactBytes` writes another way), else nil. A
    /// requests-file line's payload is mostly such a text: it is sent as it is, not written again.
    public static func parseNotingCompactMembers(_ bytes: [UInt8]) throws(JSONParseError) -> (JSONValue, compactMembers: [Range<Int>?]) {
        var parser = Parser(bytes: bytes)
        parser.memberSpans = []
        let value = try parser.document()
        return (value, parser.memberSpans ?? [])
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        static let maxDepth = 512
        /// How many places so far the text differs from its compact form (skipped whitespace, a
        /// string with an escape, a number written another way): a value whose parse adds none
        /// is its own compact form.
        var rewritten = 0
        /// When not nil, a top-level object's members' compact spans (`parseNotingCompactMembers`).
        var memberSpans: [Range<Int>?]?

        func error(_ problem: JSONSyntaxProblem) -> JSONParseError { JSONParseError(problem, offset: index) }

        mutating func document() throws(JSONParseError) -> JSONValue {
            skipWhitespace()
            let value = try value(depth: 0)
            skipWhitespace()
            if index != bytes.count { throw error(.textAfterValue) }
            return value
        }

        mutating func skipWhitespace() {
            let start = index
            scan: while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: break scan
                }
            }
            if index != start { rewritten += 1 }
        }

        mutating func expect(_ literal: String, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
            let lit = Array(literal.utf8)
            guard index + lit.count <= bytes.count, Array(bytes[index..<index + lit.count]) == lit else {
                throw error(.invalidLiteral)
            }
            index += lit.count
            return value
        }

        mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
            guard depth < Parser.maxDepth else { throw error(.tooDeep(levels: Parser.maxDepth)) }
            guard index < bytes.count else { throw error(.unexpectedEnd) }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", .bool(true))
            case UInt8(ascii: "f"): return try expect("false", .bool(false))
            case UInt8(ascii: "n"): return try expect("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error(.unexpectedCharacter(OutsideText.display(String(Unicode.Scalar(bytes[index])))))
            }
        }

        mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
            index += 1
            var members: [(String, JSONValue)] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            // Room for a payload's usual few members at once, not grown one by one.
            members.reserveCapacity(4)
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error(.expectedKey) }
                let key = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error(.expectedColon) }
                index += 1
                skipWhitespace()
                if depth == 0 && memberSpans != nil {
                    let (start, before) = (index, rewritten)
                    members.append((key, try value(depth: depth + 1)))
                    memberSpans?.append(rewritten == before ? start..<index : nil)
                } else {
                    members.append((key, try value(depth: depth + 1)))
                }
                skipWhitespace()
                guard index < bytes.count else { throw error(.unterminatedObject) }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                throw error(.expectedCommaOrBrace)
            }
        }

        mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
            index += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw error(.unterminatedArray) }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(items)
                }
                throw error(.expectedCommaOrBracket)
            }
        }

        mutating func hex4() throws(JSONParseError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw error(.truncatedUnicodeEscape) }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[index]
                let d: UInt32
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
                default: throw error(.invalidUnicodeEscape)
                }
                v = v << 4 | d
                index += 1
            }
            return v
        }

        mutating func string() throws(JSONParseError) -> String {
            index += 1
            // The common case: no escape before the closing quote, so the bytes are the string
            // (read in place, in one pass: most keys and values of a payload).
            let start = index
            var end = start
            let plain: String?? = bytes.withUnsafeBufferPointer { bytes in
                guard let (close, ascii) = JSONValue.plainString(bytes, from: start) else { return nil }
                end = close
                let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
                // ASCII is valid UTF-8 as it is: nothing to check.
                return .some(ascii ? String(decoding: text, as: UTF8.self) : String(validUTF8: text))
            }
            if let plain {
                guard let plain else { throw error(.notUTF8) }
                index = end + 1
                return plain
            }
            // An escape, which the compact form may write another way.
            rewritten += 1
            var out = [UInt8]()
            while true {
                guard index < bytes.count else { throw error(.unterminatedString) }
                let c = bytes[index]
                if c == UInt8(ascii: "\"") {
                    index += 1
                    break
                }
                if c < 0x20 { throw error(.controlCharacter) }
                if c != UInt8(ascii: "\\") {
                    out.append(c)
                    index += 1
                    continue
                }
                index += 1
                guard index < bytes.count else { throw error(.unterminatedEscape) }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error(.unpairedSurrogate) }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error(.unpairedSurrogate) }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(code) {
                        throw error(.unpairedSurrogate)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error(.invalidCodePoint) }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: throw error(.invalidEscape)
                }
            }
            guard let s = String(validUTF8: out) else { throw error(.notUTF8) }
            return s
        }

        mutating func number() throws(JSONParseError) -> JSONValue {
            let start = index
            var isInteger = true
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            func digits(_ p: inout Parser) -> Int {
                let s = p.index
                while p.index < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.index]) { p.index += 1 }
                return p.index - s
            }
            guard index < bytes.count else { throw error(.invalidNumber) }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else if digits(&self) == 0 {
                throw error(.invalidNumber)
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                isInteger = false
                index += 1
                guard digits(&self) > 0 else { throw error(.invalidNumber) }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                isInteger = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits(&self) > 0 else { throw error(.invalidNumber) }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if isInteger, let i = Int64(text) {
                // "-0" is written back as 0.
                if i == 0 && index - start == 2 { rewritten += 1 }
                return .integer(i)
            }
            rewritten += 1
            guard let d = Double(text) else { throw error(.invalidNumber) }
            // 1e400 would become infinity, which JSON cannot write back: the value sent would
            // silently be null. Refuse it instead.
            guard d.isFinite else { throw error(.numberOutOfRange) }
            return .number(d)
        }
    }
}

extension JSONValue {
    /// Where a string whose contents start at `start` closes (the index of its closing quote) when
    /// it holds no escape and no control byte, and whether its contents are ASCII; nil when it
    /// holds one, or runs to the end.
    static func plainString(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (close: Int, ascii: Bool)? {
        var end = start
        var high: UInt8 = 0
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            high |= byte
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
        return (end, high < 0x80)
    }
}

extension String {
    /// `bytes` as a string when they are valid UTF-8, else nil: what `String(validating:as:)`
    /// answers, through the standard library's fast decoder (`validating` runs a generic validator,
    /// which would be most of a requests-file line's parse). Decoding replaces each invalid sequence with U+FFFD, which is never what was there, so
    /// the bytes come back unchanged exactly when they were valid UTF-8.
    init?<Bytes: Collection<UInt8>>(validUTF8 bytes: Bytes) {
        let decoded = String(decoding: bytes, as: UTF8.self)
        guard decoded.utf8.elementsEqual(bytes) else { return nil }
        self = decoded
    }
}
