/// A calendar date given where UNIX seconds belong (`--expiration 2026-12-01`): the message that
/// refuses it says the seconds that date is, so the fix is one copy away.
public enum DateGiven {
    /// "2026-12-01" (its midnight), "2026-12-01T09:30", "2026-12-01 09:30:15", each with an optional
    /// trailing Z, all read as UTC: the seconds, and the date as it is shown back. Nil for anything else.
    public static func unixSeconds(_ text: String) -> (seconds: Int64, shown: String)? {
        let b = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int64? { HTTPDate.digits(b, range) }
        guard b.count >= 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            year >= 1970, (1...12).contains(month), (1...HTTPDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var rest = b[10...]
        if rest.last == UInt8(ascii: "Z") { rest = rest.dropLast() }
        var hour: Int64 = 0
        var minute: Int64 = 0
        var second: Int64 = 0
        if !rest.isEmpty {
            let time = Array(rest)
            guard time.count == 6 || time.count == 9, time[0] == UInt8(ascii: "T") || time[0] == 0x20, time[3] == UInt8(ascii: ":"),
                let h = number(11..<13), let m = number(14..<16), h < 24, m < 60
            else { return nil }
            hour = h
            minute = m
            if time.count == 9 {
                guard time[6] == UInt8(ascii: ":"), let s = number(17..<19), s < 60 else { return nil }
                second = s
            }
        }
        let seconds = HTTPDate.daysFromCivil(year: year, month: month, day: day) * 86400 + hour * 3600 + minute * 60 + second
        let two = HTTPDate.two
        let shown = "\(year)-\(two(month))-\(two(day)) \(two(hour)):\(two(minute))" + (second > 0 ? ":\(two(second))" : "") + " UTC"
        return (seconds, shown)
    }

    /// The seconds a date given for `name` is, and how to write them there (the catalog says "as UNIX
    /// seconds, that date (2026-12-01 00:00 UTC) is 1796083200: --expiration 1796083200"), or nil
    /// when `text` is not a date. `name` is a flag (`--expiration`) or a quoted field (`"expiration"`,
    /// written `"expiration":1796083200`).
    public static func suggestion(_ text: String, name: String) -> DateSuggestion? {
        guard let (seconds, shown) = unixSeconds(text) else { return nil }
        return DateSuggestion(shown: shown, seconds: seconds, use: name.hasPrefix("-") ? "\(name) \(seconds)" : "\(name):\(seconds)")
    }
}

/// A calendar date given where UNIX seconds belong, and the seconds it is.
public struct DateSuggestion: Sendable, Equatable {
    /// The date as it is shown back ("2026-12-01 00:00 UTC").
    public let shown: String
    public let seconds: Int64
    /// The seconds written where the date was: `--expiration 1796083200`, `"expiration":1796083200`.
    public let use: String
}
