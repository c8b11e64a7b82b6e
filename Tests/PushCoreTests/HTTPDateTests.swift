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

    @Test("anything else is not a date", arguments: [
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
