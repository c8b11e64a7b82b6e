import ChildProcess
import PushWords
import Testing

@testable import PushCore

@Suite struct HTTPDateTests {
    @Test("IMF-fixdate both ways, leap days included")
    func roundTrip() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.format(unixSeconds: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(unixSeconds: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 23:59:59 GMT") == 1_709_251_199)
        for seconds: Int64 in [0, 951_782_400, 1_795_274_663, 4_102_444_800] {
            #expect(HTTPDate.parse(HTTPDate.format(unixSeconds: seconds)) == seconds)
        }
    }

    @Test(
        "anything else is not a date",
        arguments: [
            "", "Sun, 06 Nov 1994 08:49:37 UTC", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
            "Sun, 30 Feb 2023 08:49:37 GMT", "Sun, 06 Nox 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 0x Nov 1994 08:49:37 GMT",
        ])
    func refused(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test("clock skew: within a minute either way is fine")
    func skew() {
        #expect(ClockSkew(local: 1000, server: 1000).isAcceptable)
        #expect(ClockSkew(local: 1060, server: 1000).isAcceptable)
        #expect(!ClockSkew(local: 1061, server: 1000).isAcceptable)
        #expect(!ClockSkew(local: 1000, server: 1061).isAcceptable)
        #expect(ClockSkew(local: 1004, server: 1000).description == "4 s ahead")
        #expect(ClockSkew(local: 1000, server: 1180).description == "3 min behind")
        #expect(ClockSkew(local: .max, server: .min).seconds == .max)
    }
}

/// A calendar date where UNIX seconds belong: the seconds it is, for the refusal's hint.
@Suite struct DateGivenTests {
    @Test("a date, a date and time, with or without seconds and Z, read as UTC")
    func dates() {
        #expect(DateGiven.unixSeconds("2026-12-01")?.seconds == 1_796_083_200)
        #expect(DateGiven.unixSeconds("2026-12-01")?.shown == "2026-12-01 00:00 UTC")
        #expect(DateGiven.unixSeconds("1970-01-01")?.seconds == 0)
        #expect(DateGiven.unixSeconds("2024-02-29T23:59:59Z")?.seconds == 1_709_251_199)
        #expect(DateGiven.unixSeconds("2026-12-01T09:30")?.seconds == 1_796_117_400)
        #expect(DateGiven.unixSeconds("2026-12-01 09:30:15Z")?.shown == "2026-12-01 09:30:15 UTC")
        #expect(
            DateGiven.hint("2026-12-01", name: "--expiration")?.text(.en)
                == "as UNIX seconds, that date (2026-12-01 00:00 UTC) is 1796083200: --expiration 1796083200")
        #expect(
            DateGiven.hint("2026-12-01", name: "\"expiration\"")?.text(.es)
                == "en segundos UNIX, esa fecha (2026-12-01 00:00 UTC) es 1796083200: \"expiration\":1796083200")
    }

    @Test(
        "anything else is not a date",
        arguments: [
            "", "tomorrow", "1796083200", "2026-02-30", "2026-13-01", "1969-12-31", "2026-12-1", "2026/12/01", "2026-12-01T9:30",
            "2026-12-01T09:30+02:00", "2026-12-01T24:00", "2026-12-01T09:60", "2026-12-01T09:30:60", "2026-12-01Z09:30", "２０２６-12-01",
        ])
    func refused(_ text: String) {
        #expect(DateGiven.unixSeconds(text) == nil)
        #expect(DateGiven.hint(text, name: "--expiration") == nil)
    }

    @Test("every day from 1970 to 9999 reads back as its own midnight; random bytes never trap (seeded)")
    func property() {
        var random = SplitMix64(seed: 0xDA7E_2026)
        for _ in 0..<5_000 {
            let days = Int64.random(in: 0..<2_932_897, using: &random)
            let (y, m, d) = HTTPDate.civilFromDays(days)
            let text = "\(String(repeating: "0", count: 4 - String(y).count))\(y)-\(HTTPDate.two(m))-\(HTTPDate.two(d))"
            #expect(DateGiven.unixSeconds(text)?.seconds == days * 86400, "\(text)")
        }
        let alphabet = Array("0123456789-:TZ +x".utf8)
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...22, using: &random)).map { _ in random.pick(alphabet) }
            if let (seconds, _) = DateGiven.unixSeconds(String(decoding: bytes, as: UTF8.self)) { #expect(seconds >= 0) }
        }
    }
}
