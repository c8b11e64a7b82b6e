import ArgumentParser
import PushCore
import PushEngine
import PushFiles
import PushSystem
import PushWords
import PushctlCommandLine

enum TokenOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

struct JWTCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jwt",
        abstract: "Sign an APNs provider token (ES256 JWT) with a .p8 key, or decode and verify one.",
        discussion: """
            `pushctl jwt [options]` is `pushctl jwt sign [options]`; see `pushctl jwt sign --help`.

            Examples:
              pushctl jwt --key-file AuthKey_ABC123DEFG.p8 --team-id DEF123GHIJ
              JWT=$(pushctl jwt --key-file AuthKey_ABC123DEFG.p8 --team-id DEF123GHIJ)
              pushctl jwt decode "$JWT"
              pushctl jwt verify "$JWT" --key-file AuthKey_ABC123DEFG.p8
            """,
        subcommands: [Sign.self, Decode.self, Verify.self],
        defaultSubcommand: Sign.self
    )
}

struct Sign: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign an APNs provider token (ES256 JWT) with a .p8 key (the default of `pushctl jwt`).",
        usage: """
            pushctl jwt [sign] [--key-file <path>] [--key-id <id>] [--team-id <id>]
              [--issued-at <unix>] [--explain] [--cached] [--output text|json]
            """,
        discussion: """
            Prints one line, the token, ready for `authorization: bearer <token>`.

            Examples:
              pushctl jwt --key-file AuthKey_ABC123DEFG.p8 --team-id DEF123GHIJ
              pushctl jwt --key-file AuthKey_ABC123DEFG.p8 --team-id DEF123GHIJ --explain
              pushctl jwt --cached > /dev/null   # fill the JWT cache for later jobs
              export PUSHCTL_KEY_FILE=AuthKey_ABC123DEFG.p8 PUSHCTL_TEAM_ID=DEF123GHIJ
              pushctl jwt --output json
            """
    )

    @OptionGroup var auth: AuthOptions

    @Option(help: ArgumentHelp("The iat claim, UNIX seconds (default: now).", valueName: "unix"))
    var issuedAt: Int64?

    @Flag(help: "Show every step of signing, one short sentence each (for class), on stderr; the token alone goes to stdout.")
    var explain = false

    @Flag(help: "The token send would use: from the JWT cache while it may be reused (up to 50 minutes), else signed now and cached.")
    var cached = false

    @Option(help: "text (the token, one line) or json (header, claims and token).")
    var output: TokenOutputFormat = .text
    @OptionGroup var language: LanguageOption

    func validate() throws {
        if let issuedAt, issuedAt < 0 {
            throw ValidationError(Words("--issued-at must be UNIX seconds, 0 or more", es: "--issued-at debe ir en segundos UNIX, 0 o más"))
        }
        if explain && output == .json {
            throw ValidationError(
                Words("--explain prints text for people; leave out --output json", es: "--explain imprime texto para personas; quita --output json"))
        }
        if cached && (explain || issuedAt != nil || output == .json) {
            throw ValidationError(
                Words(
                    "--cached prints the token send would use; leave out --explain, --issued-at and --output json",
                    es: "--cached imprime el token que usaría send; quita --explain, --issued-at y --output json"))
        }
    }

    func run() throws {
        try reportingErrors {
            let values = SettingValues.command(self.auth.settings)
            var options = CredentialOptions()
            options.askPIN = AuthOptions.askPIN
            options.warn = { Console.warn($0) }
            if cached {
                // Through the cache, as send signs: a cached token still good is printed with no key work.
                let credentials = try Credentials.resolve(values, options)
                Console.out(String(try credentials.authorization.authorization()?.dropFirst("bearer ".count) ?? ""))
                return
            }
            let auth = try SigningKey.identity(values)
            if let mismatch = auth.mismatch { Console.warn(mismatch.warning) }
            let key = try SigningKey.signingKey(values, auth, options)
            let unsigned = UnsignedProviderToken(
                keyID: auth.keyID, teamID: auth.teamID, issuedAt: issuedAt ?? WallClock.now())
            let token = try unsigned.signed(by: key)
            switch (output, explain) {
            case (.json, _):
                let document = JSONValue.object([
                    ("header", unsigned.header), ("claims", unsigned.claims), ("token", .string(token.compact)),
                ])
                Console.out(document.pretty)
            case (.text, true):
                // The lesson goes to stderr and the token alone to stdout, so that
                // `JWT=$(pushctl jwt --explain …)` shows the class every step and still keeps the token.
                // Wrapped to the terminal, as the demo is: a projector's is often 60 columns.
                ProviderTokenExplanation(token: token, keyFile: auth.keyFile).lines.dropLast()
                    .flatMap { Console.wrapped($0, fitting: Descriptors.standardError) }.forEach(Console.err)
                Console.out(token.compact)
            case (.text, false):
                Console.out(token.compact)
            }
        }
    }
}

extension JWTCommand {
    /// Reads a token from the argument, or standard input for `-`.
    static func readToken(_ argument: String) throws(InputError) -> DecodedJWT {
        let text = argument == "-" ? String(decoding: try InputFiles.read("-", what: .token), as: UTF8.self) : argument
        return try DecodedJWT(parsing: text)
    }

    static var now: Int64 { WallClock.now() }

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decode",
            abstract: "Show a JWT's header and claims, its age and its signature's form. No key needed.",
            discussion: """
                Examples:
                  pushctl jwt decode eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJ…
                  pushctl jwt --key-file AuthKey_ABC123DEFG.p8 --team-id DEF123GHIJ \\
                    | pushctl jwt decode -
                """)

        @Argument(help: ArgumentHelp("The token, or - to read it from standard input.", valueName: "token"))
        var token: String
        @OptionGroup var language: LanguageOption

        func run() throws {
            try reportingErrors {
                try JWTCommand.readToken(token).lines(now: JWTCommand.now, language: LanguageSetting.language, naming: FlagNames.naming).forEach(Console.out)
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check a JWT's signature with a key, then APNs' rules for provider tokens.",
            usage: "pushctl jwt verify <token> --key-file <path> [--key-id <id>] [<options>]",
            discussion: """
                Accepts raw r‖s (standard JOSE) and DER signatures (what `openssl dgst -sign` makes).
                Exits 0 when the signature is valid and every APNs check passes, 1 otherwise.

                The key's id comes from --key-id, else from a file named AuthKey_<KEYID>.p8;
                when the token's kid differs, verify says which ids and what to do.

                Examples:
                  pushctl jwt verify "$JWT" --key-file AuthKey_ABC123DEFG.p8
                  pushctl jwt verify - --key-file public.pem < token.txt
                  pushctl jwt verify "$JWT" --key-file public.pem --key-id ABC123DEFG
                """)

        @Argument(help: ArgumentHelp("The token, or - to read it from standard input.", valueName: "token"))
        var token: String

        @Option(
            help: ArgumentHelp("The .p8 private key, or a PEM public key (env PUSHCTL_KEY_FILE).", valueName: "path"),
            completion: .file(extensions: ["p8", "pem"]))
        var keyFile: String?

        @Option(
            help: ArgumentHelp(
                "The key's 10-character Key ID, to compare with the token's kid (env PUSHCTL_KEY_ID; default: the <ID> in AuthKey_<ID>.p8).", valueName: "id"))
        var keyId: String?
        @OptionGroup var language: LanguageOption

        func run() throws {
            try reportingErrors {
                guard let path = keyFile ?? Console.environment["PUSHCTL_KEY_FILE"].nonEmpty else {
                    throw InputError(
                        Words(
                            "missing --key-file (or PUSHCTL_KEY_FILE): the .p8 key or PEM public key to check the signature with",
                            es: "falta --key-file (o PUSHCTL_KEY_FILE): la clave .p8 o la clave pública PEM con la que comprobar la firma"), kind: .usage)
                }
                let jwt = try JWTCommand.readToken(token)
                let v = try TokenVerification(
                    jwt, keyPath: path, keyID: keyId ?? Console.environment["PUSHCTL_KEY_ID"].nonEmpty,
                    keyIDFromEnvironment: keyId == nil, now: JWTCommand.now)
                let marks: [ProviderTokenCheck.Outcome: String] = [
                    .pass: Console.paint("✓", .green), .warning: Console.paint("!", .yellow), .failure: Console.paint("✗", .red),
                ]
                v.lines(marks: marks, language: LanguageSetting.language, naming: FlagNames.naming) { Console.paint($0, $1 ? .green : .red) }.forEach(
                    Console.out)
                if !(v.valid && v.checksPass) { throw ExitCode(ExitStatus.rejected.rawValue) }
            }
        }
    }
}
