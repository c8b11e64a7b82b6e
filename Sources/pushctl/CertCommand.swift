import ArgumentParser
import PushctlSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PushSystem
import PushCore
import PushWords
import PushFiles
import PushEngine
import PushCrypto

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

        @Option(help: ArgumentHelp("A file holding the .p12's password (env PUSHCTL_CERT_PASSWORD; asked on a terminal otherwise).", valueName: "path"), completion: .file())
        var certPasswordFile: String?

        @Option(help: ArgumentHelp("Exit 1 when the certificate expires within this many days (or has expired).", valueName: "days"))
        var expiresWithin: Int?

        @Option(help: "text or json.")
        var output: TokenOutputFormat = .text
        @OptionGroup var language: LanguageOption

        func validate() throws {
            if let expiresWithin, !(0...36_500).contains(expiresWithin) {
                throw ValidationError(Words("--expires-within must be between 0 and 36500 days; got \(expiresWithin)", es: "--expires-within debe estar entre 0 y 36500 días; se recibió \(expiresWithin)"))
            }
        }

        func run() throws {
            try reportingErrors {
                let bytes = try InputFiles.read(path, what: "certificate file")
                var flags: [Setting: String] = [:]
                flags[.certificatePassword] = certPasswordFile
                var password = try CertificateCredential.password(.command(flags))
                if password == nil, CertificateFile.needsPassword(bytes) { password = CertificateOptions.askPassword(for: path) }
                let (certificate, hasKey) = try CertificateFile.inspect(bytes, source: path, password: password, names: CertificateCredential.inputNames)
                let now = WallClock.now()
                let days = certificate.daysLeft(now: now)
                let expiring = expiresWithin.map { days < Int64($0) || certificate.validity(now: now) == .expired } ?? false
                switch output {
                case .json:
                    Console.out(CertCommand.json(certificate, path: path, hasKey: hasKey, now: now, expiring: expiresWithin == nil ? nil : expiring).pretty)
                case .text:
                    CertCommand.text(certificate, path: path, hasKey: hasKey, now: now).forEach(Console.out)
                }
                if expiring, let expiresWithin {
                    Console.err(certificate.validity(now: now) == .expired
                        ? "the certificate has expired: renew it in your Apple Developer account"
                        : "the certificate expires within \(expiresWithin) days (\(days) left): renew it in your Apple Developer account")
                    throw ExitCode(1)
                }
            }
        }
    }

    static func text(_ c: ProviderCertificate, path: String, hasKey: Bool, now: Int64) -> [String] {
        func show(_ text: String) -> String { OutsideText.display(text, limit: 300) }
        /// A row: its label in a 14-column field, in this process's language.
        func row(_ english: String, _ spanish: String, _ value: String) -> String {
            let label = Words(english, es: spanish).description
            return label + String(repeating: " ", count: max(1, 14 - label.count)) + value
        }
        let content = hasKey ? Words(" (certificate and private key)", es: " (certificado y clave privada)") : Words(" (certificate only)", es: " (solo el certificado)")
        var lines = [row("file", "archivo", show(path) + content.description), row("subject", "sujeto", show(c.subject))]
        lines.append(row("bundle id", "bundle id", c.uid.map(show) ?? Words("(none: no UID in the subject; not an APNs certificate?)",
                                                                              es: "(ninguno: el sujeto no tiene UID; ¿no es un certificado de APNs?)").description))
        let topics = c.topics.isEmpty
            ? [c.uid.map { show($0) + Words(" (from the UID; no topics extension)", es: " (del UID; sin extensión de topics)").description }
                ?? Words("(none)", es: "(ninguno)").description]
            : c.topics.map { "\(show($0.name))\($0.kinds.isEmpty ? "" : " (\($0.kinds.map(show).joined(separator: ", ")))")" }
        for (index, topic) in topics.enumerated() { lines.append(index == 0 ? row("topics", "topics", topic) : String(repeating: " ", count: 14) + topic) }
        lines.append(row("environments", "entornos", c.environments.description))
        lines.append(row("issuer", "emisor", show(c.issuer)))
        lines.append(row("serial", "nº de serie", c.serialHex))
        let state: Words
        switch c.validity(now: now) {
        case .expired: state = Words("EXPIRED", es: "CADUCADO")
        case .notYetValid: state = Words("NOT YET VALID", es: "AÚN NO ES VÁLIDO")
        case let .expiresSoon(days): state = Words("\(days) days left: renew soon", es: "quedan \(days) días: renuévalo pronto")
        case .valid: state = Words("\(c.daysLeft(now: now)) days left", es: "quedan \(c.daysLeft(now: now)) días")
        }
        lines.append(row("valid from", "válido desde", UTCDate.format(unixSeconds: c.notBefore)))
        lines.append(row("valid to", "válido hasta", "\(UTCDate.format(unixSeconds: c.notAfter)) (\(state))"))
        lines.append(row("sha-256", "sha-256", c.fingerprint))
        return lines
    }

    static func json(_ c: ProviderCertificate, path: String, hasKey: Bool, now: Int64, expiring: Bool?) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("file", .string(OutsideText.display(path, limit: 1000))),
            ("subject", .string(c.subject)),
            ("bundleId", c.uid.map(JSONValue.string) ?? .null),
            ("topics", .array(c.allowedTopics.map { name in
                .object([("topic", .string(name)),
                         ("kinds", .array((c.topics.first { $0.name == name }?.kinds ?? []).map(JSONValue.string)))])
            })),
            ("environments", .array((c.development ? ["development"] : []).map(JSONValue.string) + (c.production ? [.string("production")] : []))),
            ("issuer", .string(c.issuer)),
            ("serial", .string(c.serialHex)),
            ("notBefore", .string(UTCDate.format(unixSeconds: c.notBefore))),
            ("notAfter", .string(UTCDate.format(unixSeconds: c.notAfter))),
            ("notBeforeUnix", .integer(c.notBefore)),
            ("notAfterUnix", .integer(c.notAfter)),
            ("daysLeft", .integer(c.daysLeft(now: now))),
            ("privateKey", .bool(hasKey)),
            ("sha256", .string(c.fingerprint)),
        ]
        if let expiring { members.append(("expiresWithin", .bool(expiring))) }
        return .object(members)
    }

    enum EnvironmentChoice: String, ExpressibleByArgument, CaseIterable {
        case development, production, both
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

        @Option(name: .customLong("topic"), help: ArgumentHelp("A topic the certificate covers; the first is the bundle id. Repeatable (env PUSHCTL_TOPIC).", valueName: "topic"))
        var topics: [String] = []

        @Option(help: "Which environments it serves: development (sandbox), production, or both (as Apple's current certificates).")
        var environment: EnvironmentChoice = .both

        @Option(help: ArgumentHelp("Days it stays valid (Apple's: about 395).", valueName: "days"))
        var days: Int = 365

        @Option(parsing: .unconditional, help: ArgumentHelp("Days from now until it becomes valid; negative for a start in the past (with a short --days, an expired certificate for tests).", valueName: "days"))
        var validFromDays: Int = 0

        @Option(help: ArgumentHelp("A file holding the password for the .p12 (default: a random one, written to BUNDLE.password).", valueName: "path"), completion: .file())
        var passwordFile: String?

        @Option(help: ArgumentHelp("The directory to write to (default: the current directory).", valueName: "dir"), completion: .directory)
        var out: String?
        @OptionGroup var language: LanguageOption

        func validate() throws {
            if !(1...3650).contains(days) { throw ValidationError(Words("--days must be between 1 and 3650; got \(days)", es: "--days debe estar entre 1 y 3650; se recibió \(days)")) }
            if !(-3650...3650).contains(validFromDays) { throw ValidationError(Words("--valid-from-days must be between -3650 and 3650; got \(validFromDays)", es: "--valid-from-days debe estar entre -3650 y 3650; se recibió \(validFromDays)")) }
        }

        func run() throws {
            try reportingErrors {
                let env = Console.environment
                let names = topics.isEmpty ? (env["PUSHCTL_TOPIC"].nonEmpty.map { [$0] } ?? []) : topics
                guard let bundleID = names.first else {
                    throw InputError(Words("missing --topic: the bundle id the certificate is for, e.g. com.example.app", es: "falta --topic: el bundle id para el que es el certificado, p. ej. com.example.app"), kind: .usage)
                }
                for name in names {
                    try HeaderValue.check(name, name: "--topic", limit: PushTemplate.topicLimit)
                    guard !name.isEmpty, !name.contains("/"), name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                        throw InputError(Words("--topic '\(OutsideText.display(name))' is not a bundle id or topic (letters, digits, dots and hyphens)", es: "--topic '\(OutsideText.display(name))' no es un bundle id ni un topic (letras, dígitos, puntos y guiones)"), kind: .usage)
                    }
                }
                let topics = names.map { name in
                    ProviderCertificate.Topic(name: name, kinds: [CertCommand.kind(of: name, bundleID: bundleID)])
                }
                let password: String
                if let passwordFile {
                    password = try CertificateCredential.password(SettingValues(flags: [.certificatePassword: passwordFile], environment: [:])) ?? ""
                } else {
                    var generator = SystemRandomNumberGenerator()
                    let alphabet = Array("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
                    password = String((0..<20).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
                }
                let made = try TestCertificates.make(
                    topics: topics, development: environment != .production, production: environment != .development,
                    validFrom: validFromDays * 86_400, validity: days * 86_400, password: password)
                if let out { try OutputFolder.make(out) }
                let directory = out.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? ""
                let base = directory + bundleID
                var written: [String] = []
                func write(_ bytes: [UInt8], _ path: String, mode: UInt16) throws(InputError) {
                    try CertCommand.writeNew(bytes, to: path, mode: mode)
                    written.append(path)
                }
                try write(made.caPEM, directory + "pushctl-test-ca.pem", mode: 0o644)
                try write(made.pkcs12, base + ".p12", mode: 0o600)
                if passwordFile == nil { try write(Array((password + "\n").utf8), base + ".password", mode: 0o600) }
                try write(made.certificatePEM, base + ".pem", mode: 0o644)
                try write(made.privateKeyPEM, base + ".key.pem", mode: 0o600)
                written.forEach(Console.out)
                Console.err("""
                    wrote a test CA and a certificate for \(bundleID) (\(made.certificate.environmentsDescription), \(days) days). \
                    These are NOT Apple's: APNs refuses them. Try them against the mock:
                      pushctl mock --client-ca \(directory)pushctl-test-ca.pem --ca-out mock-ca.pem
                      pushctl send --endpoint URL --cacert mock-ca.pem --cert \(base).p12 \\
                        --cert-password-file \(passwordFile ?? base + ".password") --device-token 00ff --title Hi
                    """)
            }
        }
    }

    /// Apple's word for a topic in the topics extension: `app` for the bundle id, else the
    /// push type whose suffix it carries.
    static func kind(of topic: String, bundleID: String) -> String {
        if topic == bundleID { return "app" }
        let type = PushType.allCases.first { $0.topicSuffix.map { topic == bundleID + $0 } ?? false }
        return type?.rawValue ?? "app"
    }

    /// Creates a new file with this mode from the start; never replaces one.
    static func writeNew(_ bytes: [UInt8], to path: String, mode: UInt16) throws(InputError) {
        guard let code = FileOutput.writeNew(bytes, to: path, mode: mode) else { return }
        let reason = code == Errno.exists ? Words("it already exists (pushctl never overwrites it)", es: "ya existe (pushctl nunca lo sobrescribe)") : SystemError.reason(code)
        throw InputError(Words("cannot write '\(OutsideText.display(path))': \(reason.en)", es: "no se puede escribir '\(OutsideText.display(path))': \(reason.es)"),
                         hint: code == Errno.exists ? Words("choose another --out directory", es: "elige otra carpeta para --out") : nil, kind: .cannotCreateOutput)
    }
}
