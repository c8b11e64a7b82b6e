import NIOCore
import NIOHPACK
import PushCore

/// What RFC 9113 §8.1.1–§8.3.1 makes a malformed request: checked on each request's header block
/// before the mock reads it. A malformed request is a stream error (RST_STREAM(PROTOCOL_ERROR)); the
/// connection and its other streams carry on.
enum HTTP2RequestRules {
    /// Why a request's header block is malformed, or nil. `contentLength` is the declared body size.
    static func problem(inRequest headers: HPACKHeaders, contentLength: inout Int?) -> String? {
        var method: String?
        var scheme = false
        var path = false
        var authority = false
        var regularSeen = false
        for (name, value, _) in headers {
            if let why = fieldProblem(name: name, value: value) { return why }
            if name.utf8.first == UInt8(ascii: ":") {
                if regularSeen { return "pseudo-header \(shown(name)) after a regular header" }
                switch name {
                case ":method":
                    if method != nil { return "a duplicate :method" }
                    method = value
                case ":scheme":
                    if scheme { return "a duplicate :scheme" }
                    scheme = true
                case ":path":
                    if path { return "a duplicate :path" }
                    if value.isEmpty { return "an empty :path" }
                    path = true
                case ":authority":
                    if authority { return "a duplicate :authority" }
                    authority = true
                default:
                    return "an unknown pseudo-header \(shown(name))"
                }
                continue
            }
            regularSeen = true
            if let why = regularProblem(name: name, value: value, contentLength: &contentLength) { return why }
        }
        guard let method else { return "no :method" }
        if method == "CONNECT" {
            return authority && !scheme && !path ? nil : "CONNECT with :scheme or :path, or without :authority"
        }
        if !scheme { return "no :scheme" }
        if !path { return "no :path" }
        return nil
    }

    /// Why a trailer block is malformed, or nil: trailers carry no pseudo-header.
    static func problem(inTrailers headers: HPACKHeaders) -> String? {
        var ignored: Int?
        for (name, value, _) in headers {
            if let why = fieldProblem(name: name, value: value) { return why }
            if name.utf8.first == UInt8(ascii: ":") { return "pseudo-header \(shown(name)) in trailers" }
            if let why = regularProblem(name: name, value: value, contentLength: &ignored) { return why }
        }
        return nil
    }

    /// A regular field: no connection-specific field (§8.2.2), `te` only as `trailers`, and one
    /// content-length of digits (repeated only with the same value).
    private static func regularProblem(name: String, value: String, contentLength: inout Int?) -> String? {
        switch name {
        case "connection", "proxy-connection", "keep-alive", "transfer-encoding", "upgrade":
            return "the connection-specific field \(name)"
        case "te" where value != "trailers":
            return "te other than trailers"
        case "content-length":
            guard !value.isEmpty, value.utf8.count <= 18, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(value)
            else { return "content-length \(shown(value)) is not a number" }
            if let earlier = contentLength, earlier != length { return "two content-length values" }
            contentLength = length
            return nil
        default:
            return nil
        }
    }

    /// A field's name is lower-case token characters (a pseudo-header's after its colon); its
    /// value has no NUL, CR or LF (§8.2.1). One pass over each, in place.
    private static func fieldProblem(name: String, value: String) -> String? {
        let nameProblem: String?? = name.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.isEmpty else { return "an empty field name" }
            for index in bytes.indices where !isTokenByte(bytes[index]) && !(index == 0 && bytes[index] == UInt8(ascii: ":")) {
                let byte = bytes[index]
                return byte >= 0x41 && byte <= 0x5A ? "an upper-case field name \(shown(name))" : "field name \(shown(name)) has a character not allowed"
            }
            return nil
        }
        if let nameProblem, let why = nameProblem { return why }
        let valueProblem: Bool? = value.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.contains { $0 < 0x0E && ($0 == 0 || $0 == 0x0A || $0 == 0x0D) }
        }
        if valueProblem == true { return "field \(shown(name)) has NUL, CR or LF in its value" }
        // Strings not stored as contiguous UTF-8 (never from the HPACK decoder): the same, slower.
        if nameProblem == nil || valueProblem == nil { return fieldProblemSlowly(name: name, value: value) }
        return nil
    }

    private static func fieldProblemSlowly(name: String, value: String) -> String? {
        var name = name
        var value = value
        name.makeContiguousUTF8()
        value.makeContiguousUTF8()
        return fieldProblem(name: name, value: value)
    }

    /// RFC 9110's tchar, lower case only.
    @inline(__always)
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: return true  // !#$%&'*+-.^_`|~
        default: return false
        }
    }

    private static func shown(_ text: String) -> String { OutsideText.display(text, limit: 40) }
}

/// Response header blocks, HPACK-encoded without the dynamic table or Huffman coding (RFC 7541
/// §6.2.2, literal fields not indexed): each answer costs one pass over its bytes, and the
/// client's table is never touched, so nothing is kept per connection.
enum HTTP2ResponseEncoder {
    /// Static-table indexes (RFC 7541 Appendix A) of the fields the mock sends.
    private static let staticStatus: [String: UInt8] = ["200": 8, "204": 9, "206": 10, "304": 11, "400": 12, "404": 13, "500": 14]
    private static let staticNames: [String: Int] = [
        ":status": 8, "content-length": 28, "content-type": 31, "date": 33, "retry-after": 53,
    ]

    static func encode(_ headers: HPACKHeaders, into buffer: inout ByteBuffer) {
        for (name, value, _) in headers {
            if name == ":status", let index = staticStatus[value] {
                buffer.writeInteger(0x80 | index)  // indexed field
                continue
            }
            if let index = staticNames[name] {
                writeInteger(index, prefixBits: 4, flags: 0x00, into: &buffer)
            } else {
                buffer.writeInteger(UInt8(0))
                writeString(name, into: &buffer)
            }
            writeString(value, into: &buffer)
        }
    }

    private static func writeString(_ text: String, into buffer: inout ByteBuffer) {
        writeInteger(text.utf8.count, prefixBits: 7, flags: 0x00, into: &buffer)
        buffer.writeString(text)
    }

    /// RFC 7541 §5.1.
    static func writeInteger(_ value: Int, prefixBits: Int, flags: UInt8, into buffer: inout ByteBuffer) {
        let limit = (1 << prefixBits) - 1
        guard value >= limit else {
            buffer.writeInteger(flags | UInt8(value))
            return
        }
        buffer.writeInteger(flags | UInt8(limit))
        var rest = value - limit
        while rest >= 128 {
            buffer.writeInteger(UInt8(rest & 0x7F | 0x80))
            rest >>= 7
        }
        buffer.writeInteger(UInt8(rest))
    }
}
