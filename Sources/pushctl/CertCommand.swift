import ArgumentParser
import PushCore
import PushEngine
import PushFiles
import PushWords
import PushctlCommandLine

struct CertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cert",
        abstract: "Inspect APNs certificates (.p12, PEM, .cer), or make test ones.",
        subcommands: [Inspect.self, Generate.self]
    )

    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "inspect",
            abstract: "Show what a push certificate covers: bundle id, topics, environments, validity.",
            usage: """
                pushctl cert inspect <path> [--cert-password-file <path>]
                       [--expires-within <days>] [--output text|json]
                """,
            discussion: """
                Reads a .p12/.pfx (with its password), a PEM certificate (with or without its
                key) or the DER .cer Apple's portal downloads.

                Examples:
                  pushctl cert inspect push.p12 --cert-password-file pw.txt
                  pushctl cert inspect aps_development.cer --output json

                  # in CI: fail a month before the certificate expires
                  pushctl cert inspect push.p12 --expires-within 30

                Exit status: 0, or 1 with --expires-within when it expires within
                that many days (or has expired); 65 unreadable, 66 missing file.
                """)

        @Argument(help: ArgumentHelp("The certificate file.", valueName: "path"), completion: .file(extensions: ["p12", "pfx", "pem", "crt", "cer"]))
        var path: String

        @Option(
            help: ArgumentHelp("A file holding the .p12's password (env PUSHCTL_CERT_PASSWORD; asked on a terminal otherwise).", valueName: "path"),
            completion: .file())
        var certPasswordFile: String?

        @Option(help: ArgumentHelp("Exit 1 when the certificate expires within this many days (or has expired).", valueName: "days"))
        var expiresWithin: Int?

        @Option(help: "text or json.")
        var output: TokenOutputFormat = .text
        @OptionGroup var language: LanguageOption

        func validate() throws {
            if let expiresWithin, !(0...36_500).contains(expiresWithin) {
                throw ValidationError(
                    Words(
                        "--expires-within must be between 0 and 36500 days; got \(expiresWithin)",
                        es: "--expires-within debe estar entre 0 y 36500 días; se recibió \(expiresWithin)"))
            }
        }

        func run() throws {
            try reportingErrors {
                var flags: [Setting: String] = [:]
                flags[.certificatePassword] = certPasswordFile
                let inspection = try CertificateInspection.read(path, values: .command(flags), askPassword: CertificateOptions.askPassword)
                let (certificate, now) = (inspection.certificate, WallClock.now())
                let days = certificate.daysLeft(now: now)
                let expiring = expiresWithin.map { days < Int64($0) || certificate.validity(now: now) == .expired } ?? false
                switch output {
                case .json:
                    Console.out(inspection.json(now: now, expiring: expiresWithin == nil ? nil : expiring).pretty)
                case .text:
                    inspection.text(now: now, language: LanguageSetting.language, naming: FlagNames.naming).forEach(Console.out)
                }
                if expiring, let expiresWithin {
                    Console.say(
                        certificate.validity(now: now) == .expired
                            ? Words(
                                "the certificate has expired: renew it in your Apple Developer account",
                                es: "el certificado ha caducado: renuévalo en tu cuenta de Apple Developer")
                            : Words(
                                "the certificate expires within \(expiresWithin) days (\(days) left): renew it in your Apple Developer account",
                                es: "el certificado caduca en menos de \(expiresWithin) días (quedan \(days)): renuévalo en tu cuenta de Apple Developer"))
                    throw ExitCode(1)
                }
            }
        }
    }

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Write a test CA and a client certificate shaped like Apple's push certificates. Not Apple's.",
            usage: """
                pushctl cert generate --topic <bundle-id> [--topic <topic> ...]
                       [--environment development|production|both] [--days <days>]
                       [--valid-from-days <days>] [--password-file <path>] [--out <dir>]
                """,
            discussion: """
                For `pushctl mock --client-ca`, tests and class: APNs refuses these. Writes, in
                --out (default: the current directory):
                  pushctl-test-ca.pem        the CA (give it to pushctl mock --client-ca)
                  BUNDLE.p12                 certificate, key and CA, with a password
                  BUNDLE.password            that password (mode 0600)
                  BUNDLE.pem, BUNDLE.key.pem the same as PEM (the key mode 0600)
                The first --topic is the bundle id (the subject's UID); push-type topics
                (BUNDLE.voip, BUNDLE.complication, …) may follow.

                Examples:
                  pushctl cert generate --topic com.example.app
                  pushctl cert generate --topic com.example.app \\
                    --topic com.example.app.voip --environment development --out certs/
                """)

        @Option(
            name: .customLong("topic"),
            help: ArgumentHelp("A topic the certificate covers; the first is the bundle id. Repeatable (env PUSHCTL_TOPIC).", valueName: "topic"))
        var topics: [String] = []

        @Option(help: "Which environments it serves: development (sandbox), production, or both (as Apple's current certificates).")
        var environment: TestMaterials.Environments = .both

        @Option(help: ArgumentHelp("Days it stays valid (Apple's: about 395).", valueName: "days"))
        var days: Int = 365

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Days from now until it becomes valid; negative for a start in the past (with a short --days, an expired certificate for tests).",
                valueName: "days"))
        var validFromDays: Int = 0

        @Option(
            help: ArgumentHelp("A file holding the password for the .p12 (default: a random one, written to BUNDLE.password).", valueName: "path"),
            completion: .file())
        var passwordFile: String?

        @Option(help: ArgumentHelp("The directory to write to (default: the current directory).", valueName: "dir"), completion: .directory)
        var out: String?
        @OptionGroup var language: LanguageOption

        func validate() throws {
            if !(1...3650).contains(days) {
                throw ValidationError(Words("--days must be between 1 and 3650; got \(days)", es: "--days debe estar entre 1 y 3650; se recibió \(days)"))
            }
            if !(-3650...3650).contains(validFromDays) {
                throw ValidationError(
                    Words(
                        "--valid-from-days must be between -3650 and 3650; got \(validFromDays)",
                        es: "--valid-from-days debe estar entre -3650 y 3650; se recibió \(validFromDays)"))
            }
        }

        func run() throws {
            try reportingErrors {
                let env = Console.environment
                let names = topics.isEmpty ? (env["PUSHCTL_TOPIC"].nonEmpty.map { [$0] } ?? []) : topics
                let password = try passwordFile.map { file throws(InputError) in
                    try CertificateCredential.password(SettingValues(flags: [.certificatePassword: file], environment: [:], naming: FlagNames.naming)) ?? ""
                }
                let made = try TestMaterials.writeCertificates(
                    topics: names, environments: environment, validFromDays: validFromDays, days: days,
                    password: password, out: out, naming: FlagNames.naming)
                let (bundleID, base, directory) = (names[0], made.base, made.directory)
                made.paths.forEach(Console.out)
                let commands = """
                      pushctl mock --client-ca \(directory)pushctl-test-ca.pem --ca-out mock-ca.pem
                      pushctl send --endpoint URL --cacert mock-ca.pem --cert \(base).p12 \\
                        --cert-password-file \(passwordFile ?? base + ".password") --device-token 00ff --title Hi
                    """
                let environments = made.certificate.environmentsDescription
                Console.say(
                    Words(
                        "wrote a test CA and a certificate for \(bundleID) (\(environments), \(days) days). These are NOT Apple's: APNs refuses them. Try them against the mock:",
                        es:
                            "creados una CA de prueba y un certificado para \(bundleID) (\(environments), \(days) días). NO son de Apple: APNs los rechaza. Pruébalos con el mock:"
                    ))
                Console.err(commands)
            }
        }
    }
}
