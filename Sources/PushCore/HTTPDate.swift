/// The `date` header of an HTTP answer (RFC 9110's IMF-fixdate, "Sun, 06 Nov 1994 08:49:37 GMT"):
/// APNs sends one with every answer, which is how `pushctl doctor` compares the machine's clock
/// with Apple's. Parsed and written without Foundation's formatters (any locale, no ICU).
public enum HTTPDate {
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// UNIX seconds, or nil when the text is not an IMF-fixdate.
    public static func parse(_ text: some StringProtocol) -> Int64? {
        // "Sun, 06 Nov 1994 08:49:37 GMT": fixed positions, 29 ASCII characters.
        let b = Array(text.utf8)
        guard b.count == 29, b[3] == UInt8(ascii: ","), b[4] == 0x20, b[7] == 0x20, b[11] == 0x20, b[16] == 0x20,
            b[19] == UInt8(ascii: ":"), b[22] == UInt8(ascii: ":"), b[25] == 0x20,
            String(decoding: b[26...], as: UTF8.self) == "GMT",
            weekdays.contains(String(decoding: b[0..<3], as: UTF8.self)),
            let monthIndex = months.firstIndex(of: String(decoding: b[8..<11], as: UTF8.self))
        else { return nil }
        func number(_ range: Range<Int>) -> Int64? { digits(b, range) }
        guard let day = number(5..<7), let year = number(12..<16), let hour = number(17..<19),
            let minute = number(20..<22), let second = number(23..<25),
            (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let month = Int64(monthIndex + 1)
        guard day <= daysIn(month: month, year: year) else { return nil }
        return daysFromCivil(year: year, month: month, day: day) * 86400 + hour * 3600 + minute * 60 + min(second, 59)
    }

    /// "Sun, 06 Nov 1994 08:49:37 GMT"
    public static func format(unixSeconds seconds: Int64) -> String {
        let t = min(max(seconds, 0), 253_402_300_799)  // years 1970 to 9999
        let days = t / 86400
        let secs = t % 86400
        let (y, m, d) = civilFromDays(days)
        // 1970-01-01 was a Thursday.
        let weekday = weekdays[Int((days + 4) % 7)]
        let year = String(y)
        return "\(weekday), \(two(d)) \(months[Int(m - 1)]) \(String(repeating: "0", count: max(0, 4 - year.count)) + year) "
            + "\(two(secs / 3600)):\(two(secs % 3600 / 60)):\(two(secs % 60)) GMT"
    }

    /// The decimal number `bytes[range]` spells, nil when a byte is not a digit or the range runs past the end.
    static func digits(_ bytes: [UInt8], _ range: Range<Int>) -> Int64? {
        guard range.upperBound <= bytes.count else { return nil }
        var value: Int64 = 0
        for byte in bytes[range] {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return value
    }

    /// 0–99 in two digits ("07").
    static func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Howard Hinnant's days_from_civil: days since 1970-01-01.
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Howard Hinnant's civil_from_days.
    static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

/// How far this machine's clock is from a server's, judged for provider tokens: APNs refuses a
/// JWT whose `iat` is in the future or over an hour old, so a clock off by more than a minute
/// breaks tokens (or makes them expire early). The server's date has one-second resolution.
public struct ClockSkew: Sendable, Equatable {
    /// Local minus server, in seconds: positive when this machine is ahead.
    public let seconds: Int64

    /// The most skew tolerated before `pushctl doctor` calls the clock wrong.
    public static let allowedSeconds: Int64 = 60

    public init(local: Int64, server: Int64) {
        let (difference, overflow) = local.subtractingReportingOverflow(server)
        seconds = overflow ? (local > server ? .max : .min) : difference
    }

    public var isAcceptable: Bool { seconds.magnitude <= UInt64(ClockSkew.allowedSeconds) }
    // In words ("4 s ahead", "in step"): the catalog's `ClockSkew.words`.
}
