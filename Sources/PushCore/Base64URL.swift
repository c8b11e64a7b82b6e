/// Base64url without padding (RFC 4648 §5), the alphabet JOSE uses for every JWT part.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let input = Array(bytes)
        var out = [UInt8]()
        out.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= input.count {
            let n = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
            out.append(alphabet[Int(n & 63)])
            index += 3
        }
        switch input.count - index {
        case 1:
            let n = UInt32(input[index]) << 16
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
        case 2:
            let n = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
        default:
            break
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func encode(_ string: String) -> String { encode(Array(string.utf8)) }

    /// Decodes unpadded base64url. Returns nil for characters outside the alphabet,
    /// padding, or an impossible length (4n+1).
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let input = Array(text.utf8)
        if input.count % 4 == 1 { return nil }
        var out = [UInt8]()
        out.reserveCapacity(input.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in input {
            let value = reverse[Int(byte)]
            if value == 0xFF { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        // Leftover bits must be zero, or the text was not produced by an encoder.
        if bits > 0 && buffer & ((1 << UInt32(bits)) - 1) != 0 { return nil }
        return out
    }
}

extension UInt8 {
    /// Space, tab, CR or LF: the one whitespace rule for bytes read from files, lines and headers
    /// (blank lines, a key's normalised content, a header value's ends). Text that is Unicode
    /// (JSON strings, bundle ids) uses Character's own rule instead.
    public var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }

    /// 0-9, a-f or A-F: the one hex-digit rule (`Character.isHexDigit` would also take fullwidth
    /// digits, which no token, UUID or digest holds).
    public var isASCIIHexDigit: Bool { (0x30...0x39).contains(self) || (0x61...0x66).contains(self) || (0x41...0x46).contains(self) }
}

extension Sequence where Element == UInt8 {
    /// Lower-case hex, two digits a byte: the one hex writer (device tokens, digests, keys).
    @inlinable public var hexString: String { hexString(uppercase: false) }

    /// Hex, two digits a byte, `separator` between bytes (`AB:CD:…` for a fingerprint). Inlinable,
    /// so specialized where it is called: called generic from another module, the loop looked up
    /// the sequence's iterator type at run time, at the cost of a scan of the runtime's
    /// conformance records.
    @inlinable public func hexString(uppercase: Bool, separator: String = "") -> String {
        let digits = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        let between = Array(separator.utf8)
        var out = [UInt8]()
        out.reserveCapacity(underestimatedCount * (2 + between.count))
        var first = true
        for byte in self {
            if !first { out += between }
            first = false
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
