import ChildProcess
import Foundation
import Testing

// End-to-end fuzzing of the built `pushctl` (issue 10, "How to keep it fixed"): adversarial
// payloads, device tokens, token files, header values, numeric flags, damaged key files and
// JWTs, against a real `pushctl mock` (TLS + HTTP/2) whose log shows what reached the server.
//
// Fixed seed, a bounded number of runs (a few hundred processes, two at a time). Every
// property's violations are collected and reported in one failure with the seed and the case,
// each case as a shell command line (`$MOCK` stands for the mock's endpoint, CA and key flags).

private let fuzzSeed: UInt64 = 0xF022_1010
/// A run taking longer than this is killed and counted as a hang.
private let hangSeconds: Double = 10
private let documentedExits: Set<Int32> = [0, 1, 64, 65, 66, 69, 73, 74, 75]

/// One process run of the fuzz.
private struct FuzzCase {
    let index: Int
    let family: String
    var arguments: [String]
    var stdin: [UInt8]? = nil
    /// Files the case wrote, described for the report (name → content).
    var files: [(String, [UInt8])] = []
    /// The device tokens of this case carry this hex, so the mock's log tells which case sent what.
    var marker: String? = nil
    /// Exit statuses the man page or issue 10 name for this input, when they do.
    var expected: Set<Int32>? = nil
    var expectedWhy = ""
    /// `pushctl jwt` (sign) prints a JWT on purpose.
    var printsJWT = false
    /// JWTs the case passed in (echoing those is reported apart from leaking one pushctl signed).
    var givenJWTs: [String] = []
    /// Secret base64 lines of damaged key files the case used.
    var extraSecrets: [String] = []
}

private struct RunResult {
    var status: Int32
    var signal: Int32?
    var stdout: [UInt8]
    var stderr: [UInt8]
    var seconds: Double
    var timedOut: Bool
    var launchError: String?
}

/// Runs pushctl with raw bytes in and out, killing it after `hangSeconds`.
private func runPushctl(_ arguments: [String], stdin: [UInt8]?) -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CLI.pushctlPath)
    process.arguments = arguments
    process.environment = CLI.baseEnvironment
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    let finished = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in finished.signal() }
    let start = Date()
    do { try process.run() } catch {
        return RunResult(status: -1, signal: nil, stdout: [], stderr: [], seconds: 0, timedOut: false, launchError: "\(error)")
    }
    // Each pipe on a thread of its own, as CLI.run does: on the shared queue, a suite full of
    // blocked readers could leave the stdin writer unscheduled and a case would wait for its input.
    let outData = PipeReader(out)
    let errData = PipeReader(err)
    Thread {
        if let stdin, !stdin.isEmpty { try? input.fileHandleForWriting.write(contentsOf: Data(stdin)) }
        try? input.fileHandleForWriting.close()
    }.start()
    var timedOut = false
    if finished.wait(timeout: .now() + hangSeconds) == .timedOut {
        timedOut = true
        kill(process.processIdentifier, SIGKILL)
        finished.wait()
    }
    for reader in [outData, errData] { _ = reader.finished.wait(timeout: .now() + 5) }
    let signaled = process.terminationReason == .uncaughtSignal
    return RunResult(
        status: signaled ? -1 : process.terminationStatus, signal: signaled ? process.terminationStatus : nil,
        stdout: Array(outData.data), stderr: Array(errData.data), seconds: Date().timeIntervalSince(start), timedOut: timedOut)
}

// MARK: - Showing cases as shell command lines

private func shellQuote(_ s: String) -> String {
    if s.unicodeScalars.count > 160 {
        let scalars = Array(s.unicodeScalars)
        if Set(scalars).count == 1 { return "\"$(printf '%.0s\(String(scalars[0]))' $(seq \(scalars.count)))\"" }
        return shellQuote(String(String.UnicodeScalarView(scalars.prefix(60)))) + "…(\(scalars.count) chars)"
    }
    if !s.isEmpty, s.unicodeScalars.allSatisfy({ "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@%+,-".unicodeScalars.contains($0) }) {
        return s
    }
    if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x27 }) { return "'\(s)'" }
    var out = "$'"
    for byte in s.utf8 {
        switch byte {
        case 0x27: out += "\\'"
        case 0x5C: out += "\\\\"
        case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
        default: out += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }
    }
    return out + "'"
}

private func showBytes(_ bytes: [UInt8], limit: Int = 100) -> String {
    var out = "$'"
    for byte in bytes.prefix(limit) {
        switch byte {
        case 0x27: out += "\\'"
        case 0x5C: out += "\\\\"
        case 0x0A: out += "\\n"
        case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
        default: out += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }
    }
    return out + "'" + (bytes.count > limit ? "…(\(bytes.count) bytes)" : "")
}

/// Collected violations of one property, reported in one failure.
private struct Violations {
    let property: String
    var items: [String] = []
    init(_ property: String) { self.property = property }
    mutating func add(_ text: String) { items.append(text) }
    func report(seed: UInt64, cases: Int, legend: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let shown = items.prefix(80).joined(separator: "\n")
        #expect(
            items.isEmpty,
            """
            \(property): \(items.count) violation(s) in \(cases) runs (seed 0x\(String(seed, radix: 16))).
            \(legend)
            \(shown)\(items.count > 80 ? "\n… \(items.count - 80) more" : "")
            """, sourceLocation: sourceLocation)
    }
}

// MARK: - The fuzz

@Suite("Fuzzing the built pushctl with hostile input (fixed seed)", .serialized)
struct FuzzCLITests {
    @Test("hostile flags, files, keys and JWTs: documented exits, nothing sent when refused, no trap, hang, secret or control byte")
    func fuzz() throws {
        signal(SIGPIPE, SIG_IGN)  // pushctl may exit before reading the stdin a case gives it
        let dir = try TemporaryDirectory()
        let mock = try MockProcess(dir: dir)
        let keyText = String(decoding: FileManager.default.contents(atPath: mock.keyFile) ?? Data(), as: UTF8.self)
        let keySecrets = keyText.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("-----") && $0.count >= 20 }
        #expect(!keySecrets.isEmpty, "the generated key has a base64 body")
        let signedJWT = try CLI.pushctl(["jwt", "--key-file", mock.keyFile, "--team-id", "DEF123GHIJ"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let base = ["send", "--endpoint", mock.url, "--cacert", mock.caFile, "--key-file", mock.keyFile, "--team-id", "DEF123GHIJ"]
        let legend =
            "Binary: \(CLI.pushctlPath); $MOCK = --endpoint \(mock.url) --cacert \(mock.caFile) --key-file \(mock.keyFile) --team-id DEF123GHIJ (a `pushctl mock` started with that key); files are in \(dir.url.path)."

        var rng = SplitMix64(seed: fuzzSeed)
        let cases = makeCases(&rng, dir: dir, base: base, keyFile: mock.keyFile, keyText: keyText, signedJWT: signedJWT)

        // Run two at a time (the machine has two cores); each case's files are its own.
        nonisolated(unsafe) var results = [RunResult?](repeating: nil, count: cases.count)
        let lock = NSLock()
        nonisolated(unsafe) var next = 0
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            while true {
                lock.lock()
                let i = next
                next += 1
                lock.unlock()
                guard i < cases.count else { return }
                let result = runPushctl(cases[i].arguments, stdin: cases[i].stdin)
                lock.lock()
                results[i] = result
                lock.unlock()
            }
        }
        // The mock writes its log off the request path: a marker sent last says when all is in.
        let requests = try mock.requestsSoFar()

        var exits = Violations("exit status is one the man page documents {0,1,64,65,66,69,73,74,75}; no trap (132/133/134/139), signal or hang")
        var crashes = Violations("no 'Fatal error' or 'Stack dump' on stderr")
        var refusedSent = Violations("exit 64/65/66 means nothing reached the server")
        var twice = Violations("no notification delivered twice; no two tokens joined into one; no injected header reached the server")
        var keyLeak = Violations("no output holds the private key's base64 (any 20-character run of a key file's base64 lines)")
        var jwtLeak = Violations("no output holds a JWT pushctl signed (except `pushctl jwt` itself)")
        var jwtEcho = Violations("`send --jwt` never echoes the JWT it was given")
        var control = Violations("with NO_COLOR, no output holds ESC or another C0 control byte but \\n and \\t, nor DEL, C1 controls, BOM or bidi overrides")
        var wrongExit = Violations("inputs whose exit the man page or issue 10 names get that exit")

        // Requests per case, by the marker in the device-token path.
        func requestsOf(_ marker: String) -> [[String: Any]] {
            requests.filter { (($0["path"] as? String) ?? "").contains(marker) }
        }
        let injectedRequests = requests.filter { request in
            ((request["headers"] as? [String: Any]) ?? [:]).keys.contains { name in name.hasPrefix("x-") }
        }
        for injected in injectedRequests {
            let path = (injected["path"] as? String) ?? ""
            let which = cases.first { $0.marker.map { path.contains($0) } ?? false }
            twice.add(
                "an injected header reached the server: \((injected["headers"] as? [String: Any]) ?? [:]) on \(path) — case \(which.map { "\($0.index)" } ?? "?")"
            )
        }

        for (fuzzCase, result) in zip(cases, results) {
            guard let result else { continue }
            let command =
                "case \(fuzzCase.index) [\(fuzzCase.family)]: pushctl "
                + fuzzCase.arguments.map(shellQuote).joined(separator: " ")
                .replacingOccurrences(of: base.dropFirst().map(shellQuote).joined(separator: " "), with: "$MOCK")
                + (fuzzCase.stdin.map { " <<< " + showBytes($0) } ?? "")
                + fuzzCase.files.map { "  [\($0.0) = \(showBytes($0.1))]" }.joined()
            let stdout = String(decoding: result.stdout, as: UTF8.self)
            let stderr = String(decoding: result.stderr, as: UTF8.self)
            let output = stdout + "\n" + stderr
            let tail = stderr.split(separator: "\n").suffix(2).joined(separator: " / ")
            let outcome =
                result.timedOut
                ? "HANG (killed after \(Int(hangSeconds)) s)"
                : result.signal.map { "killed by signal \($0)" } ?? "exit \(result.status) in \(String(format: "%.1f", result.seconds)) s"

            if let error = result.launchError {
                exits.add("\(command) → could not launch: \(error)")
                continue
            }
            if result.timedOut || result.signal != nil || !documentedExits.contains(result.status) {
                exits.add("\(command) → \(outcome); stderr: \(tail.prefix(300))")
            }
            if stderr.contains("Fatal error") || stderr.contains("Stack dump") {
                let line = stderr.split(separator: "\n").first { $0.contains("Fatal error") } ?? "Stack dump"
                crashes.add("\(command) → \(outcome): \(line.prefix(300))")
            }
            let sent = fuzzCase.marker.map(requestsOf) ?? []
            if [64, 65, 66].contains(result.status), !sent.isEmpty {
                refusedSent.add(
                    "\(command) → exit \(result.status) but \(sent.count) request(s) reached the mock (\(sent.compactMap { $0["path"] as? String }.first ?? ""))"
                )
            }
            if let marker = fuzzCase.marker {
                var accepted: [String: Int] = [:]
                for request in sent where (request["status"] as? Int) == 200 { accepted[(request["path"] as? String) ?? "", default: 0] += 1 }
                for (path, count) in accepted where count > 1 { twice.add("\(command) → \(path) accepted \(count) times") }
                for request in sent {
                    let path = (request["path"] as? String) ?? ""
                    if path.components(separatedBy: marker).count > 2 { twice.add("\(command) → two tokens joined into one request: \(path.prefix(200))") }
                }
            }
            for secret in keySecrets + fuzzCase.extraSecrets {
                let chars = Array(secret)
                if chars.count >= 20, let hit = stride(from: 0, through: chars.count - 20, by: 4).first(where: { output.contains(String(chars[$0..<$0 + 20])) })
                {
                    keyLeak.add("\(command) → \(outcome); prints key material '\(String(chars[hit..<hit + 20]))…'")
                    break
                }
            }
            let jwts = jwtsIn(output)
            if !fuzzCase.printsJWT {
                for jwt in jwts where !fuzzCase.givenJWTs.contains(where: { $0.contains(jwt) || jwt.contains($0) }) {
                    jwtLeak.add("\(command) → \(outcome); prints a JWT: \(jwt.prefix(60))…")
                }
            }
            if fuzzCase.arguments.contains("--jwt") {
                for jwt in jwts where fuzzCase.givenJWTs.contains(where: { $0.contains(jwt) || jwt.contains($0) }) {
                    jwtEcho.add("\(command) → \(outcome); echoes the given JWT \(jwt.prefix(60))…")
                }
            }
            for (stream, bytes) in [("stdout", result.stdout), ("stderr", result.stderr)] {
                if let bad = badControl(bytes) { control.add("\(command) → \(outcome); \(stream) holds \(bad)") }
            }
            if let expected = fuzzCase.expected, !result.timedOut, !expected.contains(result.status) || result.signal != nil {
                wrongExit.add("\(command) → \(outcome), expected \(expected.sorted()) (\(fuzzCase.expectedWhy)); stderr: \(tail.prefix(200))")
            }
        }
        let runs = cases.count
        for property in [exits, crashes, refusedSent, twice, keyLeak, jwtLeak, jwtEcho, control, wrongExit] {
            property.report(seed: fuzzSeed, cases: runs, legend: legend)
        }
        var exitsByFamily: [String: [String: Int]] = [:]
        for (fuzzCase, result) in zip(cases, results) {
            let family = String(fuzzCase.family.prefix { $0 != ":" })
            let key = result.map { $0.timedOut ? "hang" : $0.signal.map { "signal \($0)" } ?? "\($0.status)" } ?? "not run"
            exitsByFamily[family, default: [:]][key, default: 0] += 1
        }
        let histogram = exitsByFamily.sorted { $0.key < $1.key }
            .map { "  \($0.key): " + $0.value.sorted { $0.key < $1.key }.map { "exit \($0.key) ×\($0.value)" }.joined(separator: ", ") }
        print(
            "FuzzCLITests: \(runs) runs, seed 0x\(String(fuzzSeed, radix: 16)), \(requests.count) requests reached the mock\n"
                + histogram.joined(separator: "\n"))
    }
}

/// Compact JWS-looking strings: `eyJ…` and two more base64url segments.
private func jwtsIn(_ text: String) -> [String] {
    guard let regex = try? NSRegularExpression(pattern: "eyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]{10,}") else { return [] }
    return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
}

/// The first byte a terminal would act on, described with its offset and context, or nil.
private func badControl(_ bytes: [UInt8]) -> String? {
    var i = 0
    while i < bytes.count {
        let b = bytes[i]
        var what: String?
        if (b < 0x20 && b != 0x0A && b != 0x09) || b == 0x7F {
            what = String(format: "0x%02X", b)
        } else if b == 0xC2, i + 1 < bytes.count, (0x80...0x9F).contains(bytes[i + 1]) {
            what = String(format: "C1 control U+00%02X", bytes[i + 1])
        } else if b == 0xEF, i + 2 < bytes.count, bytes[i + 1] == 0xBB, bytes[i + 2] == 0xBF {
            what = "a BOM (U+FEFF)"
        } else if b == 0xE2, i + 2 < bytes.count, bytes[i + 1] == 0x80, (0xAA...0xAE).contains(bytes[i + 2]) {
            what = String(format: "a bidi override U+20%02X", bytes[i + 2])
        }
        if let what {
            let context = bytes[max(0, i - 30)..<min(bytes.count, i + 20)]
            return "\(what) at byte \(i): …\(showBytes(Array(context), limit: 60))…"
        }
        i += 1
    }
    return nil
}

// MARK: - Case generation

private let hostile: [String] = [
    "a\r\nx-injected: 1", "a\nb", "a\rb", "\u{1B}[2J", "\u{1B}]0;pwned\u{7}", "a\u{7F}", "\t", "a\u{8}b", "\u{85}", "\u{202E}abc",
    "\u{FEFF}", "１２３", "ｃｏｍ", "é", "😀", " ", "", String(repeating: "k", count: 100_000), String(repeating: "k", count: 65),
]

private func marker(_ index: Int, _ sub: Int = 0) -> String {
    let head = "c0de" + String(format: "%06x", index) + String(format: "%02x", sub)
    return head + String(repeating: "0", count: 64 - head.count)
}

private func mutate(_ input: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
    let pieces: [[UInt8]] =
        [
            "{", "}", "[", "]", ",", ":", "\"", "\\", "\\ud800", "1e300", "1e400", "-9223372036854775809",
            "99999999999999999999", "\u{1B}[2J", "\u{FEFF}", "null",
        ].map { Array($0.utf8) }
        + [[0x00], [0x7F], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xFF], [0x0D]]
    var bytes = input
    for _ in 0..<Int.random(in: 1...3, using: &rng) {
        let at = Int.random(in: 0...bytes.count, using: &rng)
        switch Int.random(in: 0..<4, using: &rng) {
        case 0 where at < bytes.count: bytes[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
        case 1 where at < bytes.count: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...5, using: &rng)))
        default: bytes.insert(contentsOf: rng.pick(pieces), at: at)
        }
    }
    return bytes
}

/// Arguments cannot hold NUL: a case puts NUL bytes in files and stdin only.
private func argument(_ s: String) -> String { s.replacingOccurrences(of: "\u{0}", with: "") }

private func jwt(header: String, claims: String, signature: [UInt8] = Array(repeating: 7, count: 64)) -> String {
    func b64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
    return b64(Array(header.utf8)) + "." + b64(Array(claims.utf8)) + "." + b64(signature)
}

private func makeCases(
    _ rng: inout SplitMix64, dir: TemporaryDirectory, base: [String], keyFile: String, keyText: String,
    signedJWT: String
) -> [FuzzCase] {
    var cases: [FuzzCase] = []
    func add(
        _ family: String, _ arguments: [String], stdin: [UInt8]? = nil, files: [(String, [UInt8])] = [], marker m: String? = nil,
        expect: Set<Int32>? = nil, why: String = "", printsJWT: Bool = false, givenJWTs: [String] = [], secrets: [String] = []
    ) {
        cases.append(
            FuzzCase(
                index: cases.count, family: family, arguments: arguments.map(argument), stdin: stdin, files: files, marker: m,
                expected: expect, expectedWhy: why, printsJWT: printsJWT, givenJWTs: givenJWTs, extraSecrets: secrets))
    }
    func file(_ name: String, _ bytes: [UInt8]) -> String {
        let folder = dir.path("case\(cases.count)")
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name
        let written = FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
        precondition(written, "cannot write \(path)")
        return path
    }
    let alert = #"{"aps":{"alert":{"title":"Hello","body":"From pushctl"},"badge":1}}"#
    let payloads = [alert, #"{"aps":{"content-available":1}}"#, #"{"aps":{"alert":"hi"},"k":[1,2.5,true,null,{"x":"\u00e9"}]}"#]
    let topic = ["--topic", "com.example.app"]

    // Payloads: files, --payload-json and stdin, random and mutated.
    let specialPayloads: [([UInt8], Set<Int32>?)] = [
        ([], [65]), (Array("\u{FEFF}{\"aps\":{}}".utf8), nil), (Array("{\"aps\":{\"alert\":\"\u{1B}[2J\"}}".utf8), nil),
        ([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC0, 0x80, 0x22, 0x7D], [65]), ([0x7B, 0x7D, 0x00], [65]),
        (Array(String(repeating: "[", count: 100_000).utf8), [65]), (Array(("{\"aps\":{},\"x\":\"" + String(repeating: "a", count: 5000) + "\"}").utf8), [65]),
        (Array(#"{"aps":{"alert":"\ud800"}}"#.utf8), [65]), (Array(#"{"a":1e400,"aps":{}}"#.utf8), nil), (Array("[1,2]".utf8), [65]),
    ]
    for (bytes, expected) in specialPayloads {
        let m = marker(cases.count)
        let path = file("payload.json", bytes)
        add(
            "payload", base + topic + ["--device-token", m, "--payload", path], files: [("payload.json", bytes)], marker: m,
            expect: expected, why: "payload rules")
    }
    for _ in 0..<40 {
        let m = marker(cases.count)
        let bytes =
            rng.chance(20)
            ? (0..<Int.random(in: 1...60, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            : mutate(Array(rng.pick(payloads).utf8), &rng)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0:
            add("payload", base + topic + ["--device-token", m, "--payload", file("payload.json", bytes)], files: [("payload.json", bytes)], marker: m)
        case 1:
            add("payload", base + topic + ["--device-token", m, "--payload-json", String(decoding: bytes, as: UTF8.self)], marker: m)
        default:
            add("payload", base + topic + ["--device-token", m, "--payload", "-"], stdin: bytes, marker: m)
        }
    }
    do {
        let m = marker(cases.count)
        add(
            "payload", base + topic + ["--device-token", m, "--title", "x", "--custom", #"k={"a":1"#], marker: m, expect: [64, 65],
            why: "issue 10 item 12: broken --custom JSON is refused")
        let m2 = marker(cases.count)
        add("payload", base + topic + ["--device-token", m2, "--badge", "-1"], marker: m2, expect: [64, 65], why: "--badge -1")
        let m3 = marker(cases.count)
        add("payload", base + topic + ["--device-token", m3, "--title", "\u{1B}[2J\u{7}bell", "--body", "a\r\nb"], marker: m3)
        let m4 = marker(cases.count)
        add("payload", base + topic + ["--device-token", m4, "--payload", dir.path("no-such-payload.json")], marker: m4, expect: [66], why: "missing file")
        let m5 = marker(cases.count)
        add(
            "payload", base + topic + ["--tokens-file", "-", "--payload", "-"], stdin: Array((m5 + "\n").utf8), marker: m5, expect: [64, 65],
            why: "issue 10 item 12: --payload - and --tokens-file - cannot both read stdin")
    }

    // Device tokens: on the command line and in files.
    func fullwidth(_ s: String) -> String {
        String(
            String.UnicodeScalarView(
                s.unicodeScalars.map { c in
                    ("0"..."9").contains(c) || ("a"..."f").contains(c) ? Unicode.Scalar(c.value + 0xFEE0)! : c
                }))
    }
    let tokenForms: [(String) -> (String, Set<Int32>?)] = [
        { ("\u{FEFF}" + $0, nil) }, { ($0 + "\r", nil) }, { ("<" + $0 + ">", [0]) }, { ($0.uppercased(), [0]) }, { (fullwidth($0), [65]) },
        { ($0 + "\u{1B}[2J", [65]) }, { ("\u{202E}" + $0, [65]) }, { ($0 + "0", [65]) }, { ($0 + String(repeating: "0", count: 99_936), [65]) },
        { ($0 + "\u{7F}", [65]) }, { (String($0.prefix(20)) + "\u{85}" + String($0.dropFirst(20)), nil) },
    ]
    for form in tokenForms {
        let m = marker(cases.count)
        let (token, expected) = form(m)
        add(
            "device-token", base + topic + ["--device-token", token, "--payload-json", alert], marker: m, expect: expected,
            why: expected == [0] ? "Xcode's forms are accepted" : "a token is even-length ASCII hex (issue 10 item 2: lengths capped)")
    }
    do {
        let m = marker(cases.count)
        add("device-token", base + topic + ["--device-token", m + " " + marker(cases.count, 1), "--payload-json", alert], marker: m)
        let m2 = marker(cases.count)
        add("device-token", base + topic + ["--device-token", "", "--payload-json", alert], marker: m2, expect: [64, 65], why: "empty token")
    }
    func tokenLines(_ name: String, _ a: String, _ b: String, _ c: String) -> [UInt8] {
        switch name {
        case "LF": return Array("\(a)\n\(b)\n\(c)\n".utf8)
        case "CRLF": return Array("\(a)\r\n\(b)\r\n\(c)\r\n".utf8)
        case "CR only": return Array("\(a)\r\(b)\r\(c)\r".utf8)
        case "BOM first": return [0xEF, 0xBB, 0xBF] + Array("\(a)\n\(b)\n".utf8)
        case "NUL in line": return Array("\(a)\n".utf8) + [0x00] + Array("\(b)\n".utf8)
        case "two on one line": return Array("\(a) \(b)\n\(c)\n".utf8)
        case "comments and blanks": return Array("# devices\n\n  \(a)  \n\t\n#\(b)\n<\(c)>\n".utf8)
        case "no final newline": return Array("\(a)\n\(b)".utf8)
        case "duplicate": return Array("\(a)\n\(a)\n\(b)\n".utf8)
        case "very long line": return Array("\(a)\n".utf8) + Array(repeating: UInt8(ascii: "a"), count: 2_000_000) + Array("\n\(b)\n".utf8)
        case "ESC in line": return Array("\(a)\n\u{1B}[2J\(b)\n".utf8)
        case "fullwidth": return Array("\(a)\n\(fullwidth(b))\n".utf8)
        case "empty": return []
        default: return Array("# nothing\n\n".utf8)
        }
    }
    let lineSets: [(String, Set<Int32>?)] = [
        ("LF", [0]), ("CRLF", [0]), ("CR only", [0, 65]), ("BOM first", nil), ("NUL in line", [65]), ("two on one line", nil),
        ("comments and blanks", [0]), ("no final newline", [0]), ("duplicate", nil), ("very long line", [65]), ("ESC in line", [65]),
        ("fullwidth", [65]), ("empty", [65]), ("only comments", [65]),
    ]
    for (name, expected) in lineSets {
        for viaStdin in [false, true] {
            let m = marker(cases.count)
            let bytes = tokenLines(name, m, marker(cases.count, 1), marker(cases.count, 2))
            let why = "tokens file, \(name)"
            if viaStdin {
                add("tokens-file", base + topic + ["--tokens-file", "-", "--payload-json", alert], stdin: bytes, marker: m, expect: expected, why: why)
            } else {
                let path = file("tokens.txt", bytes)
                add(
                    "tokens-file", base + topic + ["--tokens-file", path, "--payload-json", alert], files: [("tokens.txt", bytes)], marker: m,
                    expect: expected, why: why)
            }
        }
    }
    do {
        let m = marker(cases.count)
        let path = file("tokens.txt", Array("\(m)\n".utf8))
        add(
            "tokens-file", base + topic + ["--tokens-file", path, "--unregistered-out", path, "--payload-json", alert], marker: m,
            expect: [64, 65], why: "issue 10 item 4: --unregistered-out equal to the tokens file is refused")
        let m2 = marker(cases.count)
        add("tokens-file", base + topic + ["--tokens-file", dir.url.path, "--payload-json", alert], marker: m2, expect: [66], why: "a directory")
        let m3 = marker(cases.count)
        add("tokens-file", base + topic + ["--tokens-file", dir.path("missing.txt"), "--payload-json", alert], marker: m3, expect: [66], why: "missing")
    }

    // Header flags: hostile values, CRLF injection, huge values.
    let headerFlags: [(String, [String])] = [
        ("--collapse-id", ["order-42", String(repeating: "k", count: 64)]),
        ("--apns-id", ["123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000", "１２３e4567-e89b-12d3-a456-426614174000"]),
        ("--topic", ["com.example.app", "com.example.app.voip"]),
        ("--expiration", ["0", "1700000000", "-1", "１２３", "9223372036854775808", "+5", " 5"]),
        ("--priority", ["10", "5", "1", "１０", "+10", "0"]),
        ("--push-type", ["alert", "background", "voip", "ALERT"]),
    ]
    for (flag, values) in headerFlags {
        for value in values + hostile {
            let m = marker(cases.count)
            let controlOrHuge = value.utf8.contains { $0 < 0x20 || $0 == 0x7F } || value.utf8.count > 1000
            var expected: Set<Int32>? = controlOrHuge ? [65] : nil
            var why = "issue 10 item 2: a control byte or 100,000 bytes in a header value is refused (65, nothing sent)"
            if flag == "--apns-id", value.unicodeScalars.contains(where: { $0.value > 0x7F }) {
                expected = [65]
                why = "issue 10 item 2: apns-id is ASCII hex"
            }
            var arguments = base + (flag == "--topic" ? [] : topic) + [flag, value, "--device-token", m, "--payload-json", alert]
            if flag == "--push-type", value == "background" {
                arguments += ["--priority", "10"]
                expected = [65]
                why = "background with priority 10"
            }
            add("header \(flag)", arguments, marker: m, expect: expected, why: why)
        }
    }

    // Numeric flags.
    let numeric: [(String, String, Set<Int32>?)] = [
        ("--timeout", "inf", [64, 65]), ("--timeout", "1e16", nil), ("--timeout", "-1", [64, 65]), ("--timeout", "nan", [64, 65]),
        ("--timeout", "0", nil), ("--timeout", "1e-300", nil), ("--timeout", "-inf", [64, 65]), ("--concurrency", "9223372036854775807", nil),
        ("--concurrency", "0", [64, 65]), ("--concurrency", "-1", [64, 65]), ("--connections", "9223372036854775807", nil),
        ("--connections", "0", [64, 65]), ("--retries", "9223372036854775807", nil), ("--retries", "-1", [64, 65]),
        ("--badge", "9223372036854775807", nil), ("--badge", "99999999999999999999", [64, 65]), ("--port", "99999", [64, 65]),
        ("--port", "-1", [64, 65]), ("--shard", "0/0", [64, 65]), ("--shard", "2/1", [64, 65]),
        ("--shard", "9223372036854775807/9223372036854775807", nil), ("--shard", "1/9223372036854775807", nil),
    ]
    for (flag, value, expected) in numeric {
        let m = marker(cases.count)
        add(
            "numeric \(flag)", base + topic + [flag, value, "--device-token", m, "--payload-json", alert], marker: m, expect: expected,
            why: "issue 10 item 8: every numeric flag's range validated")
    }
    for value in ["-9223372036854775808", "9223372036854775807", "-1", "1e300", "99999999999999999999"] {
        add("jwt --issued-at", ["jwt", "--key-file", keyFile, "--team-id", "DEF123GHIJ", "--issued-at", value, "--explain"], printsJWT: true)
    }

    // Endpoints and CA files.
    let mockURL = base[2]
    let endpointForms: [(String, Set<Int32>?)] = [
        (mockURL + "?q=1", [64, 65]), (mockURL + "#frag", [64, 65]), (mockURL + "\r", [64, 65]), (mockURL + " x", [64, 65]),
        ("https://127.0.0.1:99999", [64, 65]), ("https://127.0.0.1:1", [69]), ("http://127.0.0.1:1", nil), ("\u{1B}[2J", [64, 65]), ("", [64, 65]),
    ]
    for (endpoint, expected) in endpointForms {
        let m = marker(cases.count)
        var arguments = base + topic + ["--device-token", m, "--payload-json", alert, "--retries", "0", "--timeout", "5"]
        arguments[2] = endpoint
        add("endpoint", arguments, marker: m, expect: expected, why: "issue 10 item 12: a bad --endpoint is 65")
    }
    do {
        let m = marker(cases.count)
        var arguments = base + topic + ["--device-token", m, "--payload-json", alert]
        arguments[4] = file("empty-ca.pem", [])
        add("cacert", arguments, marker: m, expect: [65, 66], why: "an empty --cacert")
    }

    // Damaged key files.
    let keyLines = keyText.split(whereSeparator: \.isNewline).map(String.init)
    let body = keyLines.filter { !$0.hasPrefix("-----") }
    var damaged: [(String, String, Set<Int32>?)] = [
        ("BEGIN without closing dashes", "-----BEGIN PRIVATE KEY\n" + body.joined(separator: "\n") + "\n-----END PRIVATE KEY-----\n", [65]),
        ("ESC in label", "-----BEGIN \u{1B}[2J\u{1B}]0;x\u{7} KEY-----\n" + body.joined(separator: "\n") + "\n-----END \u{1B}[2J KEY-----\n", [65]),
        ("CRLF", keyText.replacingOccurrences(of: "\n", with: "\r\n"), [0, 1]),
        ("no final newline", String(keyText.dropLast()), [0, 1]),
        ("empty", "", [65]), ("only BEGIN/END", "-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n", [65]),
        ("body only", body.joined(separator: "\n") + "\n", [65]),
        ("line missing", ([keyLines[0]] + body.dropFirst() + [keyLines.last ?? ""]).joined(separator: "\n") + "\n", [65]),
        (
            "encrypted EC",
            "-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0123456789ABCDEF0123456789ABCDEF\n\n"
                + body.joined(separator: "\n") + "\n-----END EC PRIVATE KEY-----\n", [65]
        ),
        ("mismatched END", keyText.replacingOccurrences(of: "-----END PRIVATE KEY-----", with: "-----END CERTIFICATE-----"), [65]),
        ("NUL inside", keyText.replacingOccurrences(of: "\n", with: "\n\u{0}"), nil),
        ("huge", "-----BEGIN PRIVATE KEY-----\n" + String(repeating: "A", count: 1_000_000) + "\n-----END PRIVATE KEY-----\n", [65]),
        ("text around", "Here is my key:\n" + keyText + "thanks\n", nil),
    ]
    for _ in 0..<5 {
        var bytes = Array(keyText.utf8)
        let start = keyLines[0].utf8.count + 1
        let at = Int.random(in: start..<(bytes.count - 30), using: &rng)
        bytes[at] = rng.pick(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8).filter { $0 != bytes[at] })
        damaged.append(("byte \(at) changed", String(decoding: bytes, as: UTF8.self), nil))
    }
    for _ in 0..<4 {
        let cut = Int.random(in: 1..<keyText.utf8.count - 1, using: &rng)
        damaged.append(("cut at byte \(cut)", String(decoding: Array(keyText.utf8).prefix(cut), as: UTF8.self), nil))
    }
    for (name, text, expected) in damaged {
        let bytes = Array(text.utf8)
        let secrets = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map(String.init).filter {
            !$0.contains("-----") && $0.count >= 20 && !$0.hasPrefix("AAAAAAAAAA") && !$0.contains(" ")
        }
        let path = file("AuthKey_ABC123DEFG.p8", bytes)
        let files = [("AuthKey_ABC123DEFG.p8", bytes)]
        let m = marker(cases.count)
        var arguments = base + topic + ["--device-token", m, "--payload-json", alert, "--no-jwt-cache"]
        arguments[6] = path
        add("key: \(name)", arguments, files: files, marker: m, expect: expected, why: "key contents", secrets: secrets)
        add(
            "key: \(name)", ["jwt", "--key-file", path, "--team-id", "DEF123GHIJ"], files: files, expect: expected.map { $0.contains(0) ? [0] : $0 },
            why: "key contents", printsJWT: true, secrets: secrets)
        add("key: \(name)", ["jwt", "verify", signedJWT, "--key-file", path], files: files, givenJWTs: [signedJWT], secrets: secrets)
    }
    do {
        let m = marker(cases.count)
        var arguments = base + topic + ["--device-token", m, "--payload-json", alert]
        arguments.removeSubrange(5...6)
        arguments += ["--key-file", dir.path("nope.p8")]
        add("key: missing", arguments, marker: m, expect: [66], why: "issue 10 item 12: a missing --key-file is 66, reported first")
        for keyID in ["\u{1B}[2J", "../../x", "ABC123DEF\n", String(repeating: "A", count: 5000)] {
            add("key generate", ["key", "generate", "--key-id", keyID, "--out", dir.path("gen")], expect: [64, 65], why: "a key id is 10 of A-Z0-9")
        }
    }

    // JWTs: decode, verify, send --jwt.
    let now = Int64(Date().timeIntervalSince1970)
    var tokens: [(String, String, Set<Int32>?)] = []
    for iat in ["-9223372036854775808", "-9223372036854775807", "9223372036854775807", "1e300", "\"\(now)\"", "-1", String(now - 7200), String(now + 86400)] {
        tokens.append(
            (
                "iat \(iat)", jwt(header: #"{"alg":"ES256","kid":"ABC123DEFG"}"#, claims: #"{"iss":"DEF123GHIJ","iat":\#(iat)}"#),
                ["-1", "-9223372036854775808", "-9223372036854775807", String(now - 7200), "1e300", "\"\(now)\""].contains(iat) ? [65] : nil
            ))
    }
    tokens.append(("escape in kid", jwt(header: #"{"alg":"ES256","kid":"\u001b[2J"}"#, claims: #"{"iss":"DEF123GHIJ","iat":\#(now)}"#), [65]))
    tokens.append(("signed", signedJWT, nil))
    for _ in 0..<8 { tokens.append(("mutated", String(decoding: mutate(Array(signedJWT.utf8), &rng), as: UTF8.self), nil)) }
    let b64 = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    for _ in 0..<4 {
        tokens.append(
            (
                "random parts", (0..<3).map { _ in String((0..<Int.random(in: 0...30, using: &rng)).map { _ in rng.pick(b64) }) }.joined(separator: "."),
                [64, 65]
            ))
    }
    for (name, token, expected) in tokens {
        let arg = argument(token)
        add("jwt decode: \(name)", ["jwt", "decode", arg], givenJWTs: [arg])
        add("jwt decode -: \(name)", ["jwt", "decode", "-"], stdin: Array(token.utf8), givenJWTs: [arg])
        add("jwt verify: \(name)", ["jwt", "verify", arg, "--key-file", keyFile], givenJWTs: [arg])
        let m = marker(cases.count)
        var arguments = base + topic + ["--device-token", m, "--payload-json", alert, "--jwt", arg]
        arguments.removeSubrange(5...8)
        add(
            "send --jwt: \(name)", arguments, marker: m, expect: expected, why: "issue 10 items 8 and 12: a JWT older than 60 min or malformed is refused",
            givenJWTs: [arg])
    }
    // Dry runs and verbose runs print the request: the JWT must stay redacted.
    for extra in [["--dry-run"], ["--verbose"], ["--dry-run", "--output", "json"], ["--verbose", "--output", "jsonl"]] {
        let m = marker(cases.count)
        add("redaction", base + topic + ["--device-token", m, "--payload-json", alert] + extra, marker: m)
    }
    return cases
}
