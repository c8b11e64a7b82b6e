/// A device token as the path of `POST /3/device/<token>` carries it: lower-case hex.
public struct DeviceToken: Hashable, Sendable, CustomStringConvertible {
    /// Lower-case hex, even length, not empty.
    public let hex: String

    /// Apple's tokens are usually this many hex characters; Apple says not to rely on it.
    public static let usualHexLength = 64

    /// Accepts what developers paste: spaces and Xcode's `<ab cd …>` are stripped,
    /// upper-case hex is lowered. Refuses anything that is not even-length hex.
    public init(parsing text: String) throws(InputError) {
        var text = text
        let hex = text.withUTF8 { DeviceToken.cleanASCII($0) }
        if let hex {
            self.init(validHex: hex)
        } else {
            try self.init(checking: text)
        }
    }

    /// The same, from UTF-8 bytes (a line of a tokens file), without making a String first.
    public init(parsingUTF8 bytes: UnsafeBufferPointer<UInt8>) throws(InputError) {
        if let hex = DeviceToken.cleanASCII(bytes) {
            self.init(validHex: hex)
        } else {
            try self.init(checking: String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The same, from a byte array.
    public init(parsingUTF8 bytes: [UInt8]) throws(InputError) {
        try self.init(parsingUTF8: bytes[...])
    }

    /// The same, from part of a byte array (a line of a tokens file).
    public init(parsingUTF8 bytes: ArraySlice<UInt8>) throws(InputError) {
        self = try bytes.withUnsafeBufferPointer { buffer throws(InputError) in try DeviceToken(parsingUTF8: buffer) }
    }

    /// Checks what `init(parsingUTF8:)` would accept, without building the token: a tokens
    /// file's first pass, which only has to know that every line is good.
    public static func check(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(InputError) {
        if cleanHexDigits(bytes) == nil { _ = try DeviceToken(checking: String(decoding: bytes, as: UTF8.self)) }
    }

    /// Hex already checked (and lower-cased) by this module.
    init(validHex: String) { hex = validHex }

    /// The common case, in one pass over the bytes: ASCII hex, with spaces, tabs, line ends and
    /// Xcode's `<>` allowed around and between the digits. How many hex digits there are, or nil
    /// (and the careful path below explains) for anything else.
    public static func cleanHexDigits(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        scanClean(bytes) { _, _ in }
    }

    /// `cleanHexDigits`, handing each digit and its index to `digit` on the way.
    @inline(__always)
    private static func scanClean(_ bytes: UnsafeBufferPointer<UInt8>, _ digit: (UInt8, Int) -> Void) -> Int? {
        // The line as a tokens file mostly has it, nothing but hex digits: one table load a byte,
        // no grouping to keep. Anything else is scanned again from the start, below.
        if !bytes.isEmpty, bytes.count % 2 == 0, bytes.count <= maxHexLength {
            let allDigits = byteClass.withUnsafeBufferPointer { byteClass in
                for index in bytes.indices {
                    let byte = bytes[index]
                    guard byteClass[Int(byte)] == hexDigit else { return false }
                    digit(byte, index)
                }
                return true
            }
            if allDigits { return bytes.count }
        }
        var count = 0
        var grouping = Grouping()
        let clean = byteClass.withUnsafeBufferPointer { byteClass in
            for byte in bytes {
                switch byteClass[Int(byte)] {
                case hexDigit:
                    digit(byte, count)
                    count += 1
                    grouping.digit()
                case ignored: grouping.gap()
                default: return false
                }
            }
            return true
        }
        return clean && count > 0 && count % 2 == 0 && count <= maxHexLength && grouping.isOneToken ? count : nil
    }

    /// The longest token pushctl sends, in hex digits. Apple's are 64; longer ones have been
    /// seen, but nothing near this.
    public static let maxHexLength = 512

    /// Whitespace between digits is allowed only as a display grouping of one token — Xcode's
    /// `<740f4707 bebcf74f …>` (groups of 8), or groups of 2 or 4 — never as two tokens side by side.
    struct Grouping {
        private var current = 0
        private var first = 0
        private var groups = 0
        private var uneven = false

        mutating func digit() { current += 1 }

        mutating func gap() {
            guard current > 0 else { return }
            if groups == 0 { first = current } else if current != first { uneven = true }
            groups += 1
            current = 0
        }

        /// Whether the digits seen make one token (call once, at the end).
        var isOneToken: Bool {
            var copy = self
            if copy.current > 0 {
                // The last group may be shorter than the others.
                if copy.groups > 0 && copy.current > copy.first { copy.uneven = true }
                copy.groups += 1
                if copy.groups == 1 { copy.first = copy.current }
            }
            return copy.groups <= 1 || (!copy.uneven && [2, 4, 8].contains(copy.first))
        }
    }

    // Constants, not stored statics: a stored static is read through its lazy initializer
    // (`swift_once`), a call in the per-byte loop.
    private static var invalid: UInt8 { 0 }
    private static var hexDigit: UInt8 { 1 }
    private static var ignored: UInt8 { 2 }
    /// What each byte is to the fast path: one load per byte instead of a chain of range tests.
    private static let byteClass: [UInt8] = (0...255).map { (byte: Int) -> UInt8 in
        let byte = UInt8(byte)
        if byte.isASCIIHexDigit { return hexDigit }
        return byte.isASCIIWhitespace || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") ? ignored : invalid
    }

    /// The hex of a clean line, lower-cased, or nil when the careful path must look at it. One
    /// pass: the digits are copied as they are classified (`| 0x20` lowers A–F and leaves 0–9).
    static func cleanASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var clean = false
        let hex = String(unsafeUninitializedCapacity: bytes.count) { buffer in
            let count = scanClean(bytes) { byte, index in buffer[index] = byte | 0x20 }
            clean = count != nil
            return count ?? 0
        }
        return clean ? hex : nil
    }

    /// A line as a spreadsheet or a database exports tokens: several tokens in a row ("a1…,b2…", or
    /// ';', '|'), a row whose one column is the token ("a1…,42"), the token in quotes, a column's
    /// header ("device_token"), or a JSON object. Each is named with the command that makes a
    /// tokens file of it.
    static func exportedForm(_ text: String, shown: String) -> DeviceTokenProblem? {
        let trimmed = text[...].trimmingWhitespace()
        func bareToken(_ part: some StringProtocol) -> Bool { part.utf8.count >= 32 && part.utf8.allSatisfy(\.isASCIIHexDigit) }
        if trimmed.hasPrefix("{"), trimmed.contains("\"token\"") { return .jsonObject(shown: shown) }
        if let quote = trimmed.first, quote == "\"" || quote == "'", trimmed.count > 2, trimmed.last == quote, bareToken(trimmed.dropFirst().dropLast()) {
            return .quoted(shown: shown, quote: String(quote))
        }
        let separators: [Character] = [",", ";", "|", "\t"]
        if let separator = separators.first(where: { trimmed.contains($0) }) {
            let parts = trimmed.split(separator: separator, omittingEmptySubsequences: false).map { $0.trimmingWhitespace().filter { $0 != "\"" && $0 != "'" } }
            if parts.count >= 2, parts.allSatisfy(bareToken) {
                return .severalTokens(shown: shown, count: parts.count, separator: String(separator))
            }
            let columns = parts.indices.filter { bareToken(parts[$0]) }
            if parts.count >= 2, columns.count == 1 {
                return .spreadsheetRow(shown: shown, column: columns[0] + 1, separator: String(separator))
            }
        }
        if trimmed.lowercased().contains("token"), !trimmed.contains(where: \.isNumber) { return .columnHeader(shown: shown) }
        return nil
    }

    /// The careful path: Unicode whitespace, and an exact message for what is wrong.
    private init(checking text: String) throws(InputError) {
        let shown = OutsideText.display(DeviceToken.abbreviate(text))
        if let form = PastedForm.notADeviceToken(text) { throw InputError(DeviceTokenProblem.pasted(shown: shown, form)) }
        if let exported = DeviceToken.exportedForm(text, shown: shown) { throw InputError(exported) }
        var hex = ""
        var grouping = Grouping()
        var offset = 0
        for scalar in text.unicodeScalars {
            if scalar == "<" || scalar == ">" || scalar.properties.isWhitespace {
                grouping.gap()
                continue
            }
            offset += 1
            switch scalar {
            case "0"..."9", "a"..."f": hex.unicodeScalars.append(scalar)
            case "A"..."F": hex.unicodeScalars.append(Unicode.Scalar(scalar.value + 32)!)
            default:
                if text.hasSuffix(" bytes"), text.dropLast(6).allSatisfy(\.isNumber) { throw InputError(DeviceTokenProblem.dataValue(shown: shown)) }
                throw InputError(DeviceTokenProblem.notHex(shown: shown, character: OutsideText.display(String(scalar)), position: offset))
            }
            grouping.digit()
            guard hex.utf8.count <= DeviceToken.maxHexLength else { throw InputError(DeviceTokenProblem.tooLong(shown: shown)) }
        }
        guard !hex.isEmpty else { throw InputError(DeviceTokenProblem.empty) }
        guard grouping.isOneToken else { throw InputError(DeviceTokenProblem.grouped(shown: shown)) }
        guard hex.count % 2 == 0 else {
            throw InputError(DeviceTokenProblem.oddLength(shown: OutsideText.display(DeviceToken.abbreviate(hex)), digits: hex.count))
        }
        self.hex = hex
    }

    /// Whether the length is unusual enough to warn about (but not refuse).
    public var hasUnusualLength: Bool { hex.count != DeviceToken.usualHexLength }

    /// First and last eight digits, for one-line results: `a1b2c3d4…e5f60718`.
    public var short: String { DeviceToken.abbreviate(hex) }

    static func abbreviate(_ s: String) -> String {
        s.count <= 20 ? s : "\(s.prefix(8))…\(s.suffix(8))"
    }

    public var description: String { hex }
}

/// What is wrong with a device token (`shown` is the text given, abbreviated and made safe to echo).
public enum DeviceTokenProblem: InputProblem {
    /// Something people paste where a token belongs (a Data's description, a UUID, an FCM token, base64).
    case pasted(shown: String, PastedForm.NotADeviceToken)
    /// A JSON object with a "token" member: a line of a requests file, or an export.
    case jsonObject(shown: String)
    /// The token in quotes (`quote`: " or ').
    case quoted(shown: String, quote: String)
    /// `count` tokens in a row, separated by `separator` (",", ";", "|" or a tab).
    case severalTokens(shown: String, count: Int, separator: String)
    /// A spreadsheet's row whose one token is its `column` (1-based).
    case spreadsheetRow(shown: String, column: Int, separator: String)
    /// A column's header ("device_token").
    case columnHeader(shown: String)
    /// How Swift prints a Data value ("32 bytes").
    case dataValue(shown: String)
    /// `character` at `position` (1-based, blanks not counted) is not a hex digit.
    case notHex(shown: String, character: String, position: Int)
    /// Over `DeviceToken.maxHexLength` hex digits.
    case tooLong(shown: String)
    case empty
    /// Hex digits in groups that do not make one token (digits separated by spaces).
    case grouped(shown: String)
    /// An odd number of hex digits.
    case oddLength(shown: String, digits: Int)
}
