import Foundation
import PushCore
import PushCrypto
import PushEngine
import Testing

/// The edges a CI job with a signing key depends on: hostile input is refused with nothing sent,
/// no secret or control character reaches the terminal, every token is sent exactly once from
/// any kind of tokens file, output that cannot be written is reported, and the JWT cache trusts
/// only a private directory. Each test failed before the fix it guards.
@Suite struct TrustTests {
    let dir = try! TemporaryDirectory()

    /// Runs a shell command line (for what Process cannot express: pipes, FIFOs, raw bytes).
    func shell(_ script: String, env: [String: String] = [:]) throws -> CommandResult {
        try CLI.run("/bin/bash", ["-c", script], env: env.merging(["PUSHCTL": CLI.pushctlPath]) { $1 })
    }

    func tokens(_ count: Int) -> [String] {
        (0..<count).map { i in String(repeating: "0", count: 56) + String(format: "%08x", i + 1) }
    }

    /// The base64 lines of a PEM file: none of it may ever be printed.
    func secretLines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-----") }
    }

    func expectNoControlBytes(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bad = text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F }
        #expect(bad.isEmpty, "control characters in output: \(bad.map { $0.value })", sourceLocation: sourceLocation)
    }

    // MARK: Secrets and injection

    @Test("a BEGIN line without its closing dashes: 65, and not one character of the key is printed")
    func damagedBeginLine() throws {
        let key = try dir.generateKey()
        let pem = try String(contentsOfFile: key, encoding: .utf8)
        let damaged = try dir.write("AuthKey_DAMAGED123.p8", pem.replacingOccurrences(of: "-----BEGIN PRIVATE KEY-----", with: "-----BEGIN PRIVATE KEY"))
        for arguments in [
            ["jwt", "--key-file", damaged, "--team-id", "DEF123GHIJ"],
            ["jwt", "verify", "e30.e30.AAAA", "--key-file", damaged],
        ] {
            let result = try CLI.pushctl(arguments)
            #expect(result.status == 65)
            #expect(result.stderr.contains("BEGIN"), "\(result.stderr)")
            for line in try secretLines(key) {
                for start in stride(from: 0, to: max(1, line.count - 16), by: 8) {
                    let piece = String(line.dropFirst(start).prefix(16))
                    #expect(!(result.stdout + result.stderr).contains(piece), "key material printed: \(result.stderr)")
                }
            }
        }
    }

    @Test("an escape sequence in a PEM label is never sent to the terminal")
    func escapeInLabel() throws {
        let file = try dir.write("AuthKey_ESCAPE1234.p8", "-----BEGIN \u{1B}[2J\u{1B}]0;pwned\u{07}-----\nAAAA\n-----END X-----\n")
        let result = try CLI.pushctl(["jwt", "--key-file", file, "--team-id", "DEF123GHIJ"])
        #expect(result.status == 65)
        expectNoControlBytes(result.stderr)
        let odd = try dir.write("AuthKey_ODDLABEL12.p8", "-----BEGIN WEIRD THING-----\nAAAA\n-----END WEIRD THING-----\n")
        let named = try CLI.pushctl(["jwt", "--key-file", odd, "--team-id", "DEF123GHIJ"])
        #expect(named.status == 65)
        #expect(named.stderr.contains("'WEIRD THING' PEM block"))
    }

    @Test("an encrypted traditional EC key says encrypted, not damaged")
    func encryptedTraditional() throws {
        try dir.openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "plain.pem"])
        try dir.openssl(["ec", "-in", "plain.pem", "-aes256", "-passout", "pass:secret", "-out", "AuthKey_ENCRYPTED1.p8"])
        let result = try CLI.pushctl(["jwt", "--key-file", dir.path("AuthKey_ENCRYPTED1.p8"), "--team-id", "DEF123GHIJ"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("encrypted"), "\(result.stderr)")
    }

    @Test(
        "a line break or any control byte in a header value: 65 and nothing reaches the server",
        arguments: [
            ["--collapse-id", "a\r\nx-injected: 1"],
            ["--collapse-id", "a\nb"],
            ["--collapse-id", "tab\there"],
            ["--collapse-id", "del\u{7F}"],
            ["--topic", "com.example.app\r\nx-injected: 1"],
            ["--apns-id", "１２３e4567-e89b-12d3-a456-426614174000"],
            ["--device-token", String(repeating: "ab", count: 50_000)],
            ["--topic", String(repeating: "a", count: 100_000)],
        ])
    func headerInjection(_ extra: [String]) throws {
        let mock = try MockProcess(dir: dir)
        var arguments = ["--title", "x"] + extra
        if !extra.contains("--device-token") { arguments += ["--device-token", sampleToken] }
        let started = Date()
        let result = try mock.send(arguments)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 10, "refused at once, not after retries")
        expectNoControlBytes(result.stderr)
        #expect(result.stderr.utf8.count < 2000, "the refusal does not echo the whole value")
        #expect(try mock.requests().isEmpty, "nothing was sent")
    }

    // MARK: Tokens files: nothing lost, nothing twice

    @Test("tokens from a FIFO, /dev/stdin, a process substitution or a pipe: every token sent once, none lost")
    func tokensFromStreams() throws {
        let mock = try MockProcess(dir: dir)
        let list = tokens(40)
        let file = try dir.write("tokens.txt", list.joined(separator: "\n") + "\n")
        let send =
            "\"$PUSHCTL\" send --endpoint \(mock.url) --cacert \(mock.caFile) --key-file \(mock.keyFile) --team-id DEF123GHIJ --topic com.example.app --title x --output jsonl"
        let cases = [
            "\(send) --tokens-file <(cat \(file))",
            "cat \(file) | \(send) --tokens-file /dev/stdin",
            "cat \(file) | \(send) --tokens-file -",
            "rm -f \(dir.path("fifo")); mkfifo \(dir.path("fifo")); (cat \(file) > \(dir.path("fifo")) &); \(send) --tokens-file \(dir.path("fifo"))",
        ]
        var expected = 0
        for script in cases {
            let result = try shell(script)
            expected += list.count
            #expect(result.status == 0, "\(script): \(result.stderr)")
            let lines = result.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(Set(lines.compactMap { $0["token"] as? String }) == Set(list), "\(script)")
            #expect(lines.last?["accepted"] as? Int == list.count, "\(script)")
            #expect(try mock.requests(count: expected).count == expected, "\(script): each token reached the server once")
        }
    }

    @Test("CR-only line ends are line breaks; CRLF works; two tokens on one line are refused, not joined")
    func lineEnds() throws {
        let mock = try MockProcess(dir: dir)
        let list = tokens(3)
        let crOnly = try dir.write("cr.txt", list.joined(separator: "\r") + "\r")
        let result = try mock.send(["--tokens-file", crOnly, "--title", "x"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("3 tokens: 3 accepted"), "\(result.stderr)")
        let crlf = try dir.write("crlf.txt", "# list\r\n" + list.joined(separator: "\r\n") + "\r\n")
        #expect(try mock.send(["--tokens-file", crlf, "--title", "x"]).status == 0)
        let before = try mock.requests(count: 6).count
        let two = try dir.write("two.txt", "\(list[0])\n\(list[1]) \(list[2])\n")
        let joined = try mock.send(["--tokens-file", two, "--title", "x"])
        #expect(joined.status == 65)
        #expect(joined.stderr.contains("two.txt, line 2"), "\(joined.stderr)")
        #expect(joined.stderr.contains("more than one device token"), "\(joined.stderr)")
        #expect(try mock.requests().count == before, "nothing sent")
    }

    @Test("a line longer than a few KB, or an endless one, is refused at once with its line number")
    func longLines() throws {
        let mock = try MockProcess(dir: dir)
        let long = try dir.write("long.txt", sampleToken + "\n" + String(repeating: "a", count: 8_000_000) + "\n")
        let started = Date()
        let result = try mock.send(["--tokens-file", long, "--title", "x"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("line 2: longer than"), "\(result.stderr)")
        let endless = try CLI.pushctl(
            [
                "send", "--endpoint", mock.url, "--cacert", mock.caFile, "--key-file", mock.keyFile, "--team-id", "DEF123GHIJ",
                "--topic", "com.example.app", "--title", "x", "--tokens-file", "/dev/zero",
            ], ceiling: 20)
        #expect(endless.status == 65, "/dev/zero ends in a refusal, not a timeout: \(endless.stderr)")
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(try mock.requests().isEmpty)
    }

    @Test("a NUL or a BOM in a token line is named, never printed raw")
    func oddBytes() throws {
        let file = try dir.write("odd.txt", "\u{FEFF}" + sampleToken + "\n" + "ab\u{0}cd\n")
        let mock = try MockProcess(dir: dir)
        let result = try mock.send(["--tokens-file", file, "--title", "x"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("line 1"), "\(result.stderr)")
        expectNoControlBytes(result.stderr)
        #expect(!result.stderr.contains("\u{FEFF}"))
    }

    @Test("--unregistered-out naming the tokens file is refused, and the list is left whole")
    func unregisteredOverTokens() throws {
        let mock = try MockProcess(dir: dir)
        let text = tokens(5).joined(separator: "\n") + "\n"
        let file = try dir.write("tokens.txt", text)
        let result = try mock.send(["--tokens-file", file, "--title", "x", "--unregistered-out", file])
        #expect(result.status == 64)
        #expect(result.stderr.contains("is the tokens file itself"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == text)
        #expect(try mock.requests().isEmpty)
    }

    @Test(
        "a tokens file saved with a byte order mark (a Windows editor's, a spreadsheet's export) or as UTF-16 is named as that, in both languages; nothing is sent"
    )
    func byteOrderMark() throws {
        let mock = try MockProcess(dir: dir)
        let file = dir.path("bom.txt")
        try Data([0xEF, 0xBB, 0xBF] + Array((tokens(2).joined(separator: "\r\n") + "\r\n").utf8)).write(to: URL(fileURLWithPath: file))
        let english = try mock.send(["--tokens-file", file, "--title", "x"])
        #expect(english.status == 65)
        #expect(english.stderr.contains("bom.txt, line 1: a byte order mark (BOM) at the start: save the file as UTF-8 without BOM"), "\(english.stderr)")
        let spanish = try mock.send(["--tokens-file", file, "--title", "x", "--lang", "es"])
        #expect(spanish.status == 65)
        #expect(spanish.stderr.contains("guarda el archivo como UTF-8 sin BOM"), "\(spanish.stderr)")
        // UTF-16 (Windows' "Unicode", PowerShell 5's `>`), as a tokens file and as a requests file.
        let utf16 = dir.path("unicode.txt")
        try (tokens(1)[0] + "\r\n").data(using: .utf16)!.write(to: URL(fileURLWithPath: utf16))
        let wide = try mock.send(["--tokens-file", utf16, "--title", "x"])
        #expect(wide.status == 65)
        #expect(wide.stderr.contains("unicode.txt, line 1: the file is UTF-16 (what Windows calls \"Unicode\"): save it as UTF-8"), "\(wide.stderr)")
        let requests = dir.path("unicode.jsonl")
        try (#"{"token":""# + tokens(1)[0] + #"","payload":{"aps":{"alert":"x"}}}"# + "\n").data(using: .utf16)!.write(to: URL(fileURLWithPath: requests))
        let wideRequests = try mock.send(["--requests-file", requests])
        #expect(wideRequests.status == 65)
        #expect(wideRequests.stderr.contains("the file is UTF-16"), "\(wideRequests.stderr)")
        #expect(try mock.requests().isEmpty)
    }

    @Test("a token given twice is sent once, however it is spelled, and the summary says how many repeats were skipped")
    func duplicates() throws {
        let mock = try MockProcess(dir: dir)
        let list = tokens(3)
        // The same tokens again: upper-case, as Xcode prints them (<8 digits …>), and after a
        // no-break space (which only the careful path reads).
        let xcode =
            "<"
            + stride(from: 0, to: 64, by: 8).map { offset in
                String(list[2].dropFirst(offset).prefix(8))
            }.joined(separator: " ") + ">"
        let again = [list[0], list[1].uppercased(), list[0], xcode, "\u{00A0}" + list[1]]
        let file = try dir.write("dups.txt", (list + again).joined(separator: "\n") + "\n")
        let result = try mock.send(["--tokens-file", file, "--title", "x", "--output", "jsonl"])
        #expect(result.status == 0)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutLines.last!.utf8)) as? [String: Any])
        #expect(summary["tokens"] as? Int == 3)
        #expect(summary["duplicatesSkipped"] as? Int == 5)
        #expect(try mock.requests(count: 3).count == 3)
        let flags = try mock.send(["--device-token", sampleToken, "--device-token", sampleToken, "--title", "x"])
        #expect(flags.status == 0)
        #expect(flags.stderr.contains("1 repeated device token skipped"), "\(flags.stderr)")
        #expect(try mock.requests(count: 4).count == 4)
    }

    // MARK: Output that cannot be written

    @Test("stdout closed early (| head -1): every notification is still sent, the loss is reported, exit 74")
    func brokenPipe() throws {
        let mock = try MockProcess(dir: dir)
        let file = try dir.write("many.txt", tokens(3000).joined(separator: "\n") + "\n")
        let result = try shell(
            """
            "$PUSHCTL" send --endpoint \(mock.url) --cacert \(mock.caFile) --key-file \(mock.keyFile) --team-id DEF123GHIJ \
              --topic com.example.app --title x --tokens-file \(file) --output jsonl | head -1
            echo "status ${PIPESTATUS[0]}" >&2
            """)
        #expect(result.stdoutLines.count == 1)
        #expect(result.stderr.contains("status 74"), "\(result.stderr)")
        #expect(result.stderr.contains("could not write the results to standard output"))
        #expect(try mock.requests(count: 3000).count == 3000, "all 3,000 sent")

        let spanish = try shell(
            """
            "$PUSHCTL" --lang es send --endpoint \(mock.url) --cacert \(mock.caFile) --key-file \(mock.keyFile) --team-id DEF123GHIJ \
              --topic com.example.app --title x --tokens-file \(file) --output jsonl | head -1
            echo "status ${PIPESTATUS[0]}" >&2
            """)
        #expect(spanish.stderr.contains("status 74"), "\(spanish.stderr)")
        #expect(spanish.stderr.contains("no se pudieron escribir los resultados en la salida estándar: se cerró"), "\(spanish.stderr)")
        #expect(spanish.stderr.contains("(las notificaciones se enviaron igualmente)"), "\(spanish.stderr)")
        #expect(try mock.requests(count: 6000).count == 6000, "all 3,000 sent again")
    }

    @Test(
        "a full disk (> /dev/full): no trap, exit 74, all sent",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "no /dev/full here (Linux has one; macOS does not)"))
    func fullDisk() throws {
        let mock = try MockProcess(dir: dir)
        let file = try dir.write("some.txt", tokens(200).joined(separator: "\n") + "\n")
        let result = try shell(
            "\"$PUSHCTL\" send --endpoint \(mock.url) --cacert \(mock.caFile) --key-file \(mock.keyFile) --team-id DEF123GHIJ --topic com.example.app --title x --tokens-file \(file) --output json > /dev/full"
        )
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("no space left on the device"), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
        #expect(try mock.requests(count: 200).count == 200)
    }

    // MARK: Smaller refusals

    @Test(
        "usage and input problems are refused before anything is sent, with the right status",
        arguments: [
            (["--timeout", "inf"], Int32(64), "--timeout"),
            (["--timeout", "1e16"], 64, "--timeout"),
            (["--timeout", "nan"], 64, "--timeout"),
            (["--concurrency", "9223372036854775807"], 64, "--concurrency"),
            (["--retries", "99999999999"], 64, "--retries"),
            (["--custom", "k={\"a\":1"], 65, "not valid JSON"),
            (["--endpoint", "https://127.0.0.1:8443/path"], 65, "it has a path; give only the scheme, host and port; write it as https://127.0.0.1:8443"),
            (["--endpoint", "127.0.0.1:8443"], 65, "it must start with https://; write it as https://127.0.0.1:8443"),
            (["--endpoint", "http://localhost:8443"], 65, "it must start with https://; write it as https://localhost:8443"),
            (["--endpoint", "ftp://h"], 65, "it must start with https://; APNs is HTTPS only"),
            (["--endpoint", "https://127.0.0.1:8443?x=1"], 65, "query"),
            (["--endpoint", "https://127.0.0.1:8443#f"], 65, "fragment"),
            (["--endpoint", "https://127.0.0.1:99999"], 65, "port"),
            (["--endpoint", "https://bad host"], 65, "space"),
            (["--endpoint", "https://h\r\nx"], 65, "control"),
        ])
    func refusals(_ extra: [String], _ status: Int32, _ message: String) throws {
        let mock = try MockProcess(dir: dir)
        var arguments = ["--device-token", sampleToken, "--title", "x"]
        if !extra.contains("--custom") { arguments += extra } else { arguments = ["--device-token", sampleToken] + extra }
        let result = try CLI.pushctl(
            [
                "send", "--cacert", mock.caFile, "--key-file", mock.keyFile, "--team-id", "DEF123GHIJ",
                "--topic", "com.example.app",
            ] + (extra.contains("--endpoint") ? [] : ["--endpoint", mock.url]) + arguments)
        #expect(result.status == status, "\(extra): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(extra): \(result.stderr)")
        expectNoControlBytes(result.stderr)
        #expect(try mock.requests().isEmpty)
    }

    @Test("invalid UTF-8 in an argument is refused (65), not silently replaced")
    func invalidUTF8() throws {
        let mock = try MockProcess(dir: dir)
        let result = try shell(
            "\"$PUSHCTL\" send --endpoint \(mock.url) --cacert \(mock.caFile) --key-file \(mock.keyFile) --team-id DEF123GHIJ --topic com.example.app --device-token \(sampleToken) --title $'caf\\xe9'"
        )
        #expect(result.status == 65)
        #expect(result.stderr.contains("the value of --title is not valid UTF-8"), "\(result.stderr)")
        #expect(try mock.requests().isEmpty)
    }

    @Test("an empty --cacert says empty; a missing key file is reported before the missing key id")
    func fileMessages() throws {
        let empty = try dir.write("empty.pem", "")
        let result = try CLI.pushctl([
            "send", "--endpoint", "https://127.0.0.1:9", "--cacert", empty, "--key-file", try dir.generateKey(),
            "--team-id", "DEF123GHIJ", "--topic", "com.example.app", "--device-token", sampleToken, "--title", "x",
        ])
        #expect(result.status == 65)
        #expect(result.stderr.contains("is empty"), "\(result.stderr)")
        let missing = try CLI.pushctl([
            "send", "--key-file", dir.path("nope.p8"), "--team-id", "DEF123GHIJ", "--topic", "com.example.app",
            "--device-token", sampleToken, "--title", "x",
        ])
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(missing.stderr.contains("no such file"))
    }

    @Test("--payload - with --tokens-file -: both cannot read standard input (64)")
    func twoReadersOfStdin() throws {
        let result = try CLI.pushctl(["send", "--topic", "com.example.app", "--payload", "-", "--tokens-file", "-", "--jwt", "x.y.z"], stdin: "{}")
        #expect(result.status == 64)
        #expect(result.stderr.contains("cannot both read standard input"), "\(result.stderr)")
    }

    @Test("a --jwt older than 60 minutes is refused (65) and nothing is sent; iat = Int64.min does not trap anywhere")
    func oldJWT() throws {
        let mock = try MockProcess(dir: dir)
        let key = mock.keyFile
        let old = try CLI.pushctl(["jwt", "--key-file", key, "--team-id", "DEF123GHIJ", "--issued-at", String(Int(Date().timeIntervalSince1970) - 2 * 3600)])
        let jwt = old.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let result = try CLI.pushctl([
            "send", "--endpoint", mock.url, "--cacert", mock.caFile, "--jwt", jwt, "--topic", "com.example.app",
            "--device-token", sampleToken, "--title", "x",
        ])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("mint a new one"))
        #expect(!result.stderr.contains(jwt), "the JWT itself is not printed")
        #expect(try mock.requests().isEmpty)

        func b64(_ s: String) -> String {
            Data(s.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(
                of: "/", with: "_")
        }
        let minimal =
            b64(#"{"alg":"ES256","kid":"ABC123DEFG"}"#) + "." + b64(#"{"iss":"DEF123GHIJ","iat":-9223372036854775808}"#) + "."
            + String(repeating: "A", count: 86)
        for arguments in [
            ["jwt", "decode", minimal], ["jwt", "verify", minimal, "--key-file", key],
            [
                "send", "--jwt", minimal, "--endpoint", mock.url, "--cacert", mock.caFile, "--topic", "com.example.app",
                "--device-token", sampleToken, "--title", "x",
            ],
        ] {
            let r = try CLI.pushctl(arguments)
            #expect([0, 1, 65].contains(r.status), "\(arguments[0]) \(arguments[1]): \(r.status) \(r.stderr)")
        }
    }

    // MARK: The JWT cache

    @Test("a cache directory others can write, or a symlink, is not used: one warning, the run goes on, nothing written there")
    func unsafeCacheDirectory() throws {
        let mock = try MockProcess(dir: dir)
        let open = dir.path("open-cache")
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: true)
        chmod(open, 0o777)
        let result = try mock.send(["--device-token", sampleToken, "--title", "x"], env: ["PUSHCTL_CACHE_DIR": open])
        #expect(result.status == 0)
        #expect(result.stderr.contains("not using the JWT cache"), "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "not using the JWT cache").count == 2, "warned once")
        #expect(try FileManager.default.contentsOfDirectory(atPath: open).isEmpty)

        let real = dir.path("real-cache")
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let link = dir.path("link-cache")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        let linked = try mock.send(["--device-token", sampleToken, "--title", "x"], env: ["PUSHCTL_CACHE_DIR": link])
        #expect(linked.status == 0)
        #expect(linked.stderr.contains("symbolic link"), "\(linked.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: real).isEmpty)
    }

    @Test("a cached token APNs calls invalid is re-signed once and replaced in the cache")
    func poisonedCache() throws {
        let mock = try MockProcess(dir: dir)
        let cache = dir.path("cache")
        let env = ["PUSHCTL_CACHE_DIR": cache]
        #expect(try mock.send(["--device-token", sampleToken, "--title", "x"], env: env).status == 0)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: cache).first { $0.hasSuffix(".jwt") })
        // A well-formed entry, sealed with this key, around a token another key signed: what a
        // revoked key, or a key file replaced under the same name, leaves behind.
        let foreign = try UnsignedProviderToken(
            keyID: AppleIdentifier(.keyID, "ABC123DEFG"), teamID: AppleIdentifier(.teamID, "DEF123GHIJ"),
            issuedAt: Int64(Date().timeIntervalSince1970)
        ).signed(by: ES256PrivateKey.generate())
        ProviderTokenCache(directory: cache).store(foreign, keyFile: try KeyFile(path: mock.keyFile))
        let poisoned = try String(contentsOfFile: cache + "/" + name, encoding: .utf8)
        let result = try mock.send(["--device-token", sampleToken, "--title", "x", "--output", "jsonl"], env: env)
        #expect(result.status == 0, "\(result.stderr)")
        let answers = try mock.requests(count: 3).suffix(2).map { $0["status"] as? Int }
        #expect(answers == [403, 200], "refused once as invalid, then accepted with a fresh signature")
        let replaced = try String(contentsOfFile: cache + "/" + name, encoding: .utf8)
        #expect(replaced != poisoned, "the poisoned entry was replaced")
    }
}

/// `send --requests-file`: a notification per JSON line, each with its own payload and headers.
@Suite struct RequestsFileTests {
    let dir = try! TemporaryDirectory()

    func line(_ token: String, _ payload: String, _ extra: String = "") -> String {
        "{\"token\":\"\(token)\",\"payload\":\(payload)\(extra)}"
    }

    @Test("each line is its own notification: its payload re-serialised compactly, its headers over the flags' defaults")
    func perLine() throws {
        let mock = try MockProcess(dir: dir)
        let lines = [
            line(sampleToken, #"{ "aps" : { "badge" : 1 , "alert" : "one" } }"#),
            line(otherToken, #"{"aps":{"content-available":1}}"#, #","push-type":"background","priority":5,"collapse-id":"sync""#),
            "",
            line(sampleToken, #"{"aps":{"alert":"два"},"n":[1,2.5]}"#, #","expiration":0,"topic":"com.example.other""#),
        ]
        let file = try dir.write("requests.jsonl", lines.joined(separator: "\n") + "\n")
        let result = try mock.send(["--requests-file", file, "--output", "jsonl", "--collapse-id", "default"])
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try mock.requests(count: 3)
        #expect(requests.count == 3)
        let bodies = requests.compactMap { $0["body"] as? String }
        #expect(Set(bodies) == [#"{"aps":{"badge":1,"alert":"one"}}"#, #"{"aps":{"content-available":1}}"#, #"{"aps":{"alert":"два"},"n":[1,2.5]}"#])
        let headers = requests.compactMap { $0["headers"] as? [String: String] }
        let background = try #require(headers.first { $0["apns-push-type"] == "background" })
        #expect(background["apns-priority"] == "5")
        #expect(background["apns-collapse-id"] == "sync")
        #expect(headers.filter { $0["apns-collapse-id"] == "default" }.count == 2, "the flag is the default for lines without one")
        #expect(headers.contains { $0["apns-topic"] == "com.example.other" && $0["apns-expiration"] == "0" })
    }

    @Test(
        "a bad line anywhere: its number, exit 65, nothing sent",
        arguments: [
            ("{\"token\":\"zz\",\"payload\":{}}", "line 2"),
            ("{\"token\":\"aa\"}", "no \"payload\""),
            ("{\"token\":\"aa\",\"payload\":[]}", "not a JSON object"),
            ("{\"token\":\"aa\",\"payload\":{},\"events\":1}", "unknown field"),
            ("{\"token\":\"aa\",\"payload\":{},\"topic\":\"a.b\",\"token\":\"bb\"}", "the field \"token\" appears twice"),
            ("{\"token\":\"aa\",\"payload\":{},\"colapse-id\":\"x\"}", "did you mean \"collapse-id\""),
            ("{\"token\":\"aa\",\"payload\":{},\"collapse-id\":\"a\\r\\nx: 1\"}", "control character"),
            ("not json", "line 2"),
        ])
    func badLine(_ bad: String, _ message: String) throws {
        let mock = try MockProcess(dir: dir)
        let file = try dir.write("requests.jsonl", line(sampleToken, #"{"aps":{}}"#) + "\n" + bad + "\n" + line(otherToken, #"{"aps":{}}"#) + "\n")
        let result = try mock.send(["--requests-file", file])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try mock.requests().isEmpty)
    }

    @Test("from a pipe, with the same results and exit codes as a tokens file")
    func fromPipe() throws {
        let mock = try MockProcess(dir: dir, extra: ["--fail", "\(otherToken)=Unregistered"])
        let text = [line(sampleToken, #"{"aps":{"alert":"a"}}"#), line(otherToken, #"{"aps":{"alert":"b"}}"#)].joined(separator: "\n") + "\n"
        let result = try mock.send(["--requests-file", "-", "--output", "jsonl", "--unregistered-out", dir.path("dead.txt")], stdin: text)
        #expect(result.status == 1)
        #expect(result.stdoutLines.count == 3)
        #expect(try String(contentsOfFile: dir.path("dead.txt"), encoding: .utf8) == otherToken + "\n")
    }

    @Test("--requests-file excludes the other ways of giving recipients and payloads (64)")
    func exclusive() throws {
        let file = try dir.write("r.jsonl", line(sampleToken, "{}") + "\n")
        for extra in [["--device-token", sampleToken], ["--title", "x"], ["--payload-json", "{}"], ["--apns-id", "123e4567-e89b-12d3-a456-426614174000"]] {
            let result = try CLI.pushctl(["send", "--topic", "com.example.app", "--jwt", "x.y.z", "--requests-file", file] + extra)
            #expect(result.status == 64, "\(extra): \(result.stderr)")
        }
    }
}

extension RequestsFileTests {
    @Test("a requests file past what is kept parsed (8 MB) is sent whole and once: from a file and from a pipe, CRLF and blank lines")
    func pastKeptLines() throws {
        let mock = try MockProcess(dir: dir)
        let filler = String(repeating: "x", count: 3900)
        var text = ""
        for i in 0..<2500 {
            let token = String(repeating: "0", count: 56) + String(format: "%08x", i + 1)
            text += line(token, #"{"aps":{"alert":"n\#(i)"},"f":"\#(filler)"}"#) + (i % 7 == 0 ? "\r\n\r\n" : "\r\n")
        }
        let file = try dir.write("big.jsonl", text)
        for (arguments, stdin) in [(["--requests-file", file], nil as String?), (["--requests-file", "-"], text)] {
            let before = try mock.requests().count
            // 100 in flight rather than the mock's 1,000 streams: on a loaded machine the debug
            // build's mock answers some 35 of these a second, and a request behind 1,000 others
            // outlasted the 30 s --timeout, was sent again (as it should be) and broke "once".
            let result = try mock.send(arguments + ["--output", "jsonl", "--concurrency", "100"], stdin: stdin)
            #expect(result.status == 0, "\(result.stderr)")
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutLines.last!.utf8)) as? [String: Any])
            #expect(summary["accepted"] as? Int == 2500)
            let bodies = try mock.requests(count: before + 2500).dropFirst(before).compactMap { $0["body"] as? String }
            let numbers = bodies.compactMap { body -> Int? in
                guard let r = body.range(of: #""n[0-9]+""#, options: .regularExpression) else { return nil }
                return Int(body[r].dropFirst(2).dropLast())
            }
            #expect(Set(numbers) == Set(0..<2500), "every line sent, each once")
            #expect(numbers.count == 2500)
        }
    }

    @Test(
        "a requests file past what is kept parsed, with nowhere to keep the rest (TMPDIR unwritable): 73, the line and TMPDIR named in either language, nothing sent"
    )
    func pastKeptLinesWithoutRoom() throws {
        let mock = try MockProcess(dir: dir)
        let filler = String(repeating: "x", count: 3900)
        let text = (0..<2200).map { i in
            line(String(repeating: "0", count: 56) + String(format: "%08x", i + 1), #"{"aps":{"alert":"n\#(i)"},"f":"\#(filler)"}"#)
        }
        .joined(separator: "\n")
        let file = try dir.write("big.jsonl", text)
        for (language, place, words) in [("en", "big.jsonl, line ", "no temporary file in"), ("es", "big.jsonl, línea ", "no hay archivo temporal en")] {
            let result = try mock.send(["--requests-file", file], env: ["TMPDIR": dir.path("missing"), "PUSHCTL_LANG": language])
            #expect(result.status == 73, "\(result.stderr)")
            #expect(result.stderr.contains(place) && result.stderr.contains(words) && result.stderr.contains("TMPDIR"), "\(result.stderr)")
        }
        #expect(try mock.requestsSoFar().isEmpty, "nothing was sent")
    }
}

/// Messages that say what to do, for the mistakes of a first hour.
@Suite struct FirstHourMessageTests {
    let dir = try! TemporaryDirectory()

    @Test("a refused connection suggests the mock; an untrusted certificate suggests --cacert")
    func unreachableHints() throws {
        let mock = try MockProcess(dir: dir)
        let key = mock.keyFile
        let refused = try CLI.pushctl([
            "send", "--endpoint", "https://127.0.0.1:9", "--key-file", key, "--team-id", "DEF123GHIJ",
            "--topic", "com.example.app", "--device-token", sampleToken, "--title", "x",
        ])
        #expect(refused.status == 69)
        #expect(refused.stderr.contains("hint: nothing is listening there: is `pushctl mock` running"), "\(refused.stderr)")
        let untrusted = try CLI.pushctl([
            "send", "--endpoint", mock.url, "--key-file", key, "--team-id", "DEF123GHIJ",
            "--topic", "com.example.app", "--device-token", sampleToken, "--title", "x",
        ])
        #expect(untrusted.status == 69)
        #expect(untrusted.stderr.contains("pass the mock's CA with --cacert"), "\(untrusted.stderr)")
    }

    @Test("'32 bytes' (print(deviceToken)) and a key flattened onto one line each get their own message")
    func classicMistakes() throws {
        let bytes = try CLI.pushctl(["send", "--topic", "com.example.app", "--device-token", "32 bytes", "--title", "x", "--jwt", "x.y.z"])
        #expect(bytes.status == 65)
        #expect(bytes.stderr.contains("how Swift prints a Data value"), "\(bytes.stderr)")
        let key = try dir.generateKey()
        let flat = try String(contentsOfFile: key, encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        let file = try dir.write("AuthKey_FLATKEY123.p8", flat)
        let result = try CLI.pushctl(["jwt", "--key-file", file, "--team-id", "DEF123GHIJ"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("line breaks were lost"), "\(result.stderr)")
    }
}

/// `--shard K/N`: N machines given the same list send every token exactly once between them.
@Suite struct ShardTests {
    let dir = try! TemporaryDirectory()

    @Test("three shards of one tokens file (and of a requests file) cover it exactly once, each named in its summary")
    func coverOnce() throws {
        let mock = try MockProcess(dir: dir)
        let tokens = (0..<300).map { String(repeating: "0", count: 56) + String(format: "%08x", $0 + 1) }
        let file = try dir.write("tokens.txt", tokens.joined(separator: "\n") + "\n")
        let requests = try dir.write("r.jsonl", tokens.map { "{\"token\":\"\($0)\",\"payload\":{\"aps\":{\"alert\":\"x\"}}}" }.joined(separator: "\n") + "\n")
        for source in [["--tokens-file", file, "--title", "x"], ["--requests-file", requests]] {
            var seen: [String] = []
            for k in 1...3 {
                let result = try mock.send(source + ["--shard", "\(k)/3", "--output", "jsonl"])
                #expect(result.status == 0, "\(result.stderr)")
                let objects = result.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                let mine = objects.compactMap { $0["token"] as? String }
                #expect(!mine.isEmpty, "shard \(k) has tokens")
                #expect(objects.last?["shard"] as? String == "\(k)/3")
                seen += mine
            }
            #expect(seen.count == 300)
            #expect(Set(seen) == Set(tokens))
        }
        let text = try mock.send(["--tokens-file", file, "--title", "x", "--shard", "2/3"])
        #expect(text.stderr.contains("shard 2/3: "), "\(text.stderr)")
    }

    @Test("a shard that is not K/N with 1 ≤ K ≤ N is a usage error", arguments: ["0/3", "4/3", "a/b", "1/0", "2"])
    func badShard(_ shard: String) throws {
        let result = try CLI.pushctl(["send", "--topic", "com.example.app", "--device-token", sampleToken, "--title", "x", "--jwt", "x.y.z", "--shard", shard])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("K/N"))
    }
}
