/// Text that came from outside (a file, a server, an argument) on its way to a terminal or a
/// log: bounded, and stripped of anything a terminal would act on.
///
/// A label read from a damaged PEM file, a reason a server made up, a device token line with a
/// NUL or an escape sequence in it: each is echoed in a message, and none may clear the screen,
/// forge a line, or dump a whole file. One mechanism for every such place.
public enum OutsideText {
    /// The default cap on echoed text, in characters.
    public static let defaultLimit = 80

    /// `text` with control characters (C0, DEL, C1, and the Unicode line/paragraph separators
    /// and bidi overrides a terminal would honour) shown as `\u{…}` escapes, cut to `limit`
    /// characters with an ellipsis.
    public static func display(_ text: some StringProtocol, limit: Int = defaultLimit) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count >= limit {
                out += "…"
                break
            }
            if isControl(scalar) {
                out += scalar.value == 0xFEFF ? "\\u{FEFF}" : "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }

    /// The same for bytes that may not be UTF-8 (invalid sequences show as U+FFFD).
    public static func display(bytes: some Collection<UInt8>, limit: Int = defaultLimit) -> String {
        display(String(decoding: bytes.prefix(limit * 4), as: UTF8.self), limit: limit)
    }

    /// Whether a terminal would act on this scalar rather than print it.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: return true
        default: return false
        }
    }
}

/// The rule for every value pushctl puts in an HTTP header: visible ASCII and spaces, and
/// UTF-8 above it, but never a byte below 0x20 or 0x7F. A CR or LF would end the header and
/// start another one the user never saw checked (libcurl sends header lines as given).
public enum HeaderValue {
    /// Longest value pushctl sends in any header it builds from user input. APNs' own limit
    /// on a whole header block is 8,000 bytes; nothing legitimate comes near this.
    public static let lengthLimit = 2048

    /// Throws when `value` holds a control byte or is longer than `limit` bytes. `name` is
    /// how the user gave it (a flag, a field), for the message: made only when there is one.
    public static func check(_ value: String, name: @autoclosure () -> String, limit: Int = lengthLimit) throws(InputError) {
        if let offset = value.utf8.firstIndex(where: { $0 < 0x20 || $0 == 0x7F }) {
            let position = value.utf8.distance(from: value.utf8.startIndex, to: offset) + 1
            throw InputError(HeaderProblem.controlCharacter(name: name(), byte: value.utf8[offset], position: position))
        }
        guard value.utf8.count <= limit else {
            throw InputError(HeaderProblem.tooLong(name: name(), bytes: value.utf8.count, limit: limit))
        }
    }
}

/// Checks on numbers that came from outside, so that no arithmetic on them can trap.
public enum OutsideNumber {
    /// `a - b`, clamped to Int64's range instead of trapping.
    public static func difference(_ a: Int64, _ b: Int64) -> Int64 {
        let (result, overflow) = a.subtractingReportingOverflow(b)
        guard overflow else { return result }
        return b < 0 ? .max : .min
    }

    /// A JSON number as whole milliseconds since 1970, when it is a plausible time (year 1970
    /// to 9999); nil for anything else (1e300, negative, a fraction of nothing).
    public static func unixMilliseconds(_ value: JSONValue?) -> Int64? {
        let ceiling: Int64 = 253_402_300_799_999  // 9999-12-31 23:59:59.999 UTC
        switch value {
        case .integer(let ms)?: return (0...ceiling).contains(ms) ? ms : nil
        case .number(let ms)?:
            guard ms.isFinite, ms >= 0, ms <= Double(ceiling) else { return nil }
            return Int64(ms)
        default: return nil
        }
    }
}
