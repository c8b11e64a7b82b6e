import ChildProcess
import Foundation
import Testing

/// The mistakes of a developer's first hour, each caught by name.
@Suite struct FirstHourTests {
    let dir = try! TemporaryDirectory()

    @Test("a --key-id that contradicts AuthKey_<ID>.p8 is said before sending, and InvalidProviderToken then names it as the likely cause")
    func keyIDAgainstFileName() throws {
        let mock = try MockProcess(dir: dir)
        let wrong = try mock.send(["--device-token", sampleToken, "--title", "x", "--key-id", "WRONG12345", "--no-jwt-cache"])
        #expect(wrong.status == 1)
        let warning = try #require(wrong.stderr.split(separator: "\n").first { $0.hasPrefix("warning:") }, "\(wrong.stderr)")
        #expect(warning.contains("WRONG12345") && warning.contains("ABC123DEFG") && warning.contains("--key-id"), "\(warning)")
        #expect(
            wrong.stdout.contains("InvalidProviderToken") && wrong.stdout.contains("likely cause: the key id WRONG12345 is not ABC123DEFG"), "\(wrong.stdout)")

        let fromEnvironment = try mock.send(
            ["--device-token", sampleToken, "--title", "x", "--no-jwt-cache", "--output", "json"],
            env: ["PUSHCTL_KEY_ID": "WRONG12345", "LANG": "es_ES.UTF-8"])
        #expect(fromEnvironment.stderr.contains("aviso: el id de clave WRONG12345 (de PUSHCTL_KEY_ID)"), "\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stdout.contains("likely cause"), "json explains in English unless --lang is given: \(fromEnvironment.stdout)")

        let right = try mock.send(["--device-token", sampleToken, "--title", "x", "--key-id", "ABC123DEFG"])
        #expect(right.status == 0 && !right.stderr.contains("warning"), "\(right.stderr)")

        let jwt = try CLI.pushctl(["jwt", "--key-file", mock.keyFile, "--key-id", "WRONG12345", "--team-id", "DEF123GHIJ"])
        #expect(jwt.status == 0 && jwt.stderr.contains("WRONG12345") && jwt.stderr.contains("ABC123DEFG"), "\(jwt.stderr)")
    }

    @Test("broken JSON is located (line, column, the line with a caret) and its mistake named, wherever JSON is given; nothing is sent")
    func brokenJSON() throws {
        let mock = try MockProcess(dir: dir)
        let file = try dir.write("payload.json", "{\n  \"aps\": {\n    \"alert\": \"hi\",\n  }\n}\n")
        let trailing = try mock.send(["--device-token", sampleToken, "--payload", file])
        #expect(trailing.status == 65)
        #expect(trailing.stderr.contains("line 3, column 18: a comma after the last item"), "\(trailing.stderr)")
        #expect(trailing.stderr.contains("\n        \"alert\": \"hi\",\n                     ^"), "the caret under the comma: \(trailing.stderr)")

        let cases: [([String], String)] = [
            (["--payload-json", "{'aps':{}}"], "--payload-json) is not valid JSON: column 2: single quotes"),
            (
                ["--title", "x", "--custom", "order={id: 42}"],
                "--custom order: the value starts like JSON but is not valid JSON: column 2: a key without quotes"
            ),
            (["--live-activity", "update", "--content-state", "{\"score\": 1 // now\n}"], "--content-state is not valid JSON: line 1, column 13: a comment"),
            (["--payload-json", "{\u{201C}aps\u{201D}: {}}"], "typographic quotes"),
            (["--payload-json", "{\"aps\": {\"alert\": \"x\"}"], "'}' missing at the end"),
        ]
        for (arguments, message) in cases {
            let result = try mock.send(["--device-token", sampleToken] + arguments)
            #expect(result.status == 65, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let spanish = try mock.send(["--device-token", sampleToken, "--payload", file], env: ["LANG": "es_ES.UTF-8"])
        #expect(spanish.stderr.contains("línea 3, columna 18: una coma tras el último elemento"), "\(spanish.stderr)")

        let lines = try dir.write(
            "requests.jsonl",
            "{\"token\":\"\(sampleToken)\",\"payload\":{\"aps\":{}}}\n{\"token\":\"\(otherToken)\",\"payload\":{\"aps\":{\"alert\":\"x\",}}}\n")
        let requests = try mock.send(["--requests-file", lines])
        #expect(requests.status == 65)
        #expect(requests.stderr.contains("line 2: not valid JSON: column 106: a comma after the last item"), "\(requests.stderr)")
        #expect(try mock.requests().isEmpty, "nothing was sent")
    }

    @Test(
        "JSON given to --payload is pointed at --payload-json (exit 64); a missing file and a JWT cache that cannot be used are said in Spanish with the system's reason in Spanish too"
    )
    func payloadJSONAndSpanishReasons() throws {
        let mock = try MockProcess(dir: dir)
        let json = #"{"aps":{"alert":"hi"}}"#
        let english = try mock.send(["--device-token", sampleToken, "--payload", json])
        #expect(english.status == 64)
        #expect(english.stderr.contains("--payload takes a file, and '\(json)' is JSON: give the JSON itself with --payload-json"), "\(english.stderr)")
        let spanish = try mock.send(["--lang", "es", "--device-token", sampleToken, "--payload", json])
        #expect(spanish.status == 64)
        #expect(spanish.stderr.contains("--payload espera un archivo") && spanish.stderr.contains("por ejemplo: --payload-json"), "\(spanish.stderr)")
        let escape = try mock.send(["--lang", "es", "--device-token", sampleToken, "--payload-json", #"{"aps":{"alert":"h\q"}}"#])
        #expect(escape.status == 65)
        #expect(escape.stderr.contains("no es JSON válido: columna 21: escape no válido"), "the parser's own words in Spanish: \(escape.stderr)")

        let missing = try mock.send(["--lang", "es", "--device-token", sampleToken, "--payload", dir.path("nada.json")])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("nada.json': no existe; comprueba la ruta"), "\(missing.stderr)")
        let notAFolder = try mock.send(["--lang", "es", "--device-token", sampleToken, "--payload", try dir.write("p.json", "{}") + "/x"])
        #expect(notAFolder.status == 66)
        #expect(notAFolder.stderr.contains("una parte de la ruta no es una carpeta"), "\(notAFolder.stderr)")
        #expect(try mock.requests().isEmpty)

        let file = try dir.write("not-a-folder", "")
        let cache = try mock.send(["--lang", "es", "--device-token", sampleToken, "--title", "x"], env: ["PUSHCTL_CACHE_DIR": file])
        #expect(cache.status == 0)
        #expect(cache.stderr.contains("aviso: no se usa la caché del JWT: '\(file)' no es una carpeta"), "\(cache.stderr)")
        #expect(!cache.stderr.contains("not using"), "\(cache.stderr)")
    }

    @Test(
        "the parser's own errors (a missing value, a value that is not a number, an extra argument) read in Spanish under --lang es, stay the parser's in English, and fit a 60-column terminal"
    )
    func parserErrorsInSpanish() throws {
        let missing = try CLI.pushctl(["--lang", "es", "send", "--title"])
        #expect(missing.status == 64)
        #expect(missing.stderr.hasPrefix("error: falta el valor de '--title <title>'\nAyuda:  --title <title>"), "\(missing.stderr)")
        #expect(missing.stderr.contains("\nUso: pushctl send <options>\n  Consulta 'pushctl send --help' para más información."), "\(missing.stderr)")
        let notANumber = try CLI.pushctl(["send", "--badge", "x", "--lang", "es"])
        #expect(notANumber.status == 64)
        #expect(notANumber.stderr.hasPrefix("error: el valor 'x' no vale para '--badge <badge>'"), "\(notANumber.stderr)")
        let extra = try CLI.pushctl(["jwt", "sign", "extra"], env: ["PUSHCTL_LANG": "es"])
        #expect(extra.status == 64)
        #expect(extra.stderr.hasPrefix("error: argumento inesperado 'extra'\nUso: pushctl jwt [sign]"), "\(extra.stderr)")
        #expect(!extra.stderr.contains("Usage") && !extra.stderr.contains("See '"), "\(extra.stderr)")
        for language in ["en", "es"] {
            let narrow = try CLI.pushctl(["send", "--connections", "abc", "--lang", language], env: ["COLUMNS": "60"])
            #expect(narrow.status == 64)
            let rows = narrow.stderr.split(separator: "\n")
            #expect(rows.count >= 4, "\(narrow.stderr)")
            for row in rows { #expect(row.count <= 60, "wider than 60: \(row)") }
        }
        let english = try CLI.pushctl(["send", "--title"], env: ["PUSHCTL_LANG": "en"])
        #expect(english.stderr.hasPrefix("error: Missing value for '--title <title>'\nHelp:  --title <title>"), "\(english.stderr)")
        #expect(english.stderr.contains("\nUsage: pushctl send <options>\n  See 'pushctl send --help' for more information."), "\(english.stderr)")
    }

    @Test("a mistyped push type is named with the one meant, from a flag and from a requests line; nothing is sent")
    func mistypedPushType() throws {
        let mock = try MockProcess(dir: dir)
        let flag = try mock.send(["--device-token", sampleToken, "--title", "x", "--push-type", "alrt"])
        #expect(flag.status == 65)
        #expect(flag.stderr.contains("--push-type 'alrt' is not an APNs push type; did you mean alert?"), "\(flag.stderr)")
        let spanish = try mock.send(["--device-token", sampleToken, "--title", "x", "--push-type", "Background", "--lang", "es"])
        #expect(spanish.stderr.contains("¿querías decir background?"), "\(spanish.stderr)")
        let lines = try dir.write("typo.jsonl", "{\"token\":\"\(sampleToken)\",\"push-type\":\"voip_\",\"payload\":{\"aps\":{}}}\n")
        let line = try mock.send(["--requests-file", lines])
        #expect(line.status == 65 && line.stderr.contains("\"push-type\" 'voip_' is not an APNs push type; did you mean voip?"), "\(line.stderr)")
        #expect(try mock.requestsSoFar().isEmpty, "nothing was sent")
    }

    @Test("tokens as people paste them are named: Data's description, a UUID, an FCM token, base64 (with its hex); exit 65")
    func pastedTokens() throws {
        let cases: [(String, String)] = [
            ("{length = 32, bytes = 0x740f4707 bebcf74f 9b7c25d4 8e335894 ... 5f6aa01c 5ad2b7ee }", "how iOS 13 and later print a Data value"),
            ("6F1C0E5A-3B1D-4E4B-9C1A-2B3C4D5E6F70", "this is a UUID"),
            (
                "dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx6mnk3gWbJsM3nAgc6DQlk_ri8WX4YGnwH3kU-J8qOdRb-zMKOlYGs4ZQO9SJpV1vRhF6BAKFmGYSP1Yk",
                "Firebase Cloud Messaging"
            ),
            ("dA9HB0e8v0+bfCXUjjNYlOm6hU4gRY1ObU+lpz4ynEM=", "740f470747bcbf4f9b7c25d48e335894e9ba854e20458d4e6d4fa5a73e329c43"),
        ]
        let key = try dir.generateKey()
        for (token, message) in cases {
            let result = try CLI.pushctl([
                "send", "--dry-run", "--key-file", key, "--team-id", "DEF123GHIJ", "--topic", "com.example.app",
                "--title", "x", "--device-token", token,
            ])
            #expect(result.status == 65, "\(token): \(result.stderr)")
            #expect(result.stderr.contains(message) && result.stderr.contains("String(format: \"%02x\", $0)"), "\(token): \(result.stderr)")
        }
    }

    @Test("a dry run shows the banner as the phone lays it out: plain lines for a log, what the phone cuts, in English and Spanish")
    func dryRunShowsThePhone() throws {
        let key = try dir.generateKey()
        let body =
            "Tu pedido número 1234 está listo en la barra, pasa a recogerlo cuando quieras; te esperamos con el café caliente y una sonrisa enorme, de verdad"
        let shown = [
            "  Pedido listo", "  Tu pedido número 1234 está listo en la", "  barra, pasa a recogerlo cuando", "  quieras; te esperamos con el café",
            "  caliente y una sonrisa enorme, de…",
        ]
        let cases = [
            ("en", "On the phone (approximate: iPhone 16, 393 points wide):", "  cut by the phone: “verdad”"),
            ("es", "En el teléfono (aproximado: iPhone 16, 393 puntos de ancho):", "  el teléfono recorta: «verdad»"),
        ]
        for (language, heading, cut) in cases {
            let result = try CLI.pushctl([
                "send", "--dry-run", "--key-file", key, "--team-id", "DEF123GHIJ", "--topic", "com.example.cafe", "--device-token", sampleToken,
                "--title", "Pedido listo", "--body", body, "--lang", language,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let start = try #require(lines.firstIndex(of: heading), "\(result.stdout)")
            #expect(Array(lines[(start + 1)...].prefix(6)) == shown + [cut], "\(result.stdout)")
            #expect(lines[start...].allSatisfy { $0.count <= 80 }, "the preview fits 80 columns: \(result.stdout)")
        }
        // A silent push shows nothing on the phone, and says nothing about it.
        let silent = try CLI.pushctl([
            "send", "--dry-run", "--key-file", key, "--team-id", "DEF123GHIJ", "--topic", "com.example.cafe", "--device-token", sampleToken,
            "--content-available",
        ])
        #expect(silent.status == 0 && !silent.stdout.contains("On the phone"), "\(silent.stdout)")
    }

    @Test(
        "a spreadsheet's row of tokens and a JSON array or pretty-printed object as a requests file are named, with the command that fixes each; nothing is sent"
    )
    func fileShapes() throws {
        let mock = try MockProcess(dir: dir)
        let (a, b) = (String(repeating: "ab", count: 32), String(repeating: "cd", count: 32))
        let row = try mock.send(["--tokens-file", try dir.write("tokens.csv", "\(a),\(b)\n"), "--title", "x"])
        #expect(row.status == 65)
        #expect(
            row.stderr.contains("looks like 2 device tokens separated by ','") && row.stderr.contains("tr ',' '\\n' < tokens.csv > tokens.txt"), "\(row.stderr)"
        )
        let flag = try mock.send(["--device-token", "\"\(a)\"; \"\(b)\"", "--title", "x", "--lang", "es"])
        #expect(flag.status == 65)
        #expect(flag.stderr.contains("parece 2 tokens del dispositivo separados por ';'"), "\(flag.stderr)")

        let line = #"{"token":"\#(a)","payload":{"aps":{"alert":"x"}}}"#
        for (name, text) in [("array.json", "[\n  \(line)\n]\n"), ("pretty.json", "{\n  \"token\": \"\(a)\",\n  \"payload\": {}\n}\n")] {
            let result = try mock.send(["--requests-file", try dir.write(name, text)])
            #expect(result.status == 65)
            #expect(
                result.stderr.contains("\(name), line 1: the JSON that starts on this line goes on past it: a requests file is JSON Lines"), "\(result.stderr)")
            #expect(result.stderr.contains("jq -c '.[]' requests.json > requests.jsonl"), "\(result.stderr)")
        }
        let oneLine = try mock.send(["--requests-file", try dir.write("one-line.json", "[\(line)]\n")])
        #expect(oneLine.status == 65)
        #expect(oneLine.stderr.contains("the line is an array, not a JSON object; jq turns a JSON array of requests into JSON Lines"), "\(oneLine.stderr)")
        let cut = try mock.send(["--requests-file", try dir.write("cut.jsonl", String(line.prefix(60)) + "\n")])
        #expect(cut.status == 65)
        #expect(cut.stderr.contains("not valid JSON") && !cut.stderr.contains("goes on past it"), "a line cut short is still diagnosed as such: \(cut.stderr)")
        #expect(try mock.requests().isEmpty)
    }

    @Test(
        "a tokens file as a spreadsheet or a database exports it (a header, a column beside the token, quotes, JSON) is named, with the command that makes a tokens file of it; nothing is sent",
        arguments: [
            ("device_token,user_id\n{T},42\n", "line 1: 'device_token,user_id' looks like a column's header", "tail -n +2 tokens.csv > tokens.txt"),
            ("{T},42\n", "looks like a spreadsheet row; the device token is its column 1", "cut -d',' -f1 tokens.csv > tokens.txt"),
            ("42;{T}\n", "the device token is its column 2", "cut -d';' -f2 tokens.csv > tokens.txt"),
            ("{T}\tAna\n", "the device token is its column 1", "cut -f1 tokens.csv > tokens.txt"),
            ("\"{T}\"\n", "is in quotes", "tr -d '\"' < tokens.csv > tokens.txt"),
            ("'{T}'\n", "is in quotes", "tr -d \"'\" < tokens.csv > tokens.txt"),
            ("{\"token\":\"{T}\"}\n", "is a JSON object, not a device token", "jq -r .token tokens.jsonl > tokens.txt"),
        ])
    func exportedTokens(_ text: String, _ said: String, _ command: String) throws {
        let mock = try MockProcess(dir: dir)
        let file = try dir.write("tokens.csv", text.replacingOccurrences(of: "{T}", with: String(repeating: "ab", count: 32)))
        let result = try mock.send(["--tokens-file", file, "--title", "x"])
        #expect(result.status == 65)
        #expect(result.stderr.contains(said) && result.stderr.contains(command), "\(result.stderr)")
        let spanish = try mock.send(["--tokens-file", file, "--title", "x", "--lang", "es"])
        #expect(spanish.status == 65 && spanish.stderr.contains(command) && !spanish.stderr.contains(said), "\(spanish.stderr)")
        #expect(spanish.stderr.hasPrefix("error: \(file), línea 1: "), "the place is in Spanish too: \(spanish.stderr)")
        #expect(try mock.requestsSoFar().isEmpty)
    }

    @Test("a certificate given as --key-file (PEM, Apple's DER aps.cer, a .p12) is named, and pointed at --cert; exit 65")
    func certificateAsKey() throws {
        try dir.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "key.pem",
            "-out", "cert.pem", "-days", "2", "-subj", "/CN=x",
        ])
        try dir.openssl(["x509", "-in", "cert.pem", "-outform", "DER", "-out", "aps.cer"])
        try dir.openssl(["pkcs12", "-export", "-in", "cert.pem", "-inkey", "key.pem", "-out", "cert.p12", "-passout", "pass:x"])
        for (file, form) in [("cert.pem", "a PEM certificate"), ("aps.cer", "a certificate in DER form"), ("cert.p12", "a PKCS#12 file")] {
            for command in [["send", "--dry-run", "--topic", "com.example.app", "--title", "x", "--device-token", sampleToken], ["jwt"]] {
                let result = try CLI.pushctl(command + ["--key-file", dir.path(file), "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"])
                #expect(result.status == 65, "\(file): \(result.stderr)")
                #expect(result.stderr.contains(form) && result.stderr.contains("--cert \(dir.path(file))"), "\(file): \(result.stderr)")
            }
        }
    }

    /// Runs `send` with stdout and stderr on a pseudo-terminal `columns` wide; the rows it drew
    /// (each \r-redrawn progress line counted once, at its last state) and the exit status.
    func onTerminal(_ mock: MockProcess, _ arguments: [String], columns: Int) throws -> (rows: [String], status: Int32) {
        let (process, primary) = try PseudoTerminal.spawn(
            CLI.pushctlPath,
            [
                "send", "--endpoint", mock.url, "--cacert", mock.caFile, "--key-file", mock.keyFile, "--team-id", "DEF123GHIJ",
                "--topic", "com.example.app",
            ] + arguments,
            environment: CLI.baseEnvironment.merging(["TERM": "xterm"]) { $1 }, columns: columns)
        defer { close(primary) }
        let drawn = String(decoding: PseudoTerminal.readAll(primary), as: UTF8.self)
        #expect(process.waitUntilExit(orKillAfter: 60))
        // Escapes (colour, clearing a line) take no columns; a row is what is left after its last \r.
        let plain = drawn.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
        // (A terminal ends lines with \r\n, which Swift reads as one Character: make it \n first.)
        let rows = plain.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n").map { row in
            row.components(separatedBy: "\r").last(where: { !$0.isEmpty }) ?? ""
        }
        return (rows.filter { !$0.isEmpty }, process.terminationStatus)
    }

    @Test(
        "a big batch on a terminal shows the progress and the notifications not accepted, not 300 accepted rows; --verbose shows them all; every row fits",
        arguments: [60, 80, 120])
    func bigBatchOnATerminal(columns: Int) throws {
        let failing = (0..<3).map { String(format: "%064x", 0xdead_0000 + $0) }
        let mock = try MockProcess(dir: dir, extra: failing.flatMap { ["--fail", "\($0)=Unregistered"] })
        var tokens = (0..<297).map { String(format: "%064x", 0xa0000 + $0) }
        tokens.insert(contentsOf: failing, at: 150)
        let file = try dir.write("tokens-\(columns).txt", tokens.joined(separator: "\n") + "\n")

        let (rows, status) = try onTerminal(mock, ["--tokens-file", file, "--title", "x"], columns: columns)
        #expect(status == 1)
        let accepted = rows.filter { $0.hasPrefix("✓") }
        let refused = rows.filter { $0.hasPrefix("✗") }
        #expect(accepted.isEmpty, "accepted rows are left out of a big batch: \(accepted.count)")
        #expect(refused.count == 3 && failing.allSatisfy { token in refused.contains { $0.contains(token.prefix(8)) } }, "\(rows)")
        #expect(rows.contains { $0.contains("300") && $0.contains("297") }, "the summary: \(rows.suffix(5))")
        for row in rows { #expect(row.count <= columns, "wider than \(columns): \(row)") }

        let verbose = try onTerminal(mock, ["--tokens-file", file, "--title", "x", "--verbose"], columns: columns)
        #expect(verbose.rows.filter { $0.hasPrefix("✓") }.count == 297)
    }

    @Test(
        "key generate and cert generate make the --out folder they are given (private); a mock on a port in use says so; the mock's send lines work pasted as printed"
    )
    func setUpMistakes() throws {
        let keys = try CLI.pushctl(["key", "generate", "--key-id", "ABC123DEFG", "--out", dir.path("new/keys/")])
        #expect(keys.status == 0, "\(keys.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.path("new/keys/AuthKey_ABC123DEFG.p8")))
        let mode = try FileManager.default.attributesOfItem(atPath: dir.path("new/keys"))[.posixPermissions] as? Int
        #expect(mode == 0o700)
        let certs = try CLI.pushctl(["cert", "generate", "--topic", "com.example.app", "--out", dir.path("new/certs")])
        #expect(certs.status == 0 && FileManager.default.fileExists(atPath: dir.path("new/certs/com.example.app.p12")), "\(certs.stderr)")

        // A mock with no key: what it prints to send to it runs as printed, in an empty folder.
        let (process, banner) = try start(CLI.pushctlPath, ["mock", "--port", "0"])
        defer { kill(process.processIdentifier, SIGKILL) }
        let after: String = banner.components(separatedBy: "Send to it with:\n").last ?? ""
        let lines: [String] = Array(after.components(separatedBy: "\n").prefix(2))
        #expect(lines.count == 2 && lines[0].contains("key generate") && !banner.contains("<KEYID>") && !banner.contains("<TEAMID>"), "\(banner)")
        let folder = try TemporaryDirectory()
        let bin = URL(fileURLWithPath: CLI.pushctlPath).deletingLastPathComponent().path
        let pasted = try CLI.run("/bin/bash", ["-c", lines.joined(separator: "\n")], env: ["PATH": bin + ":/usr/bin:/bin"], in: folder.url)
        #expect(pasted.status == 0 && pasted.stdout.contains("✓"), "\(pasted.stdout)\n\(pasted.stderr)")

        // The same port again: in use.
        let match = try #require(banner.firstMatch(of: /127\.0\.0\.1:([0-9]+)/))
        let port = String(match.output.1)
        let busy = try CLI.pushctl(["mock", "--port", port])
        #expect(busy.status == 69 && busy.stderr.contains("port \(port) is already in use"), "\(busy.stderr)")
    }
}
