/// A requests-file line read without building a JSON tree. Most lines are written by a program
/// (`jq -c`, a script's `json.dumps(…, separators=(",", ":"))`): compact, no escape, integers
/// only. Such a line is checked byte by byte for exactly what `RequestLine.parse` takes from it —
/// the fields, the payload's bytes (already its compact form), and whether the payload's `aps`
/// makes it a silent push. Anything else — whitespace, an escape, a
/// fraction, nesting past `depthLimit`, a Live Activity (its lint reads the tree), or any mistake
/// at all — is not read here (nil), and the full parse reads it or says what is wrong; so this
/// path never refuses a line, and accepts only lines the full parse accepts the same way.
struct QuickRequestLine {
    var token: Range<Int>?
    var payload: Range<Int>?
    var topic: String?, pushType: String?, collapseID: String?, apnsID: String?
    var priority: GivenNumber?, expiration: GivenNumber?
    /// The payload's first `aps` is `{"content-available":1}` and nothing else.
    var silentOnly = false

    static let depthLimit = 32

    /// The line's parts, or nil when it is not such a line.
    init?(_ line: [UInt8]) {
        let read: Bool = line.withUnsafeBufferPointer { bytes in
            var scan = Scan(bytes: bytes)
            return scan.line(into: &self) && scan.index == bytes.count
        }
        guard read, token != nil, payload != nil else { return nil }
    }

    private struct Scan {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        func at(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

        /// The bytes in `range` spell `text`.
        func spells(_ range: Range<Int>, _ text: StaticString) -> Bool {
            guard range.count == text.utf8CodeUnitCount else { return false }
            let spelled = text.utf8Start
            for offset in 0..<range.count where bytes[range.lowerBound + offset] != spelled[offset] { return false }
            return true
        }

        /// The header fields a line may give: text, or an integer (as `RequestLine` reads them).
        static let textFields: [(StaticString, any WritableKeyPath<QuickRequestLine, String?> & Sendable)] = [
            ("topic", \.topic), ("push-type", \.pushType), ("collapse-id", \.collapseID), ("apns-id", \.apnsID),
        ]
        static let numberFields: [(StaticString, any WritableKeyPath<QuickRequestLine, GivenNumber?> & Sendable)] = [
            ("priority", \.priority), ("expiration", \.expiration),
        ]

        /// The top-level object: every member a known field, once, of a kind the full parse takes.
        mutating func line(into parts: inout QuickRequestLine) -> Bool {
            var seen: UInt8 = 0
            return members(depth: 0) { scan, key in
                // Each field's bit in `seen`: token 1, payload 2, then the text fields, then the numbers.
                var field: UInt8 = 0
                let start = scan.index
                if scan.spells(key, "token") {
                    field = 1
                    guard let text = scan.string() else { return false }
                    parts.token = text
                } else if scan.spells(key, "payload") {
                    field = 2
                    guard scan.at(UInt8(ascii: "{")), scan.payload(&parts) else { return false }
                    parts.payload = start..<scan.index
                } else if let at = Scan.textFields.firstIndex(where: { scan.spells(key, $0.0) }) {
                    field = 4 << at
                    guard let value = scan.text() else { return false }
                    parts[keyPath: Scan.textFields[at].1] = value
                } else if let at = Scan.numberFields.firstIndex(where: { scan.spells(key, $0.0) }) {
                    field = 64 << at
                    guard let value = scan.number() else { return false }
                    parts[keyPath: Scan.numberFields[at].1] = value
                }
                guard field != 0, seen & field == 0 else { return false }
                seen |= field
                return true
            }
        }

        /// A text field: a string, or null (as if left out). The outer optional is nil for anything else.
        mutating func text() -> String?? {
            if literal("null") { return .some(nil) }
            guard let range = string() else { return nil }
            return .some(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
        }

        /// An integer field: an integer, a string (for the rules to check), or null.
        mutating func number() -> GivenNumber?? {
            if literal("null") { return .some(nil) }
            if at(UInt8(ascii: "\"")) {
                guard let range = string() else { return nil }
                return .some(.text(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)))
            }
            let start = index
            guard integer() else { return nil }
            var value: Int64 = 0
            let negative = bytes[start] == UInt8(ascii: "-")
            for byte in bytes[(negative ? start + 1 : start)..<index] { value = value * 10 + Int64(byte - UInt8(ascii: "0")) }
            return .some(.integer(negative ? -value : value))
        }

        /// The payload object, noting whether its first `aps` makes it a silent push.
        mutating func payload(_ parts: inout QuickRequestLine) -> Bool {
            var apsSeen = false
            return members(depth: 1) { scan, key in
                guard !apsSeen, scan.spells(key, "aps"), scan.at(UInt8(ascii: "{")) else {
                    if scan.spells(key, "aps") { apsSeen = true }
                    return scan.value(depth: 2)
                }
                apsSeen = true
                var count = 0
                var silent = false
                let read = scan.members(depth: 2) { scan, key in
                    count += 1
                    let start = scan.index
                    guard scan.value(depth: 3) else { return false }
                    if count == 1 && scan.spells(key, "content-available") && scan.spells(start..<scan.index, "1") { silent = true }
                    return true
                }
                parts.silentOnly = silent && count == 1
                return read
            }
        }

        /// `{}` or `{"key":value,…}`, calling `member` with each key's bytes and the index at its value.
        mutating func members(depth: Int, _ member: (inout Scan, Range<Int>) -> Bool) -> Bool {
            guard depth < QuickRequestLine.depthLimit, at(UInt8(ascii: "{")) else { return false }
            index += 1
            if at(UInt8(ascii: "}")) {
                index += 1
                return true
            }
            while true {
                guard let key = string(), at(UInt8(ascii: ":")) else { return false }
                index += 1
                guard member(&self, key) else { return false }
                if at(UInt8(ascii: ",")) {
                    index += 1
                    continue
                }
                guard at(UInt8(ascii: "}")) else { return false }
                index += 1
                return true
            }
        }

        /// Any value, compact and without an escape or a fraction.
        mutating func value(depth: Int) -> Bool {
            guard depth < QuickRequestLine.depthLimit, index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: "{"): return members(depth: depth) { scan, _ in scan.value(depth: depth + 1) }
            case UInt8(ascii: "["):
                index += 1
                if at(UInt8(ascii: "]")) {
                    index += 1
                    return true
                }
                while true {
                    guard value(depth: depth + 1) else { return false }
                    if at(UInt8(ascii: ",")) {
                        index += 1
                        continue
                    }
                    guard at(UInt8(ascii: "]")) else { return false }
                    index += 1
                    return true
                }
            case UInt8(ascii: "\""): return string() != nil
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return integer()
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let end = index + word.utf8CodeUnitCount
            guard end <= bytes.count, spells(index..<end, word) else { return false }
            index = end
            return true
        }

        /// An integer as the full parse writes it back: `-?(0|[1-9][0-9]*)`, at most 18 digits (so
        /// it fits Int64), not `-0`, not followed by a fraction or an exponent.
        mutating func integer() -> Bool {
            let start = index
            if at(UInt8(ascii: "-")) { index += 1 }
            let digits = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            let count = index - digits
            guard count > 0, count <= 18, count == 1 || bytes[digits] != UInt8(ascii: "0") else { return false }
            guard !(digits > start && count == 1 && bytes[digits] == UInt8(ascii: "0")) else { return false }
            return !(at(UInt8(ascii: ".")) || at(UInt8(ascii: "e")) || at(UInt8(ascii: "E")))
        }

        /// A string without an escape or a control byte, in valid UTF-8: the range of its contents.
        mutating func string() -> Range<Int>? {
            guard at(UInt8(ascii: "\"")) else { return nil }
            let start = index + 1
            guard let (end, ascii) = JSONValue.plainString(bytes, from: start) else { return nil }
            if !ascii && String(validUTF8: UnsafeBufferPointer(rebasing: bytes[start..<end])) == nil { return nil }
            index = end + 1
            return start..<end
        }
    }
}

extension RequestLine.Reader {
    /// The line read the quick way (`QuickRequestLine`), or nil for the full parse to read it.
    mutating func quick(_ bytes: [UInt8]) -> DeviceNotification? {
        guard let line = QuickRequestLine(bytes), let tokenRange = line.token, let payloadRange = line.payload,
            let token = try? DeviceToken(parsingUTF8: bytes[tokenRange])
        else { return nil }
        // A field that is not what it should be is said by the full parse.
        guard
            let spec = try? spec(
                topic: line.topic, pushType: line.pushType, priority: line.priority, collapseID: line.collapseID,
                expiration: line.expiration, apnsID: line.apnsID),
            !spec.topic.isEmpty
        else { return nil }
        // The push type as `PushTemplate` finds it; a Live Activity's payload goes to its lint, which reads the tree.
        let pushType = spec.pushType ?? (line.silentOnly ? .background : .alert)
        guard pushType != .liveactivity,
            let checked = try? PushTemplate.checkHeaders(spec, pushType: pushType, sharing: previous),
            (try? Payload.checkSize(payloadRange.count, for: pushType)) != nil
        else { return nil }
        previous = checked
        return PushTemplate.notification(to: token, shape: RequestShape(method: .post, headerLines: checked.lines, body: RequestBody(bytes[payloadRange])))
    }
}
