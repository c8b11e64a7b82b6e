import PushWords
import Testing

@testable import PushCore

/// The usual JSON mistakes are named, at the line and column an editor shows, with a caret under the spot.
@Suite struct JSONDiagnosisTests {
    func diagnose(_ text: String) -> JSONDiagnosis {
        let bytes = Array(text.utf8)
        do {
            _ = try JSONValue.parse(bytes)
        } catch {
            return JSONDiagnosis(bytes: bytes, error: error)
        }
        Issue.record("\(text) parsed")
        return JSONDiagnosis(bytes: [], error: JSONParseError(.unexpectedEnd, offset: 0))
    }

    @Test("every way the parser refuses a text is said in Spanish too, not in English inside a Spanish sentence")
    func everyParseErrorInSpanish() {
        let inputs: [[UInt8]] =
            [
                "\"a\u{01}\"", "[1 2]", "{\"a\":1 \"b\":2}", "{\"a\" 1}", "{1:2}", "\"\\uZZZZ\"", "\"\\q\"", "tru", "-",
                String(repeating: "[", count: 600), "1e999", "\"\\u12", "@", "", "1 2", "\"\\ud800\"", "\"\\udc00\"", "[1", "\"\\",
                "{\"a\":1", "\"abc",
            ].map { Array($0.utf8) } + [[0x22, 0xFF, 0x22]]
        var said: Set<String> = []
        for bytes in inputs {
            do {
                _ = try JSONValue.parse(bytes)
                Issue.record("\(bytes) parsed")
            } catch {
                said.insert(error.message)
                #expect(error.words.es != error.words.en, "'\(error.message)' has no Spanish")
            }
        }
        #expect(said.count >= 18, "the inputs reach most of the parser's refusals: \(said.sorted())")
    }

    @Test(
        "each usual mistake is named, at its place",
        arguments: [
            ("{\n  \"aps\": {\n    \"alert\": \"hi\",\n  }\n}", 3, 18, "a comma after the last item"),
            ("[1, 2,]", 1, 6, "a comma after the last item"),
            ("{'aps': {}}", 1, 2, "single quotes"),
            ("{\"aps\": 'x'}", 1, 9, "single quotes"),
            ("{\n  // a note\n  \"aps\": {}\n}", 2, 3, "a comment"),
            ("{\"aps\": {} /* x */}", 1, 12, "a comment"),
            ("{aps: {}}", 1, 2, "a key without quotes"),
            ("{“aps”: {}}", 1, 2, "typographic quotes"),
            ("{\"aps\": {\"alert\": \"hi\"}", 1, 24, "'}' missing at the end"),
            ("{\"aps\": [1, {\"a\": 2", 1, 20, "'}]}' missing at the end"),
            ("{\"aps\": \"hi", 1, 12, "a closing \" is missing"),
            ("{\"aps\": {\"alert\": \"hi\" \"badge\": 1}}", 1, 24, "a comma is missing"),
            ("{\"aps\": {\"content-available\": True}}", 1, 31, "Python"),
            ("{\"aps\": {}} x", 1, 13, "more text after"),
            ("{\"émoji 😀\": 1,}", 1, 14, "a comma after the last item"),
            ("\u{FEFF}{\"aps\": {}}", 1, 1, "a byte order mark"),
        ])
    func named(text: String, line: Int, column: Int, cause: String) {
        let diagnosis = diagnose(text)
        #expect(diagnosis.line == line && diagnosis.column == column, "\(diagnosis.line):\(diagnosis.column)")
        #expect(diagnosis.cause.text(.en).contains(cause), "\(diagnosis.cause.text(.en))")
        #expect(diagnosis.named)
        #expect(!diagnosis.cause.text(.es).isEmpty && diagnosis.cause.text(.es) != diagnosis.cause.text(.en))
    }

    @Test("the caret sits under the spot; a long line is shown as a window around it, with ellipses")
    func caret() {
        let short = diagnose("{\"a\": 1,}")
        #expect(short.excerpt == ["    {\"a\": 1,}", "           ^"])
        let long = diagnose("{\"token\":\"" + String(repeating: "ab", count: 60) + "\",\"payload\":{\"aps\":{\"alert\":\"x\",}}}")
        let window = long.excerpt[0]
        let caretLine = long.excerpt[1]
        #expect(window.hasPrefix("    …") && window.count <= 4 + JSONDiagnosis.window + 2, "\(window)")
        let caretColumn = caretLine.count - 1
        let pointed = Array(window)[caretColumn]
        #expect(pointed == ",", "the caret points at the comma: \(window)\n\(caretLine)")
    }

    @Test("inline JSON (one line) is located by its column alone; a file by line and column")
    func wording() {
        #expect(diagnose("{'a':1}").words.text(.en).hasPrefix("column 2: single quotes"))
        #expect(diagnose("{\n'a':1}").words.text(.en).hasPrefix("line 2, column 1: single quotes"))
        #expect(diagnose("{\n'a':1}").words.text(.es).hasPrefix("línea 2, columna 1: comillas simples"))
    }
}
