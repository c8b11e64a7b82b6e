import PushWords
import Testing

@testable import PushCore

@Suite struct Base64URLTests {
    @Test("RFC 4648 vectors, without padding and with the URL alphabet")
    func vectors() {
        let cases = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in cases {
            #expect(Base64URL.encode(plain) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
    }

    @Test("round-trips every length up to 100 bytes")
    func roundTrip() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...100 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }

    @Test(
        "refuses padding, the standard alphabet's + and /, impossible lengths and stray bits",
        arguments: ["Zg==", "a+b/", "Zm9vY", "Zh", "ab cd"])
    func refuses(_ text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}

@Suite struct JSONValueTests {
    @Test("keeps key order and exact integers")
    func orderAndIntegers() throws {
        let value = try JSONValue.parse(#"{"iss":"DEF123GHIJ","iat":1700000000,"x":1.5,"s":"1700000000"}"#)
        #expect(value.compact == #"{"iss":"DEF123GHIJ","iat":1700000000,"x":1.5,"s":"1700000000"}"#)
        #expect(value["iat"] == .integer(1_700_000_000))
        #expect(value["s"] == .string("1700000000"))
    }

    @Test("escapes what JSON requires and decodes escapes, surrogate pairs included")
    func strings() throws {
        let text = "quote \" backslash \\ newline \n tab \t bell \u{07} é 😀"
        let encoded = JSONValue.string(text).compact
        #expect(encoded == #""quote \" backslash \\ newline \n tab \t bell \u0007 é 😀""#)
        #expect(try JSONValue.parse(encoded) == .string(text))
        #expect(try JSONValue.parse(#""\ud83d\ude00""#) == .string("😀"))
    }

    @Test("pretty output indents by two spaces")
    func pretty() throws {
        let value = try JSONValue.parse(#"{"aps":{"alert":"Hi","badge":1},"list":[1,2],"empty":{}}"#)
        #expect(
            value.pretty == """
                {
                  "aps": {
                    "alert": "Hi",
                    "badge": 1
                  },
                  "list": [
                    1,
                    2
                  ],
                  "empty": {}
                }
                """)
    }

    @Test(
        "rejects malformed JSON with a position",
        arguments: ["", "{", #"{"a":}"#, "[1,]", "01", "1.", "tru", #"{"a":1} x"#, #""\ud800""#, "\"a\u{01}\""])
    func rejects(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
    }
}

@Suite struct UTCDateTests {
    @Test("formats UNIX seconds as a UTC calendar date")
    func format() {
        #expect(UTCDate.format(unixSeconds: 0) == "1970-01-01 00:00:00 UTC")
        #expect(UTCDate.format(unixSeconds: 1_700_000_000) == "2023-11-14 22:13:20 UTC")
        #expect(UTCDate.format(unixSeconds: 951_782_400) == "2000-02-29 00:00:00 UTC")
        #expect(UTCDate.format(unixSeconds: -1) == "1969-12-31 23:59:59 UTC")
    }

    @Test("describes a token's age against APNs' 60-minute limit")
    func age() {
        #expect(TokenAge.describe(issuedAt: 1000, now: 1000 + 12 * 60) == "issued 12 min ago; APNs rejects it after 60 min")
        #expect(TokenAge.describe(issuedAt: 1000, now: 1000 + 61 * 60) == "issued 61 min ago; APNs rejects tokens older than 60 min")
        #expect(TokenAge.describe(issuedAt: 1000, now: 880) == "issued 2 min in the future")
    }
}
