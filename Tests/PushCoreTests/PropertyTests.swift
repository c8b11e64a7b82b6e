import ChildProcess
import Foundation
import PushWords
import Testing

@testable import PushCore

// Property tests over every PushCore parser that takes outside input (issue 10, "How to keep
// it fixed"): payload JSON, device tokens, JWTs, header values, server answers.
//
// Each family runs with a fixed seed and a bounded number of cases, in its own child process
// (an exit test), so a trap fails that family's test with the case that trapped instead of
// killing the whole test run. Violations are collected and reported in one failure per
// property, each with the seed and the case index: the generators are deterministic, so the
// same seed gives the same cases.

/// The seed of every family; change it to explore, keep it fixed in the suite.
private let propertySeed: UInt64 = 0x1010_5EED

/// Violations of one property, reported together in one failure.
private struct Violations {
    let property: String
    let seed: UInt64
    private(set) var items: [String] = []
    private(set) var cases = 0
    init(_ property: String, seed: UInt64) {
        self.property = property
        self.seed = seed
    }
    mutating func checked() { cases += 1 }
    mutating func add(_ index: Int, _ input: String, _ what: String) {
        if items.count < 60 { items.append("case \(index): \(input) → \(what)") } else if items.count == 60 { items.append("… more") }
    }
    func report(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            items.isEmpty,
            """
            \(property): \(items.count) violation(s) (seed 0x\(String(seed, radix: 16)), \(cases) cases checked):
            \(items.joined(separator: "\n"))
            """, sourceLocation: sourceLocation)
    }
}

/// Notes the case about to run in a file, so a trap in the child process can be attributed:
/// the parent reads the last note when the child died.
private final class CaseLog {
    let fd: Int32
    init(path: String) { fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600) }
    deinit { close(fd) }
    func note(_ text: String) {
        guard fd >= 0 else { return }
        _ = ftruncate(fd, 0)
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBufferPointer { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    static func path(_ family: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("pushctl-property-\(getpid())-\(family).case").path
    }
    static func lastCase(_ path: String) -> String {
        defer { try? FileManager.default.removeItem(atPath: path) }
        return FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? "(no case noted)"
    }
}

/// A Swift-literal-like rendering of outside input: printable ASCII as is, everything else escaped,
/// long inputs cut with their length.
private func show(_ text: String, limit: Int = 120) -> String {
    var out = ""
    var count = 0
    for scalar in text.unicodeScalars {
        count += 1
        if count > limit { continue }
        switch scalar.value {
        case 0x22: out += "\\\""
        case 0x5C: out += "\\\\"
        case 0x20..<0x7F: out.unicodeScalars.append(scalar)
        default: out += "\\u{\(String(scalar.value, radix: 16))}"
        }
    }
    return "\"" + out + "\"" + (count > limit ? "…(\(count) scalars)" : "")
}

private func show(_ bytes: [UInt8], limit: Int = 120) -> String {
    var out = ""
    for byte in bytes.prefix(limit) {
        switch byte {
        case 0x22: out += "\\\""
        case 0x5C: out += "\\\\"
        case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
        default: out += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }
    }
    return "b\"" + out + "\"" + (bytes.count > limit ? "…(\(bytes.count) bytes)" : "")
}

/// JSON equality where a number written without a fraction may come back as an integer
/// (`JSONValue.compact` writes 1.0 as 1): the same JSON number.
private func sameJSON(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.integer(let i), .number(let d)), (.number(let d), .integer(let i)): return Double(i) == d
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { sameJSON($0, $1) }
    case (.object(let x), .object(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && sameJSON($0.1, $1.1) }
    default: return a == b
    }
}

private func hasControlByte(_ text: String) -> Bool { text.utf8.contains { $0 < 0x20 || $0 == 0x7F } }

// MARK: - Generators

private enum Gen {
    static let validPayloads: [String] = [
        #"{"aps":{"alert":{"title":"Hello","body":"From pushctl"},"badge":1,"sound":"default"}}"#,
        #"{"aps":{"content-available":1}}"#,
        #"{"aps":{"alert":"Hi \u00e9 \ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t \u0000"},"k":[1,2.5,-0,true,false,null,{}]}"#,
        #"{"a":1e300,"b":-9223372036854775808,"c":99999999999999999999,"d":1.0,"e":-0.0,"f":1e-400,"g":9223372036854775807}"#,
        #"{"aps":{"alert":{"loc-key":"K","loc-args":["a","b"]},"mutable-content":1},"order":{"id":42,"items":[[[]]]}}"#,
        " \n\t{ \"aps\" : { } } \r\n",
        #"{"":"","\u0041":"A"}"#,
        #"[1,"two",{"three":3}]"#,
    ]

    /// Pieces a mutation inserts: structure, escapes, number edges, bad UTF-8.
    static let pieces: [[UInt8]] =
        [
            "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud800", "\\udc00", "\\ud800\\u0041", "\\uDFFF\\uD800",
            "1e300", "-1e300", "1e400", "-9223372036854775808", "-9223372036854775809", "9223372036854775808",
            "99999999999999999999", "0.0000000000000000000000001", "-", "0e", "1.", ".5", "01", "-0", "1E+2",
            "true", "tru", "null", "nul", "NaN", "Infinity", "\u{1B}[2J", "\u{FEFF}",
        ].map { Array($0.utf8) } + [
            [0x00], [0x7F], [0x80], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xE2, 0x82], [0xFF], [0xEF, 0xBB, 0xBF], [0x0B], [0x0C],
        ]

    static func mutate(_ input: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let at = Int.random(in: 0...bytes.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0 where !bytes.isEmpty && at < bytes.count: bytes[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            case 1 where at < bytes.count: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...6, using: &rng)))
            case 2 where at < bytes.count:
                let end = min(bytes.count, at + Int.random(in: 1...12, using: &rng))
                bytes.insert(contentsOf: Array(bytes[at..<end]), at: at)
            default: bytes.insert(contentsOf: rng.pick(pieces), at: at)
            }
        }
        return bytes
    }

    static func randomBytes(_ rng: inout SplitMix64, maxCount: Int = 40) -> [UInt8] {
        (0..<Int.random(in: 0...maxCount, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    /// JSON texts: fixed edge cases first, then random and mutated ones.
    static func jsonInputs(count: Int, _ rng: inout SplitMix64) -> [[UInt8]] {
        var inputs: [[UInt8]] = [
            "1e300", "-1e300", "1e400", "-1e400", "1e-400", "-9223372036854775808", "-9223372036854775809",
            "9223372036854775807", "9223372036854775808", "99999999999999999999", "-0", "-0.0", "0.1e1",
            "123456789012345678901234567890e-10", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\ud800\"", "\"\\ud83d\\ude00\"",
            "\"\\u0000\"", "\"\u{7F}\"", "{\"a\":1,\"a\":2}", "", " ", "{", "}", "[", "\"", "\u{FEFF}{}", "{}\u{0}", "{} {}",
            String(repeating: "[", count: 511) + String(repeating: "]", count: 511),
            String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
            String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
            String(repeating: "[", count: 100_000),
            String(repeating: "{\"a\":", count: 600) + "1" + String(repeating: "}", count: 600),
            "\"" + String(repeating: "\\u00e9", count: 20_000) + "\"",
            "[" + Array(repeating: "1e300", count: 5_000).joined(separator: ",") + "]",
        ].map { Array($0.utf8) }
        inputs += [
            [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
            [0x22, 0xE2, 0x82, 0x22], [0x22, 0xFF, 0x22], [0x22, 0x80, 0x22], [0xEF, 0xBB, 0xBF, 0x7B, 0x7D],
        ]
        while inputs.count < count {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0, 1: inputs.append(randomBytes(&rng))
            case 2: inputs.append(Array((0..<Int.random(in: 0...30, using: &rng)).map { _ in rng.pick(pieces) }.joined()))
            default: inputs.append(mutate(Array(rng.pick(validPayloads).utf8), &rng))
            }
        }
        return inputs
    }

    /// Device-token texts: hex with what developers paste around it, and hostile bytes.
    static let tokenPieces: [[UInt8]] =
        [
            "0", "1", "9", "a", "f", "A", "F", "0f", "ab", "a1b2c3d4", " ", "\t", "\r", "\n", "\r\n", "<", ">", "g", "x", "-", ":",
            "\u{FEFF}", "１", "２", "３", "Ａ", "\u{00A0}", "\u{2028}", "\u{3000}", "\u{0B}", "\u{0C}", "\u{1B}[2J", "\u{7F}", "é", "\u{202E}",
        ].map { Array($0.utf8) } + [[0x00], [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0x80]]

    static func tokenInputs(count: Int, _ rng: inout SplitMix64) -> [[UInt8]] {
        let good = String(repeating: "a1", count: 32)
        var inputs: [[UInt8]] = [
            good, good.uppercased(), "<\(good)>", "<a1a1a1a1 a1a1a1a1 a1a1a1a1 a1a1a1a1 a1a1a1a1 a1a1a1a1 a1a1a1a1 a1a1a1a1>",
            "", " ", "<>", "a", "１２３４", "\u{FEFF}" + good, good + "\u{0}", good + "\r", "\r" + good, good + " " + good,
            good + "\r" + good, "００", "ａｂ", String(repeating: "0", count: 100_000), String(repeating: "ab", count: 5_000),
        ].map { Array($0.utf8) }
        while inputs.count < count {
            if rng.chance(15) {
                inputs.append(mutate(Array(good.utf8), &rng))
            } else {
                let n = Int.random(in: 0...70, using: &rng)
                inputs.append(Array((0..<n).map { _ in rng.chance(80) ? rng.pick(Array(tokenPieces.prefix(10))) : rng.pick(tokenPieces) }.joined()))
            }
        }
        return inputs
    }

    /// Header-ish values: plausible ones and hostile ones.
    static let hostileText: [String] = [
        "a\r\nx-injected: 1", "a\nb", "a\rb", "\r\n", "a\u{0}b", "\u{0}", "a\u{7F}", "\u{1B}[2J", "\u{1B}]0;pwned\u{7}", "a\tb", "\t",
        "\u{85}", "\u{2028}", "\u{FEFF}", "\u{202E}", "１２３", "ｃｏｍ", "é", "😀", " ", "  a  ", String(repeating: "x", count: 100_000),
        String(repeating: "é", count: 33), String(repeating: "a", count: 64), String(repeating: "a", count: 65), "",
    ]

    static func randomText(_ rng: inout SplitMix64, base: [String]) -> String {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return rng.pick(hostileText)
        case 1: return rng.pick(base)
        case 2: return rng.pick(base) + rng.pick(hostileText)
        default:
            let s = rng.pick(base)
            let cut = Int.random(in: 0...s.count, using: &rng)
            return String(s.prefix(cut)) + rng.pick(hostileText) + String(s.dropFirst(cut))
        }
    }
}

// MARK: - The families

@Suite("Properties of PushCore's parsers of outside input (fixed seed)")
struct PropertyTests {
    /// A family of properties: its cases (seeded), run in a child process of their own so that a
    /// trap fails this family with the case it trapped on, not the whole test run.
    enum Family: String, Codable, Sendable, CaseIterable, CustomTestStringConvertible {
        case json, payload, token, jwt, response, headers, spool

        var testDescription: String {
            switch self {
            case .json:
                return
                    "JSONValue.parse: never traps, errors point into the text, what it parses round-trips through compact and pretty; a compact member's span is its compact form"
            case .payload: return "Payload(bytes:source:): a refused payload throws InputError; an accepted one is a JSON object, kept byte for byte"
            case .token: return "DeviceToken(parsing:) and (parsingUTF8:): accepted tokens are lower-case ASCII hex of even length; every way in agrees"
            case .jwt: return "DecodedJWT(parsing:) then ProviderTokenRules.audit, UTCDate.format and TokenAge.describe: no trap on any claims"
            case .response: return "PushResponse and PushResult over random statuses and bodies: no trap, a reason exactly when not 2xx, JSON lines that parse"
            case .headers: return "PushTemplate: accepted header values hold no control byte, apns-id is ASCII hex 8-4-4-4-12, every rule holds"
            case .spool:
                return
                    "RequestLine and SpooledNotification: a line reads the same compact or spaced, alone or after others; its record is one line and reads back as the same request, alone or after others; any bytes read back without a trap"
            }
        }

        /// Runs the family's cases (in the child process).
        func run(seed: UInt64, log: String) {
            switch self {
            case .json: jsonProperties(seed: seed, count: 3000, log: log)
            case .payload: payloadProperties(seed: seed, count: 2000, log: log)
            case .token: tokenProperties(seed: seed, count: 4000, log: log)
            case .jwt: jwtProperties(seed: seed, count: 2500, log: log)
            case .response: responseProperties(seed: seed, count: 3000, log: log)
            case .headers: headerProperties(seed: seed, count: 4000, log: log)
            case .spool: spoolProperties(seed: seed, count: 3000, log: log)
            }
        }
    }

    @Test("each family of properties holds over its seeded cases, without a trap", arguments: Family.allCases)
    func family(_ family: Family) async {
        let log = CaseLog.path(family.rawValue)
        let result = await #expect(processExitsWith: .success, "\(family.rawValue): the child process trapped") {
            [family = family as Family, seed = propertySeed as UInt64, log = log as String] in
            family.run(seed: seed, log: log)
        }
        if result == nil { Issue.record("\(family.rawValue): the child process died at \(CaseLog.lastCase(log)) (seed 0x\(String(propertySeed, radix: 16)))") }
    }

    /// Extreme iat values, each in its own child process so each trap is reported on its own
    /// (issue 10 item 8: `"iat": -9223372036854775808` traps `jwt decode`, `jwt verify`, `send --jwt`).
    @Test(
        "audit, UTCDate.format and TokenAge.describe survive each extreme iat",
        arguments: [
            "-9223372036854775808", "-9223372036854775807", "-9223372036854775000", "-9000000000000000000", "-4611686018427387904",
            "9223372036854775807", "9223372036854775806", "-1", "0", "1e300", "-1e300", "9.3e18", "-9.3e18", "\"1700000000\"",
        ])
    func extremeIssuedAt(iat: String) async {
        let jwt = jwtText(
            header: #"{"alg":"ES256","kid":"ABC123DEFG"}"#, claims: #"{"iss":"DEF123GHIJ","iat":\#(iat)}"#, signature: Array(repeating: 7, count: 64))
        await #expect(processExitsWith: .success, "trapped on a JWT with \"iat\": \(iat): \(jwt)") { [jwt = jwt as String] in
            let now: Int64 = 1_800_000_000
            guard let decoded = try? DecodedJWT(parsing: jwt) else { return }
            _ = ProviderTokenRules.audit(decoded, now: now)
            if case .integer(let iat)? = decoded.claims["iat"] {
                _ = UTCDate.format(unixSeconds: iat)
                _ = TokenAge.describe(issuedAt: iat, now: now)
                _ = ProviderTokenRules.isReusable(issuedAt: iat, now: now)
            }
        }
    }

    // MARK: Server answers

    /// Garbage 410 timestamps, each in its own child process (issue 10 item 8: `1e300` kills the batch).
    @Test(
        "PushResponse and PushResult survive each extreme 410 timestamp",
        arguments: [
            "1e300", "-1e300", "9.3e18", "-9.3e18", "9223372036854775807", "-9223372036854775808", "99999999999999999999", "1.5", "-1",
        ])
    func extremeTimestamp(timestamp: String) async {
        let body = #"{"reason":"Unregistered","timestamp":\#(timestamp)}"#
        await #expect(processExitsWith: .success, "trapped on a 410 answer with body \(body)") { [body = body as String] in
            for status in [410, 400, 200] {
                let response = PushResponse(status: status, apnsID: nil, apnsUniqueID: nil, body: Array(body.utf8))
                let result = PushResult(subject: .device(try! DeviceToken(parsing: "00ff")), response: response, attempts: 1)
                _ = result.jsonLine
                _ = result.explanationWords.text(.en)
            }
        }
    }

}

// MARK: - Family bodies (run in the child process)

private func jsonProperties(seed: UInt64, count: Int, log path: String) {
    var rng = SplitMix64(seed: seed ^ 0x4A53_4F4E)
    let log = CaseLog(path: path)
    var errorOffsets = Violations("JSONValue.parse: a JSONParseError's offset lies within the text", seed: seed)
    var roundTrip = Violations("JSONValue.parse: parse(value.compact) is the value it parsed (numbers compared as numbers)", seed: seed)
    var prettyTrip = Violations("JSONValue.parse: parse(value.pretty) is the value it parsed", seed: seed)
    var utf8 = Violations("String(validUTF8:) is String(validating:as:), on any bytes", seed: seed)
    var spans = Violations(
        "JSONValue.parseNotingCompactMembers: the value parse reads; a member's span, when given, is exactly its value's compact bytes", seed: seed)
    var found = Violations("JSONValue.parseNotingCompactMembers: a member written compact (integers, no escape) is found compact", seed: seed)
    for (index, bytes) in Gen.jsonInputs(count: count, &rng).enumerated() {
        log.note("JSON case \(index): \(show(bytes))")
        errorOffsets.checked()
        roundTrip.checked()
        prettyTrip.checked()
        utf8.checked()
        spans.checked()
        compactSpans(bytes, index: index, &spans)
        let random = Gen.randomBytes(&rng)
        for text in [bytes, random] where String(validUTF8: text) != String(validating: text, as: UTF8.self) {
            utf8.add(index, show(text), "validUTF8 \(String(validUTF8: text).map { show($0) } ?? "nil")")
        }
        let value: JSONValue
        do { value = try JSONValue.parse(bytes) } catch {
            if !(0...bytes.count).contains(error.offset) { errorOffsets.add(index, show(bytes), "offset \(error.offset) of \(bytes.count)") }
            continue
        }
        let compact = value.compact
        switch Result(catching: { () throws(JSONParseError) -> JSONValue in try JSONValue.parse(compact) }) {
        case .success(let again) where sameJSON(again, value): break
        case .success(let again): roundTrip.add(index, show(bytes), "compact \(show(compact)) parses as \(show(again.compact))")
        case .failure(let error): roundTrip.add(index, show(bytes), "compact \(show(compact)) does not parse: \(error)")
        }
        if let again = try? JSONValue.parse(value.pretty), sameJSON(again, value) {
        } else {
            prettyTrip.add(index, show(bytes), "pretty \(show(value.pretty)) is not the same value")
        }
        // The value as a member, written compact, spaced out, and pretty: each span holds.
        let wrapped = JSONValue.object([("a", .integer(1)), ("p", value)])
        for text in [wrapped.compactBytes, Array(wrapped.pretty.utf8), Array(wrapped.pretty.replacingOccurrences(of: "\n", with: " ").utf8)] {
            spans.checked()
            compactSpans(text, index: index, &spans)
        }
        // (Wrapped, the deepest values go past the nesting limit: nothing to find there.)
        if isPlainCompact(value), let spans = (try? JSONValue.parseNotingCompactMembers(wrapped.compactBytes))?.compactMembers {
            found.checked()
            if spans.count != 2 || spans[1] == nil { found.add(index, show(bytes), "spans \(spans) of \(show(wrapped.compact))") }
        }
    }
    spans.report()
    found.report()
    errorOffsets.report()
    roundTrip.report()
    prettyTrip.report()
    utf8.report()
}

/// parseNotingCompactMembers reads what parse reads, and each span it gives is its member's compact form.
private func compactSpans(_ bytes: [UInt8], index: Int, _ spans: inout Violations) {
    let plain = Result { () throws(JSONParseError) -> JSONValue in try JSONValue.parse(bytes) }
    let noting = Result { () throws(JSONParseError) -> (JSONValue, compactMembers: [Range<Int>?]) in try JSONValue.parseNotingCompactMembers(bytes) }
    switch (plain, noting) {
    case (.success(let value), .success((let again, let members))):
        guard value == again else { return spans.add(index, show(bytes), "parses as \(show(again.compact)), not \(show(value.compact))") }
        let values = value.objectMembers?.map(\.1) ?? []
        guard members.count == values.count else { return spans.add(index, show(bytes), "\(members.count) spans for \(values.count) members") }
        for (member, span) in zip(values, members) {
            if let span, Array(bytes[span]) != member.compactBytes {
                spans.add(index, show(bytes), "span \(show(Array(bytes[span]))) is not \(show(member.compactBytes))")
            }
        }
    case (.failure(let a), .failure(let b)) where a == b: break
    default: spans.add(index, show(bytes), "parse and parseNotingCompactMembers disagree")
    }
}

/// A value whose compact form the parser reads without a rewrite: no fraction or exponent, no -0,
/// no string that needs an escape.
private func isPlainCompact(_ value: JSONValue) -> Bool {
    func plain(_ s: String) -> Bool { s.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C } }
    switch value {
    case .number: return false
    case .string(let s): return plain(s)
    case .array(let items): return items.allSatisfy(isPlainCompact)
    case .object(let members): return members.allSatisfy { plain($0.0) && isPlainCompact($0.1) }
    default: return true
    }
}

private func payloadProperties(seed: UInt64, count: Int, log path: String) {
    var rng = SplitMix64(seed: seed ^ 0x5041_594C)
    let log = CaseLog(path: path)
    var accepted = Violations(
        "Payload(bytes:): an accepted payload is a JSON object, its bytes kept as given, the same value JSONValue.parse reads", seed: seed)
    var size = Violations("Payload.checkSize: refuses exactly the payloads over the push type's limit", seed: seed)
    var diagnosed = Violations(
        "JSONDiagnosis: the line and column are inside the text, the excerpt is two lines with no control character, the caret under it", seed: seed)
    var inputs = Gen.jsonInputs(count: count, &rng)
    inputs += [
        Array(("{\"aps\":{},\"x\":\"" + String(repeating: "a", count: 4096 - 17) + "\"}").utf8),
        Array(("{\"aps\":{},\"x\":\"" + String(repeating: "a", count: 4096 - 16) + "\"}").utf8),
        Array(("{\"aps\":{},\"x\":\"" + String(repeating: "a", count: 5120 - 16) + "\"}").utf8),
    ]
    for (index, bytes) in inputs.enumerated() {
        log.note("Payload case \(index): \(show(bytes))")
        accepted.checked()
        size.checked()
        diagnosed.checked()
        if case .failure(let error) = Result(catching: { () throws(JSONParseError) in try JSONValue.parse(bytes) }) {
            // The diagnosis points inside the text's lines, and its caret sits under the excerpt.
            let diagnosis = JSONDiagnosis(bytes: bytes, error: error)
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count
            let caret = diagnosis.excerpt.last.map { $0.count - 1 } ?? -1
            if diagnosis.line < 1 || diagnosis.line > lines || diagnosis.column < 1 || diagnosis.excerpt.count != 2
                || caret < 4 || caret > (diagnosis.excerpt.first?.count ?? 0) + 1
                || diagnosis.excerpt.contains(where: { $0.unicodeScalars.contains { $0.value < 0x20 } })
            {
                diagnosed.add(index, show(bytes), "line \(diagnosis.line) of \(lines), column \(diagnosis.column), excerpt \(diagnosis.excerpt)")
            }
        }
        guard let payload = try? Payload(bytes: bytes, source: "fuzz") else { continue }
        guard case .object = payload.json else {
            accepted.add(index, show(bytes), "accepted as \(payload.json.typeName)")
            continue
        }
        if payload.bytes != bytes { accepted.add(index, show(bytes), "bytes changed to \(show(payload.bytes))") }
        if let parsed = try? JSONValue.parse(bytes), parsed == payload.json {} else { accepted.add(index, show(bytes), "json differs from JSONValue.parse") }
        for type in PushType.allCases {
            let refused = (try? payload.checkSize(for: type)) == nil
            if refused != (bytes.count > type.payloadLimit) {
                size.add(index, show(bytes), "\(type.rawValue): \(bytes.count) bytes \(refused ? "refused" : "accepted") (limit \(type.payloadLimit))")
            }
        }
        _ = payload.inferredPushType
        _ = payload.warnings(for: .background)
    }
    accepted.report()
    size.report()
    diagnosed.report()
}

private func tokenProperties(seed: UInt64, count: Int, log path: String) {
    var rng = SplitMix64(seed: seed ^ 0x544F_4B4E)
    let log = CaseLog(path: path)
    var shape = Violations("DeviceToken: an accepted token's hex is non-empty, even-length, lower-case ASCII hex (0-9, a-f)", seed: seed)
    var agree = Violations("DeviceToken: parsing(String), parsingUTF8([UInt8]) and check(utf8:) accept the same text and give the same hex", seed: seed)
    var onePerLine = Violations("DeviceToken: two tokens on one line are refused, never joined into one", seed: seed)
    var cap = Violations("DeviceToken: a 100,000-digit token is refused (issue 10 item 2: lengths capped)", seed: seed)
    let good = String(repeating: "a1", count: 32)
    func isLowerHex(_ s: String) -> Bool { s.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) } }
    for (index, bytes) in Gen.tokenInputs(count: count, &rng).enumerated() {
        log.note("DeviceToken case \(index): \(show(bytes))")
        shape.checked()
        agree.checked()
        let fromBytes = try? DeviceToken(parsingUTF8: bytes)
        let fromSlice = try? DeviceToken(parsingUTF8: bytes[...])
        let checked = bytes.withUnsafeBufferPointer { buffer in (try? DeviceToken.check(utf8: buffer)) != nil }
        for (way, token) in [("parsingUTF8", fromBytes), ("parsingUTF8 slice", fromSlice)] {
            if let token, token.hex.isEmpty || token.hex.utf8.count % 2 != 0 || !isLowerHex(token.hex) {
                shape.add(index, show(bytes), "\(way) gave hex \(show(token.hex))")
            }
        }
        if fromBytes?.hex != fromSlice?.hex {
            agree.add(index, show(bytes), "array \(fromBytes.map { show($0.hex) } ?? "refused") vs slice \(fromSlice.map { show($0.hex) } ?? "refused")")
        }
        if checked != (fromBytes != nil) {
            agree.add(
                index, show(bytes),
                "check(utf8:) \(checked ? "accepts" : "refuses") but parsingUTF8 \(fromBytes == nil ? "refuses" : "accepts") (a tokens file's two passes disagree)"
            )
        }
        if let text = String(validating: bytes, as: UTF8.self) {
            let fromString = try? DeviceToken(parsing: text)
            if let token = fromString, token.hex.isEmpty || token.hex.utf8.count % 2 != 0 || !isLowerHex(token.hex) {
                shape.add(index, show(bytes), "parsing(String) gave hex \(show(token.hex))")
            }
            if fromString?.hex != fromBytes?.hex {
                agree.add(
                    index, show(bytes),
                    "parsing(String) \(fromString.map { show($0.hex) } ?? "refuses") vs parsingUTF8 \(fromBytes.map { show($0.hex) } ?? "refuses")")
            }
        }
    }
    for (index, line) in [good + " " + good, good + "\t" + good, good + "\r" + good, "<\(good)> <\(good)>"].enumerated() {
        onePerLine.checked()
        if let token = try? DeviceToken(parsing: line) { onePerLine.add(index, show(line), "accepted as one token of \(token.hex.count) hex digits") }
    }
    cap.checked()
    if let token = try? DeviceToken(parsing: String(repeating: "0", count: 100_000)) {
        cap.add(0, "String(repeating: \"0\", count: 100_000)", "accepted (\(token.hex.count) digits)")
    }
    shape.report()
    agree.report()
    onePerLine.report()
    cap.report()
}

private func jwtText(header: String, claims: String, signature: [UInt8]) -> String {
    Base64URL.encode(header) + "." + Base64URL.encode(claims) + "." + Base64URL.encode(signature)
}

private func jwtProperties(seed: UInt64, count: Int, log path: String) {
    var rng = SplitMix64(seed: seed ^ 0x4A57_5400)
    let log = CaseLog(path: path)
    var audits = Violations("audit: a decoded JWT gets a check for alg, kid, iss and iat", seed: seed)
    var rawParts = Violations("DecodedJWT: a refused token throws InputError; an accepted one keeps its three parts", seed: seed)
    let now: Int64 = 1_800_000_000
    let iats = [
        "1800000000", "1799996400", "1799990000", "1800000061", "0", "-1", "1e300", "-1e300", "1.5", "\"1800000000\"",
        "null", "true", "[]", "{}", "9223372036854775807", "99999999999999999999", "-9223372036854775808",
        "-9223372036854775807", "-9000000000000000000", "4611686018427387904", "-4611686018427387904", "9.3e18", "-0",
    ]
    let headers = [
        #"{"alg":"ES256","kid":"ABC123DEFG"}"#, #"{"alg":"ES256","kid":"ABC123DEFG","typ":"JWT"}"#, #"{"alg":"none"}"#,
        #"{"alg":"HS256","kid":"abc"}"#, #"{"alg":1,"kid":2,"typ":3}"#, #"{"alg":"ES256","kid":"\u001b[2J"}"#, #"{}"#,
        #"{"alg":"ES256","kid":"ＡＢＣ１２３ＤＥＦＧ"}"#,
    ]
    let b64 = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    for index in 0..<count {
        var text: String
        switch Int.random(in: 0..<6, using: &rng) {
        case 0, 1, 2:
            let iat = rng.chance(15) ? String(Int64.random(in: .min ... .max, using: &rng)) : rng.pick(iats)
            let iss = rng.pick(["\"DEF123GHIJ\"", "\"x\"", "1", "null", "\"\\u0000\\r\\n\""])
            let claims = rng.chance(10) ? #"{"iss":\#(iss)}"# : #"{"iss":\#(iss),"iat":\#(iat)}"#
            let sigLength = rng.pick([64, 70, 72, 0, 1, 63, 65, 200])
            text = jwtText(header: rng.pick(headers), claims: claims, signature: (0..<sigLength).map { _ in UInt8.random(in: 0...255, using: &rng) })
        case 3:
            text = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                String((0..<Int.random(in: 0...40, using: &rng)).map { _ in rng.pick(b64) })
            }.joined(separator: ".")
        case 4:
            let good = jwtText(header: headers[0], claims: #"{"iss":"DEF123GHIJ","iat":1800000000}"#, signature: Array(repeating: 1, count: 64))
            text = String(decoding: Gen.mutate(Array(good.utf8), &rng), as: UTF8.self)
        default:
            let good = jwtText(header: headers[0], claims: #"{"iss":"DEF123GHIJ","iat":1800000000}"#, signature: Array(repeating: 1, count: 64))
            text = rng.pick(["bearer ", "Bearer  ", " \n", "", "\u{FEFF}", "\u{0}"]) + good + rng.pick(["", " ", "\n", "=", "==", ".", "\u{0}", "\r\n"])
        }
        log.note("JWT case \(index): \(show(text))")
        audits.checked()
        rawParts.checked()
        guard let jwt = try? DecodedJWT(parsing: text) else { continue }
        if jwt.compact.split(separator: ".", omittingEmptySubsequences: false).count != 3 {
            rawParts.add(index, show(text), "accepted with compact \(show(jwt.compact))")
        }
        _ = jwt.signatureForm.words(byteCount: jwt.signature.count).text(.en)
        let checks = ProviderTokenRules.audit(jwt, now: now)
        for field in ["alg", "kid", "iss", "iat"] where !checks.contains(where: { $0.message.en.contains(field) && $0.message.es.contains(field) }) {
            audits.add(index, show(text), "no check mentions \(field): \(checks.map(\.message))")
        }
        if case .integer(let iat)? = jwt.claims["iat"] {
            _ = UTCDate.format(unixSeconds: iat)
            _ = TokenAge.describe(issuedAt: iat, now: now)
            _ = ProviderTokenRules.isReusable(issuedAt: iat, now: now)
        }
    }
    audits.report()
    rawParts.report()
}

private func responseProperties(seed: UInt64, count: Int, log path: String) {
    var rng = SplitMix64(seed: seed ^ 0x5245_5350)
    let log = CaseLog(path: path)
    var reasons = Violations("PushResponse: a reason exactly when the status is not 2xx", seed: seed)
    var lines = Violations("PushResult.jsonLine: one line of JSON, the same value as PushResult.json", seed: seed)
    var echo = Violations("PushResult: the server's text in reason and explanation holds no control byte (it is printed to a terminal)", seed: seed)
    let token = try! DeviceToken(parsing: String(repeating: "a1", count: 32))
    let reasonNames = [
        "Unregistered", "BadDeviceToken", "TooManyRequests", "InternalServerError", "ExpiredProviderToken", "", "x\u{1B}[2Jy",
        "a\r\nb", "\u{0}", String(repeating: "R", count: 10_000), "😀", "\\ud800",
    ]
    let timestamps = [
        "1700000000000", "1e300", "-1e300", "9.3e18", "-9.3e18", "9223372036854775807", "-9223372036854775808", "-1",
        "1.5", "\"1700000000000\"", "null", "99999999999999999999", "0",
    ]
    for index in 0..<count {
        let status = rng.chance(20) ? rng.pick([200, 400, 403, 404, 405, 410, 413, 429, 500, 503]) : Int.random(in: 100...599, using: &rng)
        var body: [UInt8]
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: body = []
        case 1: body = Gen.randomBytes(&rng, maxCount: 80)
        case 2: body = Array("<html>502 Bad Gateway</html>".utf8)
        default:
            let reason = JSONValue.string(rng.pick(reasonNames)).compact
            body = Array((rng.chance(50) ? #"{"reason":\#(reason),"timestamp":\#(rng.pick(timestamps))}"# : #"{"reason":\#(reason)}"#).utf8)
            if rng.chance(20) { body = Gen.mutate(body, &rng) }
        }
        let ids: [String?] = [nil, "123e4567-e89b-12d3-a456-426614174000", "", "a\r\nb", "\u{1B}[2J", String(repeating: "f", count: 5000), "１２３"]
        let apnsID = rng.pick(ids)
        let uniqueID = rng.pick(ids)
        let retryAfter = rng.pick([nil, 0, 1, -1, 999_999, Int.max, Int.min])
        let input =
            "status \(status), apns-id \(apnsID.map { show($0) } ?? "nil"), unique \(uniqueID.map { show($0) } ?? "nil"), retry-after \(retryAfter.map(String.init) ?? "nil"), body \(show(body))"
        log.note("PushResponse case \(index): \(input)")
        reasons.checked()
        lines.checked()
        echo.checked()
        let response = PushResponse(status: status, apnsID: apnsID, apnsUniqueID: uniqueID, retryAfterSeconds: retryAfter, body: body)
        // 2xx is success (201 and 204 answer channel calls); anything else carries a reason.
        if (response.reason == nil) != (200..<300).contains(status) { reasons.add(index, input, "reason \(String(describing: response.reason))") }
        for attempts in [1, 4] {
            let result = PushResult(subject: .device(token), response: response, attempts: attempts)
            let line = result.jsonLine()
            if line.contains("\n") { lines.add(index, input, "jsonLine has a line break: \(show(line))") }
            switch Result(catching: { () throws(JSONParseError) -> JSONValue in try JSONValue.parse(line) }) {
            case .success(let value) where sameJSON(value, result.json()): break
            case .success(let value): lines.add(index, input, "jsonLine \(show(line)) is not json \(show(result.json().compact)) (\(show(value.compact)))")
            case .failure(let error): lines.add(index, input, "jsonLine \(show(line)) does not parse: \(error)")
            }
            if hasControlByte(result.explanationWords.text(.en)) || result.reason.map({ hasControlByte($0.apnsName) }) == true {
                echo.add(index, input, "reason \(result.reason.map { show($0.apnsName) } ?? "nil"), explanation \(show(result.explanationWords.text(.en)))")
            }
        }
    }
    reasons.report()
    lines.report()
    echo.report()
}

private func headerProperties(seed: UInt64, count: Int, log path: String) {
    var rng = SplitMix64(seed: seed ^ 0x4844_5253)
    let log = CaseLog(path: path)
    var control = Violations("PushTemplate.headers: no accepted header value holds a byte below 0x20 or 0x7F", seed: seed)
    var apnsID = Violations("PushTemplate: an accepted apns-id is ASCII hex 8-4-4-4-12, lower-case", seed: seed)
    var rules = Violations(
        "PushTemplate: accepted values obey the pre-send rules (priority 10|5|1, not 10 for background; expiration ≥ 0; collapse id 1…64 bytes; topic without whitespace)",
        seed: seed)
    var caps = Violations("PushTemplate: a 100,000-character topic or header value is refused (issue 10 item 2)", seed: seed)
    let alert = try! Payload(bytes: Array(#"{"aps":{"alert":"hi"}}"#.utf8), source: "fuzz")
    let background = try! Payload(bytes: Array(#"{"aps":{"content-available":1}}"#.utf8), source: "fuzz")
    let topics = ["com.example.app", "com.example.app.voip", "a.b", "com.example.app.push-type.liveactivity"]
    let pushTypes = PushType.allCases.map(\.rawValue) + ["Alert", "alert ", "", "alert\r\nx: 1", "１"]
    let priorities = ["10", "5", "1", "0", "+10", "010", " 10", "10\n", "-5", "１０", "99999999999999999999", "", "1e1"]
    let collapseIDs = ["c", "order-42", String(repeating: "k", count: 64), "a\r\nx-injected: 1"]
    let expirations = [
        "0", "1700000000", "-1", "-0", "+5", " 5", "5 ", "9223372036854775807", "9223372036854775808", "１２３",
        "1e9", "0x10", "", "\u{0}",
    ]
    let uuids = [
        "123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000", "１２３e4567-e89b-12d3-a456-426614174000",
        "ＡＢＣＤＥＦ00-e89b-12d3-a456-426614174000", "123e4567-e89b-12d3-a456-42661417400\u{0}", "123e4567-e89b-12d3-a456-4266141740\r\n",
        "{123e4567-e89b-12d3-a456-426614174000}", "123e4567e89b12d3a456426614174000", "g23e4567-e89b-12d3-a456-426614174000",
        "123e4567-e89b-12d3-a456-42661417400٠", "123e4567-e89b-12d3-a456-426614174000 ",
    ]
    func isCanonicalASCIIUUID(_ s: String) -> Bool {
        let groups = s.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map { $0.utf8.count } == [8, 4, 4, 4, 12]
            && groups.allSatisfy { $0.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) } }
    }
    var specs: [PushSpec] = [
        PushSpec(topic: "com.example.app", collapseID: "a\r\nx-injected: 1"),
        PushSpec(topic: "com.example.app", collapseID: "a\nb"),
        PushSpec(topic: "com.example.app", apnsID: "１２３e4567-e89b-12d3-a456-426614174000"),
        PushSpec(topic: "com.example\u{0}app"),
        PushSpec(topic: "com.example.app\u{1B}[2J"),
        PushSpec(topic: String(repeating: "a", count: 100_000)),
        PushSpec(topic: "com.example.app", collapseID: "\u{7F}"),
    ]
    // What a person might write, checked into the spec's types as a flag or a line's field is; a
    // value refused there never reaches a template.
    while specs.count < count {
        let topic = rng.chance(60) ? rng.pick(topics) : Gen.randomText(&rng, base: topics)
        let pushType: String? = rng.chance(50) ? nil : rng.chance(80) ? rng.pick(pushTypes) : Gen.randomText(&rng, base: pushTypes)
        let priority: GivenNumber? =
            rng.chance(50)
            ? nil
            : rng.chance(20)
                ? .integer(rng.pick([-1, 0, 1, 5, 10, 11, Int64.max]))
                : .text(rng.chance(80) ? rng.pick(priorities) : Gen.randomText(&rng, base: priorities))
        let collapseID = rng.chance(40) ? nil : Gen.randomText(&rng, base: collapseIDs)
        let expiration: GivenNumber? =
            rng.chance(50)
            ? nil
            : rng.chance(20)
                ? .integer(rng.pick([Int64.min, -1, 0, 1_900_000_000, Int64.max]))
                : .text(rng.chance(80) ? rng.pick(expirations) : Gen.randomText(&rng, base: expirations))
        let apnsID = rng.chance(50) ? nil : rng.chance(70) ? rng.pick(uuids) : Gen.randomText(&rng, base: uuids)
        do throws(InputError) {
            specs.append(
                PushSpec(
                    topic: topic, pushType: try pushType.map { t throws(InputError) in try PushSpec.pushType(given: t, name: "push-type") },
                    priority: try priority.map { p throws(InputError) in try PushSpec.priority(given: p, name: "priority") }, collapseID: collapseID,
                    expiration: try expiration.map { e throws(InputError) in try PushSpec.expiration(given: e, name: "expiration") }, apnsID: apnsID))
        } catch {
            continue
        }
    }
    for (index, spec) in specs.enumerated() {
        let payload = rng.chance(30) ? background : alert
        let input =
            "PushSpec(topic: \(show(spec.topic)), pushType: \(spec.pushType.map { show($0.rawValue) } ?? "nil"), priority: \(spec.priority.map { "\($0)" } ?? "nil"), collapseID: \(spec.collapseID.map { show($0) } ?? "nil"), expiration: \(spec.expiration.map { "\($0)" } ?? "nil"), apnsID: \(spec.apnsID.map { show($0) } ?? "nil")), payload \(payload.bytes.count == 22 ? "alert" : "background")"
        log.note("PushTemplate case \(index): \(input)")
        control.checked()
        apnsID.checked()
        rules.checked()
        caps.checked()
        guard let template = try? PushTemplate(spec, payload: payload) else { continue }
        for (name, value) in template.headers where hasControlByte(value) {
            control.add(index, input, "accepted; header \(name): \(show(value))")
        }
        if let id = template.apnsID, !isCanonicalASCIIUUID(id) { apnsID.add(index, input, "accepted; apns-id \(show(id))") }
        if ![10, 5, 1].contains(template.priority.rawValue) || (template.pushType == .background && template.priority.rawValue == 10) {
            rules.add(index, input, "priority \(template.priority.rawValue) for \(template.pushType.rawValue)")
        }
        if let e = template.expiration, e < 0 { rules.add(index, input, "expiration \(e)") }
        if let c = template.collapseID, c.isEmpty || c.utf8.count > 64 { rules.add(index, input, "collapse id of \(c.utf8.count) bytes") }
        if template.topic.isEmpty || template.topic.contains(where: \.isWhitespace) { rules.add(index, input, "topic \(show(template.topic))") }
        if template.topic.utf8.count >= 100_000 || template.headers.contains(where: { $0.1.utf8.count >= 100_000 }) {
            caps.add(index, input, "accepted a header of \(template.headers.map { $0.1.utf8.count }.max() ?? 0) bytes")
        }
    }
    control.report()
    apnsID.report()
    rules.report()
    caps.report()
}

/// Payloads on the edge of a silent push (only `"content-available":1` in the first `aps`).
private let silentEdges = [
    #"{"aps":{"content-available":1,"alert":"x"}}"#, #"{"aps":{"alert":"x","content-available":1}}"#, #"{"aps":{"content-available":0}}"#,
    #"{"aps":{"content-available":"1"}}"#, #"{"aps":{"content-available":1,"content-available":1}}"#, #"{"aps":{"content-available":true}}"#,
    #"{"aps":{"content-available":1},"aps":{"badge":1}}"#, #"{"aps":{"badge":1},"aps":{"content-available":1}}"#,
    #"{"aps":[],"x":{"aps":{"content-available":1}}}"#, #"{"x":1,"aps":{"content-available":1}}"#, #"{"aps":{"content-available":10}}"#,
]

private func spoolProperties(seed: UInt64, count: Int, log path: String) {
    var rng = SplitMix64(seed: seed ^ 0x5350_4F4F)
    let log = CaseLog(path: path)
    var oneLine = Violations("SpooledNotification.append: a record holds no CR or LF but its last byte", seed: seed)
    var same = Violations("SpooledNotification.read(append(n)) has n's token, path, header lines and body", seed: seed)
    var inSequence = Violations("RequestLine.Reader and SpooledNotification.Reader, after other lines, read what a line or record reads alone", seed: seed)
    var spaced = Violations("RequestLine.parse: a line spaced out is the same request as the line compact", seed: seed)
    func sameRequest(_ a: DeviceNotification?, _ b: DeviceNotification?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.token == b.token && a.request.path == b.request.path && a.request.shape.headerLines == b.request.shape.headerLines
            && a.request.shape.body?.bytes == b.request.shape.body?.bytes && a.request.shape.method == b.request.shape.method
    }
    var accepted = 0
    let defaults = PushSpec(topic: "com.example.app")
    var lines = RequestLine.Reader(defaults: defaults)
    var records = SpooledNotification.Reader()
    var quickLines = RequestLine.Reader(defaults: defaults)
    var quickRead = 0
    var quickChecked = Violations("RequestLine.Reader.quick: a line it reads, the full parse reads as the same request", seed: seed)
    let payloads =
        Gen.jsonInputs(count: count / 2, &rng).compactMap { try? JSONValue.parse($0) }.filter { if case .object = $0 { return true } else { return false } }
        + (Gen.validPayloads + silentEdges).compactMap { try? JSONValue.parse(Array($0.utf8)) }
    for index in 0..<count {
        var members: [(String, JSONValue)] = [
            ("token", .string(String(repeating: rng.pick(["ab", "01", "f0"]), count: Int.random(in: 1...40, using: &rng)))),
            ("payload", rng.pick(payloads)),
        ]
        if rng.chance(40) { members.append(("collapse-id", .string(Gen.randomText(&rng, base: ["c", "order-42", "é😀"])))) }
        if rng.chance(30) { members.append(("push-type", .string(rng.pick(["alert", "background", "voip", "liveactivity"])))) }
        if rng.chance(30) { members.append(("expiration", .integer(Int64.random(in: -1...2_000_000_000, using: &rng)))) }
        if rng.chance(20) { members.append(("topic", .string(Gen.randomText(&rng, base: ["com.example.other", "a.b"])))) }
        if rng.chance(20) {
            members.append(("priority", rng.pick([.integer(5), .integer(10), .integer(1), .integer(7), .string("5"), .string("ten"), .null, .number(5.5)])))
        }
        if rng.chance(10) {
            members.append(
                (
                    "apns-id",
                    rng.pick([
                        .string("123e4567-e89b-12d3-a456-426614174000"), .string("123E4567-E89B-12D3-A456-426614174000"), .string("x"), .null, .integer(1),
                    ])
                ))
        }
        if rng.chance(5) { members.shuffle(using: &rng) }
        let line = JSONValue.object(members).compactBytes
        // The quick reading takes only lines the full parse reads the same way, and most of these.
        for text in [line, Gen.mutate(line, &rng)] {
            quickChecked.checked()
            var fresh = RequestLine.Reader(defaults: defaults)
            guard let fast = quickLines.quick(text) else { continue }
            quickRead += 1
            let whole = Result { () throws(InputError) -> DeviceNotification in try fresh.full(text) }
            if !sameRequest(fast, try? whole.get()) {
                quickChecked.add(index, show(text), "quick: \(fast.request.shape.headerLines); full: \(whole.errorWords ?? "accepted, otherwise")")
            }
        }
        log.note("spool case \(index): \(show(line))")
        inSequence.checked()
        spaced.checked()
        let alone = Result { () throws(InputError) -> DeviceNotification in try RequestLine.parse(line, defaults: defaults) }
        let after = Result { () throws(InputError) -> DeviceNotification in try lines.parse(line) }
        let loose = Result { () throws(InputError) -> DeviceNotification in
            try RequestLine.parse(Array(JSONValue.object(members).pretty.replacingOccurrences(of: "\n", with: " ").utf8), defaults: defaults)
        }
        if !sameRequest(try? alone.get(), try? after.get()) || (try? alone.get()) == nil && alone.errorWords != after.errorWords {
            inSequence.add(index, show(line), "after other lines: \(after.errorWords ?? "accepted"); alone: \(alone.errorWords ?? "accepted")")
        }
        if !sameRequest(try? alone.get(), try? loose.get()) {
            spaced.add(index, show(line), "spaced: \(loose.errorWords ?? "accepted"); compact: \(alone.errorWords ?? "accepted")")
        }
        guard let notification = try? alone.get() else { continue }
        accepted += 1
        oneLine.checked()
        same.checked()
        var record: [UInt8] = []
        SpooledNotification.append(notification, to: &record)
        if record.last != 0x0A || record.dropLast().contains(where: { $0 == 0x0A || $0 == 0x0D }) { oneLine.add(index, show(line), "record \(show(record))") }
        if !sameRequest(records.read(record.dropLast()), SpooledNotification.read(record.dropLast())) {
            inSequence.add(index, show(line), "record read after others differs")
        }
        guard let back = SpooledNotification.read(record.dropLast()) else {
            same.add(index, show(line), "not read back")
            continue
        }
        let (a, b) = (notification.request, back.request)
        if back.token != notification.token || a.path != b.path || a.shape.headerLines != b.shape.headerLines || a.shape.body?.bytes != b.shape.body?.bytes
            || b.shape.method != .post
        {
            same.add(index, show(line), "read back as \(back.token.hex) \(b.shape.headerLines)")
        }
        // Damaged records: whatever comes back, nothing traps.
        _ = SpooledNotification.read(Gen.mutate(record, &rng)[...])
        _ = SpooledNotification.read(Gen.randomBytes(&rng, maxCount: 200)[...])
    }
    #expect(accepted > count / 4, "too few lines accepted (\(accepted) of \(count)) for the property to mean much")
    #expect(quickRead > count / 4, "too few lines read the quick way (\(quickRead) of \(count))")
    quickChecked.report()
    oneLine.report()
    same.report()
    inSequence.report()
    spaced.report()
}

extension Result where Failure == InputError {
    /// The refusal's English words, nil when accepted.
    fileprivate var errorWords: String? { if case .failure(let error) = self { return error.words.en } else { return nil } }
}
