public import ArgumentParser
public import PushCore
import PushEngine
import PushSystem
import PushWords

/// When the command line does not parse, the word that was wrong and what the user meant: first a
/// table of what people really type (curl's flags, other push tools', Apple's words), then the
/// nearest spelling. Runs only after a parse failed, so a good command line pays nothing for it.
public enum Suggestions {
    /// What people type for pushctl's flags, by command (nil: any command), and what they meant.
    static let flagTable: [(typed: [String], meant: String, command: String?)] = [
        (["--prod", "--prd", "--production-env", "--live", "--release"], "--production", nil),
        (["--dev", "--development", "--develop", "--debug-env", "--test-env"], "--sandbox", nil),
        (["--env", "--environment", "--apns-env"], "--sandbox or --production", "send"),
        (["--token", "--device", "--devicetoken", "--device_token", "--to", "--recipient", "--udid"], "--device-token", "send"),
        (["--tokens", "--token-file", "--devices", "--device-tokens"], "--tokens-file", "send"),
        (["--bundle-id", "--bundle", "--bundleid", "--app", "--app-id", "--appid", "--apns-topic"], "--topic", nil),
        (["--silent", "--background", "--content", "--available"], "--content-available", "send"),
        (["--alert", "--message", "--msg", "--text"], "--body (and --title)", "send"),
        (["--key", "--p8", "--private-key", "--auth-key", "--keyfile", "--key-path"], "--key-file", nil),
        (["--kid", "--keyid", "--key_id"], "--key-id", nil),
        (["--team", "--teamid", "--team_id", "--iss"], "--team-id", nil),
        (["--p12", "--pfx", "--certificate", "--cert-file", "--pem"], "--cert", nil),
        (["--json", "--data", "--data-raw", "--data-binary", "--d"], "--payload-json (inline JSON) or --payload (a file)", "send"),
        (["--payload-file", "--file"], "--payload", "send"),
        (["--type", "--pushtype", "--apns-push-type"], "--push-type", "send"),
        (["--collapse", "--apns-collapse-id"], "--collapse-id", "send"),
        (["--expiry", "--expires", "--ttl", "--apns-expiration"], "--expiration", "send"),
        (["--url", "--host", "--server", "--gateway"], "--endpoint", "send"),
        (["--ca", "--cafile", "--ca-cert", "--ca-file"], "--cacert", nil),
        (["--header", "--headers", "--H"], "the header flags: --push-type, --priority, --collapse-id, --expiration, --apns-id", "send"),
        (["--insecure", "--k", "--no-verify"], "--cacert with the server's CA (pushctl never skips TLS verification)", nil),
        (["--http2", "--http2-prior-knowledge"], "nothing: pushctl always speaks HTTP/2", nil),
        (["--sound-name"], "--sound", "send"),
        (["--category-id"], "--category", "send"),
        (["--thread"], "--thread-id", "send"),
        (["--format", "--json-output", "--jsonl"], "--output", nil),
        (["--lang-es", "--spanish", "--es"], "--lang es", nil),
    ]

    /// What people type for pushctl's commands, and what they meant.
    static let commandTable: [(typed: [String], meant: String)] = [
        (["sned", "snd", "sedn", "push", "post", "notify", "sendpush", "send-push"], "send"),
        (["token", "sign", "jwt-sign", "jws", "bearer"], "jwt"),
        (["keygen", "keys", "genkey", "generate-key", "p8"], "key generate"),
        (["certificate", "certs", "p12"], "cert"),
        (["server", "serve", "fake", "apns", "mockserver"], "mock"),
        (["check", "diagnose", "diag", "doc", "docter", "health"], "doctor"),
        (["channels", "broadcast"], "channel"),
        (["tutorial", "walkthrough", "tour", "class", "lesson"], "demo"),
        (["version", "ver"], "--version"),
    ]

    /// The better message for a command line that did not parse, or nil to keep the parser's own.
    static func explain(_ arguments: [String], root: any ParsableCommand.Type) -> Words? {
        var command: any ParsableCommand.Type = root
        var path = [Self.name(of: root) ?? "pushctl"]
        var index = 0
        var known = KnownOptions(command)
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" { break }
            if word.hasPrefix("-") && word.count > 1 {
                let name = String(word.split(separator: "=", maxSplits: 1).first ?? Substring(word))
                if !known.names.contains(name), let fallback = Self.configuration(of: command).defaultSubcommand {
                    // `pushctl jwt --kid …` runs `jwt sign`: its options are the ones that count.
                    command = fallback
                    known = KnownOptions(fallback)
                }
                guard known.names.contains(name) else {
                    return unknownOption(word: name, command: command, path: path, known: known)
                }
                // A closed choice (`--storage none|latest`): a value outside it is named, with the choices.
                let value =
                    word.contains("=")
                    ? String(word.split(separator: "=", maxSplits: 1).last ?? "")
                    : index + 1 < arguments.count ? arguments[index + 1] : nil
                if let choices = known.values[name], let value, !choices.contains(value) {
                    return unknownValue(value, option: name, choices: choices)
                }
                if known.takesValue.contains(name), !word.contains("="), let value, let dashed = dashedValue(value, option: name, known: known) {
                    return dashed
                }
                if known.takesValue.contains(name) && !word.contains("=") { index += 1 }
                index += 1
                continue
            }
            // A word: a subcommand while the command has them, else an argument.
            let configuration = Self.configuration(of: command)
            let subcommands = configuration.subcommands
            guard !subcommands.isEmpty else {
                index += 1
                continue
            }
            if let sub = subcommands.first(where: { Self.name(of: $0) == word || Self.configuration(of: $0).aliases.contains(word) }) {
                command = sub
                path.append(word)
                known = KnownOptions(sub)
            } else if let fallback = configuration.defaultSubcommand {
                // `pushctl jwt --key-file …` runs `jwt sign`: the word is that command's argument.
                command = fallback
                known = KnownOptions(fallback)
                continue
            } else {
                return unknownCommand(word: word, among: subcommands.compactMap { Self.name(of: $0) }, path: path)
            }
            index += 1
        }
        return nil
    }

    static func configuration(of command: any ParsableCommand.Type) -> CommandConfiguration { command.configuration }
    static func name(of command: any ParsableCommand.Type) -> String? { configuration(of: command).commandName ?? command._commandName }

    static func unknownCommand(word: String, among names: [String], path: [String]) -> Words {
        let shown = OutsideText.display(word, limit: 40)
        let here = path.joined(separator: " ")
        let lowered = word.lowercased()
        // The table names pushctl's own commands: it is read for a word typed where they go.
        let meant =
            (path.count == 1 ? commandTable.first { $0.typed.contains(lowered) }?.meant : nil)
            ?? nearest(lowered, among: names)
        if let meant {
            return Words(
                "'\(shown)' is not a \(here) command; did you mean `\(here) \(meant)`?",
                es: "'\(shown)' no es un comando de \(here); ¿querías decir `\(here) \(meant)`?")
        }
        return Words(
            "'\(shown)' is not a \(here) command; the commands are: \(names.joined(separator: ", ")) (see `\(here) --help`)",
            es: "'\(shown)' no es un comando de \(here); los comandos son: \(names.joined(separator: ", ")) (consulta `\(here) --help`)")
    }

    static func unknownOption(word: String, command: any ParsableCommand.Type, path: [String], known: KnownOptions) -> Words {
        let shown = OutsideText.display(word, limit: 40)
        let here = path.joined(separator: " ")
        let name = Self.name(of: command) ?? ""
        let lowered = word.lowercased()
        let tabled = flagTable.first { entry in entry.typed.contains(lowered) && (entry.command == nil || entry.command == name) }?.meant
        // A table entry that names a flag this command lacks is no suggestion here.
        let usable = tabled.flatMap { meant -> String? in
            let flag = meant.split(separator: " ").first.map(String.init) ?? meant
            return !flag.hasPrefix("--") || known.names.contains(flag) ? meant : nil
        }
        let meant = usable ?? nearest(lowered, among: known.names.filter { $0.hasPrefix("--") && $0 != "--help" })
        if let meant {
            return Words(
                "unknown option '\(shown)' for `\(here)`; did you mean \(meant)?",
                es: "'\(shown)' no es una opción de `\(here)`; ¿querías decir \(meant)?")
        }
        return Words(
            "unknown option '\(shown)' for `\(here)`; `\(here) --help` lists them",
            es: "'\(shown)' no es una opción de `\(here)`; `\(here) --help` las muestra todas")
    }

    /// `--title "-20% hoy"`: the parser reads a value that starts with `-` as an option, and says
    /// the option has no value. A number (`--badge -1`) or one of the command's options is left to
    /// the parser's own words.
    static func dashedValue(_ value: String, option: String, known: KnownOptions) -> Words? {
        guard value.hasPrefix("-"), value.count > 1, Double(value) == nil,
            !known.names.contains(String(value.split(separator: "=", maxSplits: 1).first ?? ""))
        else { return nil }
        let shown = OutsideText.display(value, limit: 40)
        let quoted = shown.contains("'") ? "\"\(shown)\"" : "'\(shown)'"
        return Words(
            "'\(shown)' after \(option) starts with '-', so it reads as an option and \(option) has no value; join them with '=': \(option)=\(quoted)",
            es:
                "'\(shown)' después de \(option) empieza por '-', así que se lee como una opción y \(option) se queda sin valor; únelos con '=': \(option)=\(quoted)"
        )
    }

    static func unknownValue(_ value: String, option: String, choices: [String]) -> Words {
        let shown = OutsideText.display(value, limit: 40)
        let list = choices.joined(separator: ", ")
        if let meant = nearest(value.lowercased(), among: choices) {
            return Words(
                "'\(shown)' is not a value of \(option); did you mean \(meant)? (\(option) takes \(list))",
                es: "'\(shown)' no es un valor de \(option); ¿querías decir \(meant)? (\(option) admite \(list))")
        }
        return Words(
            "'\(shown)' is not a value of \(option); it takes \(list)",
            es: "'\(shown)' no es un valor de \(option); admite \(list)")
    }

    /// The closest name within a small edit distance (Damerau–Levenshtein), if one is close enough.
    static func nearest(_ word: String, among names: [String]) -> String? {
        let bare = word.drop { $0 == "-" }
        // A beginning only one name has ("gen" for "generate") is that name.
        let starting = names.filter { bare.count >= 3 && $0.drop { $0 == "-" }.hasPrefix(bare) }
        if starting.count == 1 { return starting[0] }
        let limit = max(1, min(3, bare.count / 3))
        var best: (name: String, distance: Int)?
        for name in names {
            let distance = editDistance(Array(bare), Array(name.drop { $0 == "-" }))
            if distance <= limit, distance < (best?.distance ?? .max) { best = (name, distance) }
        }
        return best?.name
    }

    /// Edits (insert, delete, substitute, swap two neighbours) between two words.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int { EditDistance.between(a, b) }
}

/// The options a command accepts, read from its own help (so they never drift from the declarations).
public struct KnownOptions {
    public private(set) var names: Set<String> = ["--help", "-h", "--version"]
    var takesValue: Set<String> = []
    /// The values of an option that takes one of a closed set, as its help lists them ("(values: a, b)").
    var values: [String: [String]] = [:]

    init(_ command: any ParsableCommand.Type) {
        self.init(help: command.helpMessage(columns: 2000))
    }

    /// From help text as swift-argument-parser prints it (another program's, say).
    public init(help: String) {
        var inOptions = false
        // The option a line of help text belongs to: a long name and its value put the help on
        // the next line.
        var current: [String] = []
        for line in help.split(separator: "\n") {
            if line.hasSuffix("OPTIONS:") || line.hasSuffix(":") && line.uppercased() == line {
                inOptions = true
                continue
            }
            guard inOptions else { continue }
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("-") {
                // "-k, --key-file <path>   The …" — the names, then maybe a value, before the help.
                let head = trimmed.split(separator: " ", omittingEmptySubsequences: true)
                current = []
                var position = 0
                while position < head.count, head[position].hasPrefix("-") {
                    let name = String(head[position].trimmingSuffix(","))
                    names.insert(name)
                    current.append(name)
                    if position + 1 < head.count, head[position + 1].hasPrefix("<") { takesValue.insert(name) }
                    position += 1
                    if position < head.count, head[position].hasPrefix("<") { position += 1 }
                }
            }
            if let choices = Self.listedValues(in: trimmed) {
                for name in current where takesValue.contains(name) { values[name] = choices }
            }
        }
    }
}

extension KnownOptions {
    /// The values an option's help line lists: "(values: a, b; default: a)" → [a, b].
    static func listedValues(in line: Substring) -> [String]? {
        let marker = "(values: "
        guard let start = line.indices.first(where: { line[$0...].hasPrefix(marker) }) else { return nil }
        let rest = line[line.index(start, offsetBy: marker.count)...]
        guard let close = rest.firstIndex(of: ")") else { return nil }
        let list = rest[..<close].split(separator: ";").first ?? ""
        return list.split(separator: ",").map { String($0.filter { $0 != " " }) }
    }
}

extension Substring {
    func trimmingSuffix(_ suffix: String) -> Substring { hasSuffix(suffix) ? dropLast(suffix.count) : self }
}

/// `--version` alone is answered before the parser reflects over every command and option (a
/// CI step's first line; the parser would print the same line).
public func answerVersionIfAsked() {
    let arguments = CommandLine.arguments.dropFirst()
    if arguments.elementsEqual(["--version"]) {
        Console.out(PushctlVersion.current)
        CurrentProcess.exit(0)
    }
    // `--version --verbose`: also the libcurl requests go through, its TLS library and HTTP/2; one
    // pushctl cannot send with is refused here as every send would refuse it (69).
    guard arguments.count == 2, Set(arguments) == ["--version", "--verbose"] else { return }
    LanguageSetting.apply()
    Console.out(PushctlVersion.current)
    let build = LibcurlCheck.current
    Console.print(LibcurlCheck.summary(build))
    guard let refusal = LibcurlCheck.refusal(build) else { CurrentProcess.exit(0) }
    Console.error(refusal.words)
    refusal.hintWords.map(Console.hint)
    CurrentProcess.exit(ExitStatus.unavailable.rawValue)
}

/// Parses and runs `root`'s command line; a word the parser did not know is reported by name, with
/// what the user meant (exit 64), instead of the parser's first complaint (which may blame a later flag).
public func runReportingParseMistakes(_ root: any ParsableCommand.Type) -> Never {
    let arguments = Array(CommandLine.arguments.dropFirst())
    var command: any ParsableCommand
    do {
        command = try parsedBySubcommand(arguments, root) ?? root.parseAsRoot(arguments)
    } catch {
        // `---completion …` is the shells' question, answered by the parser itself.
        if !(error is ValidationError), root.exitCode(for: error) == .validationFailure, arguments.first?.hasPrefix("---") != true,
            let better = Suggestions.explain(arguments, root: root)
        {
            Console.error(better)
            CurrentProcess.exit(ExitStatus.usage.rawValue)
        }
        exitReporting(error, root)
    }
    do {
        try command.run()
    } catch {
        exitReporting(error, root)
    }
    CurrentProcess.exit(0)
}

/// A command line that starts with a subcommand's name, parsed by that subcommand's own tree. From
/// the root, the parser reflects over every option of the command it finds twice more, a visible
/// share of a single push's start-up (Scripts/bench.sh measures it). Only a clean parse into
/// one of our own commands is kept: anything else (an error, a typo, or help, which the parser
/// answers with its own help command) gives nil and is parsed again from the root, so every
/// message, usage line and suggestion stays the root's.
func parsedBySubcommand(_ arguments: [String], _ root: any ParsableCommand.Type) -> (any ParsableCommand)? {
    guard let first = arguments.first,
        let subcommand = root.configuration.subcommands.first(where: { $0.configuration.commandName == first }),
        let command = try? subcommand.parseAsRoot(Array(arguments.dropFirst()))
    else { return nil }
    return declaredCommands(under: subcommand).contains(ObjectIdentifier(type(of: command))) ? command : nil
}

/// `command` and every subcommand declared under it.
private func declaredCommands(under command: any ParsableCommand.Type) -> Set<ObjectIdentifier> {
    command.configuration.subcommands.reduce(into: [ObjectIdentifier(command)]) { $0.formUnion(declaredCommands(under: $1)) }
}

/// The parser's own errors in pushctl's one style ("error: …" on stderr, then the usage), in the
/// language the user chose and wrapped to the terminal; help, --version and exit codes as the parser
/// gives them.
func exitReporting(_ error: any Error, _ root: any ParsableCommand.Type) -> Never {
    let code = root.exitCode(for: error)
    guard code != .success, !(error is ExitCode) else { root.exit(withError: error) }
    let message = root.fullMessage(for: error)
    guard message.hasPrefix("Error: ") else { root.exit(withError: error) }
    // The sentence as every error is said; the Help/Usage lines after it wrapped to the terminal too.
    let lines = ParserMessages.localized(String(message.dropFirst("Error: ".count))).split(separator: "\n", omittingEmptySubsequences: false)
    Console.error(String(lines.first ?? ""))
    lines.dropFirst().flatMap { Console.wrapped(String($0), fitting: Descriptors.standardError) }.forEach(Console.err)
    CurrentProcess.exit(code.rawValue)
}

/// `PUSHCTL_*` variables set but empty are said to be empty, not ignored silently.
public enum EnvironmentCheck {
    /// A variable of ours set but empty, and one a slip away from ours (`PUSHCTL_KEYFILE`), are
    /// ignored: each is said (the engine's `VariableCheck`).
    public static func warnAboutVariables(_ environment: EnvironmentVariables = Console.environment) {
        VariableCheck.warnings(environment).forEach(Console.warn)
    }
}

/// The settings the libraries' messages point at, named as pushctl spells them: the naming the
/// executables' console says words with.
public enum FlagNames {
    static let table: [Setting: String] = [
        .topic: "--topic", .pushType: "--push-type", .priority: "--priority", .expiration: "--expiration",
        .requestID: "--request-id", .deviceToken: "--device-token", .title: "--title", .body: "--body",
        .custom: "--custom", .liveActivity: "--live-activity", .noLint: "--no-lint", .storage: "--storage",
        .journal: "--journal", .resume: "--resume", .showSecrets: "--show-secrets", .requestsFile: "--requests-file",
        .mockCA: "the file `pushctl mock --ca-out` writes",
        .mockPort: "--port", .webViewPort: "--web", .caPort: "--ca-port", .mockFailure: "--fail",
        .mockKeyFolder: "--key-dir", .mockClientCA: "--client-ca", .mockCAOut: "--ca-out",
        .keyFile: "--key-file", .keyID: "--key-id", .teamID: "--team-id", .jwt: "--jwt", .noJWTCache: "--no-jwt-cache",
        .certificate: "--cert", .certificateKey: "--cert-key", .certificatePassword: "--cert-password-file",
        .environment: "--sandbox/--production", .endpoint: "--endpoint", .port: "--port", .caCertificate: "--cacert",
        .proxy: "--proxy", .proxyCredentials: "--proxy-user-file", .cacheDirectory: "PUSHCTL_CACHE_DIR", .language: "--lang",
        .key: "PUSHCTL_KEY", .signer: "--signer", .publicKey: "--public-key", .pkcs11Module: "PUSHCTL_PKCS11_MODULE", .cacheKey: "PUSHCTL_CACHE_KEY",
        .tokensFile: "--tokens-file", .payload: "--payload", .payloadJSON: "--payload-json", .apnsID: "--apns-id", .app: "--app",
        .production: "--production", .verbose: "--verbose", .simulator: "--simulator", .mockCAOutput: "pushctl mock --ca-out",
        .shard: "--shard",
        .timestamp: "--timestamp", .staleDate: "--stale-date", .dismissalDate: "--dismissal-date", .relevanceScore: "--relevance-score",
        .contentState: "--content-state", .attributes: "--attributes", .inputPushChannel: "--input-push-channel", .channelID: "--channel-id",
        .dryRun: "--dry-run", .simulatorFile: "--simulator-file", .outputFolder: "--out", .unregisteredOut: "--unregistered-out", .retryOut: "--retry-out",
        .sandbox: "--sandbox", .skipInDoubt: "--skip-in-doubt", .metricsFile: "--metrics-file", .metricsPush: "--metrics-push",
        .detectEnvironment: "--detect-environment", .connectTo: "--connect-to", .concurrency: "--concurrency", .connections: "--connections",
        .retries: "--retries", .timeout: "--timeout", .collapseID: "--collapse-id", .sound: "--sound",
        .noCollapseID: "--no-collapse-id", .rate: "--rate", .spread: "--spread", .follow: "--follow",
    ]

    /// pushctl's flags, for words said to its user.
    public static let naming = SettingNaming(table)
}
