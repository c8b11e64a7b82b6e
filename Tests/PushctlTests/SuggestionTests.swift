import Foundation
import Testing

/// A mistyped command line names the word that was wrong and points where the user meant: what
/// people type from curl and other push tools first, then the nearest spelling; exit 64, nothing run.
@Suite struct SuggestionTests {
    @Test(
        "what people really type for a flag points at pushctl's flag",
        arguments: [
            (["send", "--prod"], "'--prod'", "--production"),
            (["send", "--dev"], "'--dev'", "--sandbox"),
            (["send", "--token", "ab"], "'--token'", "--device-token"),
            (["send", "--device", "ab"], "'--device'", "--device-token"),
            (["send", "--tokens", "t.txt"], "'--tokens'", "--tokens-file"),
            (["send", "--bundle-id", "com.example"], "'--bundle-id'", "--topic"),
            (["send", "--bundle", "com.example"], "'--bundle'", "--topic"),
            (["send", "--silent"], "'--silent'", "--content-available"),
            (["send", "--background"], "'--background'", "--content-available"),
            (["send", "--alert", "hi"], "'--alert'", "--body"),
            (["send", "--message", "hi"], "'--message'", "--body"),
            (["send", "--key", "k.p8"], "'--key'", "--key-file"),
            (["send", "--p8", "k.p8"], "'--p8'", "--key-file"),
            (["send", "--kid", "ABC"], "'--kid'", "--key-id"),
            (["send", "--team", "DEF"], "'--team'", "--team-id"),
            (["send", "--p12", "c.p12"], "'--p12'", "--cert"),
            (["send", "--json", "{}"], "'--json'", "--payload-json"),
            (["send", "--data", "{}"], "'--data'", "--payload-json"),
            (["jwt", "--kid", "ABC"], "'--kid'", "--key-id"),
            (["doctor", "--team", "DEF"], "'--team'", "--team-id"),
            (["send", "--tilte", "x"], "'--tilte'", "--title"),
            (["send", "--colapse-id", "x"], "'--colapse-id'", "--collapse-id"),
        ])
    func flags(arguments: [String], named: String, meant: String) throws {
        let result = try CLI.pushctl(arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        let line = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(line.contains(named) && line.contains("did you mean \(meant)"), "\(result.stderr)")
    }

    @Test(
        "a mistyped command is named, even with flags after it, and the command meant is suggested",
        arguments: [
            (["sned", "--topic", "com.example", "--title", "x"], "'sned'", "`pushctl send`"),
            (["snd"], "'snd'", "`pushctl send`"),
            (["push", "--device-token", "ab"], "'push'", "`pushctl send`"),
            (["docter"], "'docter'", "`pushctl doctor`"),
            (["key", "gen", "--out", "keys"], "'gen'", "`pushctl key generate`"),
            (["cert", "inspec", "c.pem"], "'inspec'", "`pushctl cert inspect`"),
            (["version"], "'version'", "`pushctl --version`"),
        ])
    func commands(arguments: [String], named: String, meant: String) throws {
        let result = try CLI.pushctl(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(named) && result.stderr.contains("did you mean \(meant)"), "\(result.stderr)")
        #expect(!result.stderr.contains("--topic") && !result.stderr.contains("--device-token"), "a later flag is not blamed: \(result.stderr)")
    }

    @Test("a flag of another command is not suggested where it does not exist; nothing close gets the help's pointer")
    func nothingClose() throws {
        let far = try CLI.pushctl(["send", "--zzzzzzzz"])
        #expect(far.status == 64)
        #expect(far.stderr.contains("'--zzzzzzzz'") && far.stderr.contains("pushctl send --help"), "\(far.stderr)")
        #expect(!far.stderr.contains("did you mean"))
        let nowhere = try CLI.pushctl(["frobnicate"])
        #expect(nowhere.status == 64)
        #expect(nowhere.stderr.contains("'frobnicate'") && nowhere.stderr.contains("send"), "the commands are listed: \(nowhere.stderr)")
    }

    @Test(
        "a value outside a closed choice is named with the choices, and the nearest is suggested",
        arguments: [
            (["channel", "create", "--storage", "lates", "--topic", "com.example.app"], "'lates' is not a value of --storage; did you mean latest?"),
            (["channel", "create", "--storage=bogus"], "'bogus' is not a value of --storage; it takes none, latest"),
            (["cert", "generate", "--environment", "prod", "--topic", "com.example.app"], "'prod' is not a value of --environment; did you mean production?"),
            (["send", "--output", "jsn", "--device-token", "ab"], "'jsn' is not a value of --output; did you mean json?"),
            (["doctor", "--output", "yaml"], "'yaml' is not a value of --output; it takes text, json"),
            (["mock", "--environment", "prod"], "'prod' is not a value of --environment; did you mean production? (--environment takes sandbox, production)"),
            (["channel", "creat"], "'creat' is not a pushctl channel command; did you mean `pushctl channel create`?"),
            // The table of what people type names top-level commands: not suggested one level down.
            (["channel", "broadcast"], "'broadcast' is not a pushctl channel command; the commands are: create, list, read, delete"),
        ])
    func closedChoices(arguments: [String], said: String) throws {
        let result = try CLI.pushctl(arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: " + said), "\(result.stderr)")
    }

    @Test("a value outside a closed choice, in Spanish, and nothing is sent")
    func closedChoiceInSpanish() throws {
        let dir = try TemporaryDirectory()
        let mock = try MockProcess(dir: dir)
        let result = try CLI.pushctl(
            [
                "channel", "create", "--storage", "lates", "--endpoint", mock.url, "--cacert", mock.caFile,
                "--key-file", mock.keyFile, "--team-id", "DEF123GHIJ", "--topic", "com.example.app",
            ],
            env: ["LANG": "es_ES.UTF-8"])
        #expect(result.status == 64)
        #expect(result.stderr == "error: 'lates' no es un valor de --storage; ¿querías decir latest? (--storage admite none, latest)\n", "\(result.stderr)")
        #expect(try mock.requestsSoFar().isEmpty)
    }

    @Test("a title that starts with '-' is named, with the = form that passes it, in both languages; nothing is sent, and the = form sends it")
    func valueStartingWithDash() throws {
        let dir = try TemporaryDirectory()
        let mock = try MockProcess(dir: dir)
        let token = String(repeating: "ab", count: 32)
        let english = try mock.send(["--device-token", token, "--title", "-20% hoy"])
        #expect(english.status == 64)
        #expect(
            english.stderr.hasPrefix(
                "error: '-20% hoy' after --title starts with '-', so it reads as an option and --title has no value; join them with '=': --title='-20% hoy'"),
            "\(english.stderr)")
        let spanish = try mock.send(["--device-token", token, "--body", "- lista"], env: ["LANG": "es_ES.UTF-8"])
        #expect(spanish.status == 64)
        #expect(spanish.stderr.contains("'- lista' después de --body empieza por '-'") && spanish.stderr.contains("--body='- lista'"), "\(spanish.stderr)")
        // A number is the parser's to judge (--badge takes -1 and refuses it by name), and an option is an option.
        let badge = try mock.send(["--device-token", token, "--badge", "-1"])
        #expect(badge.status == 65 && !badge.stderr.contains("starts with '-'"), "\(badge.stderr)")
        let forgotten = try mock.send(["--device-token", token, "--title", "--body", "x"])
        #expect(forgotten.status == 64 && !forgotten.stderr.contains("starts with '-'"), "\(forgotten.stderr)")
        #expect(try mock.requestsSoFar().isEmpty)
        let joined = try mock.send(["--device-token", token, "--title=-20% hoy"])
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(try mock.requestsSoFar().map { $0["body"] as? String } == [#"{"aps":{"alert":{"title":"-20% hoy"}}}"#])
    }

    @Test("a PUSHCTL_ variable one slip from pushctl's is named with the one it reads, in both languages; a script's own is left alone")
    func misspelledVariables() throws {
        let line = ["send", "--topic", "com.example.app", "--device-token", String(repeating: "ab", count: 32), "--title", "x", "--dry-run"]
        let env = [
            "PUSHCTL_KEYFILE": "AuthKey_ABC123DEFG.p8", "PUSHCTL_TEAM": "DEF123GHIJ", "pushctl_key_id": "ABC123DEFG",
            "PUSHCTL_BIN": "/x", "PUSHCTL_KEY": "k", "PUSHCTL_TEST_TIMEOUT": "9",
        ]
        let result = try CLI.pushctl(line, env: env)
        #expect(result.status == 64, "the key is still missing: \(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
        #expect(
            warnings == [
                "warning: PUSHCTL_KEYFILE is set, but pushctl reads PUSHCTL_KEY_FILE; PUSHCTL_KEYFILE is ignored",
                "warning: PUSHCTL_TEAM is set, but pushctl reads PUSHCTL_TEAM_ID; PUSHCTL_TEAM is ignored",
                "warning: pushctl_key_id is set, but pushctl reads PUSHCTL_KEY_ID; pushctl_key_id is ignored",
            ], "\(result.stderr)")
        let spanish = try CLI.pushctl(line, env: ["PUSHCTL_TOPICS": "com.example.app", "LANG": "es_ES.UTF-8"])
        #expect(spanish.stderr.contains("PUSHCTL_TOPICS está definida, pero pushctl lee PUSHCTL_TOPIC; PUSHCTL_TOPICS se ignora"), "\(spanish.stderr)")
    }

    @Test("in Spanish when the locale says so")
    func spanish() throws {
        let result = try CLI.pushctl(["send", "--prod"], env: ["LANG": "es_ES.UTF-8"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("no es una opción") && result.stderr.contains("¿querías decir --production?"), "\(result.stderr)")
        let command = try CLI.pushctl(["sned"], env: ["LC_ALL": "es_MX.UTF-8"])
        #expect(command.stderr.contains("no es un comando"), "\(command.stderr)")
    }

    @Test("a variable set but empty is said to be empty")
    func emptyVariable() throws {
        let result = try CLI.pushctl(["jwt", "--help"], env: ["PUSHCTL_JWT": "", "PUSHCTL_KEY_ID": ""])
        #expect(result.stderr.contains("PUSHCTL_JWT is set but empty"), "\(result.stderr)")
        #expect(result.stderr.contains("PUSHCTL_KEY_ID is set but empty"), "\(result.stderr)")
    }

    /// A command line that starts with a command is parsed by that command alone (quicker); one that
    /// starts with a root option is parsed from the root. Both must answer alike, help and mistakes included.
    @Test(
        "a command line answers the same whether it starts with the command or with --lang",
        arguments: [
            ["send", "--help"], ["send", "-h"], ["channel", "help", "create"], ["key", "generate", "--help"],
            ["send", "--sandbox", "--production", "--topic", "x"], ["send", "--tilte", "x"], ["send", "--priority"],
            ["channel", "create", "--storage", "prod"], ["channel", "creat"], ["doctor", "--version"],
            ["jwt", "--key-file", "/nonexistent/AuthKey_ABC123DEFG.p8", "--team-id", "DEF123GHIJ"],
        ])
    func sameFromTheRoot(arguments: [String]) throws {
        let direct = try CLI.pushctl(arguments)
        let fromRoot = try CLI.pushctl(["--lang", "en"] + arguments)
        #expect(direct.status == fromRoot.status)
        #expect(direct.stdout == fromRoot.stdout)
        #expect(direct.stderr == fromRoot.stderr)
        #expect(direct.status != 0 || !direct.stdout.isEmpty, "\(direct.stderr)")
    }
}
