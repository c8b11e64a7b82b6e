public import PushCore
public import PushCrypto
import PushFiles
import PushSystem
import PushWords

/// `--signer COMMAND` (or `PUSHCTL_SIGNER`): a command that signs the provider token with a key
/// pushctl never sees (AWS KMS, Google Cloud KMS, Vault transit, an HSM's tool). It is run with
/// `/bin/sh -c`, gets the JWT's signing input (`header.claims`, no newline) on its standard input,
/// and prints one ES256 signature (`SignerOutput`: DER or raw r‖s, bytes or base64, Vault's
/// `vault:v1:` prefix). Its environment is an allow list (`environment(from:)`): what a KMS, Vault
/// or HSM client needs, and no `PUSHCTL_*` variable that holds a secret.
///
/// It runs in a process group of its own, at most `timeLimit` seconds from its start to its
/// group's end whatever it does with its streams (then the group is killed), and at most
/// `outputLimit` bytes of each of its outputs are read. A stop signal while it runs kills its
/// group at once. A shell that exits while a job it put in the background still holds its output
/// is not waited for: what it printed is used, and the job is killed. A signer that cannot start:
/// 66; one that runs out of time: 75 (worth another try); one that fails, prints no signature, or
/// one that does not verify: 65. Nothing is sent in any of those cases.
public struct ExternalSigner: ES256Signing {
    public let command: String
    /// Checks each signature before it is used, when the key's public half is known.
    public let publicKey: ES256PublicKey?

    /// A KMS call is a few hundred milliseconds; a CLI that starts Python or Java, a few seconds.
    public static let timeLimit = 30.0
    public static let outputLimit = 64 * 1024
    /// How much of what the signer said on standard error a message shows.
    static let shownLimit = 300

    /// This signer's limit: `timeLimit` unless a test asks for less.
    let seconds: Double

    public init(command: String, publicKey: ES256PublicKey?) {
        self.init(command: command, publicKey: publicKey, seconds: Self.timeLimit)
    }

    init(command: String, publicKey: ES256PublicKey?, seconds: Double) {
        self.command = command
        self.publicKey = publicKey
        self.seconds = seconds
    }

    /// The variables a signer gets, by name (an allow list, not pushctl's whole environment):
    /// - PATH, HOME, USER, LOGNAME, SHELL, TMPDIR, TZ, LANG, LANGUAGE, LC_*, the XDG_* folders: what any
    ///   command run by `sh -c` expects;
    /// - AWS_*, VAULT_*, GOOGLE_*, CLOUDSDK_*, AZURE_*, and GitHub's ACTIONS_ID_TOKEN_REQUEST_* (OIDC):
    ///   the credentials and settings of the KMS, Vault and cloud clients a signer runs, which are
    ///   the signer's to have;
    /// - the proxy and CA variables those clients honour (HTTPS_PROXY, NO_PROXY…, SSL_CERT_FILE,
    ///   SSL_CERT_DIR, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE), and SOFTHSM2_CONF for an HSM's tool;
    /// - PUSHCTL_KEY_ID and PUSHCTL_TEAM_ID, which name the key without being secret.
    /// Nothing else: no other `PUSHCTL_*` (PUSHCTL_KEY, PUSHCTL_CACHE_KEY, PUSHCTL_JWT,
    /// PUSHCTL_CERT_PASSWORD, PUSHCTL_PROXY hold secrets meant for pushctl alone), and no variable a
    /// CI job set for its other steps.
    static func environment(from entries: [String]) -> [String] {
        entries.filter { entry in
            guard let equals = entry.firstIndex(of: "=") else { return false }
            let name = entry[..<equals]
            return allowedNames.contains(String(name)) || allowedPrefixes.contains { name.hasPrefix($0) }
        }
    }

    static let allowedNames: Set<String> = [
        "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "TZ", "LANG", "LANGUAGE",
        "HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy",
        "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "SOFTHSM2_CONF",
        "PUSHCTL_KEY_ID", "PUSHCTL_TEAM_ID",
    ]
    /// The variable the signer's shell reads its command from.
    static let commandVariable = "PUSHCTL_SIGNER"

    static let allowedPrefixes = ["LC_", "XDG_", "AWS_", "VAULT_", "GOOGLE_", "CLOUDSDK_", "AZURE_", "ACTIONS_ID_TOKEN_REQUEST_"]

    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        let run = try started(message)
        try checkEnding(run)
        let signature = try signature(run)
        if let publicKey, !publicKey.isValidSignature(signature, for: message) {
            throw InputError(
                Words(
                    "the signer's signature does not verify with the public key given: it signs with another key, or over other bytes than its standard input",
                    es: "la firma del firmante no se verifica con la clave pública dada: firma con otra clave, o sobre otros bytes que su entrada estándar"),
                hint: Words(
                    "sign the bytes of standard input with SHA-256 (ECDSA_SHA_256 over the message, not over a digest of it), with the key whose public half is given",
                    es:
                        "firma los bytes de la entrada estándar con SHA-256 (ECDSA_SHA_256 sobre el mensaje, no sobre un resumen suyo), con la clave cuya mitad pública se da"
                ))
        }
        return signature
    }

    /// The signer run to its end (or its limit, or a stop), `message` on its standard input.
    private func started(_ message: [UInt8]) throws(InputError) -> ChildRun {
        // The command goes through the signer's own environment, which only its user can read, not
        // its arguments, which every user of the machine can (ps, /proc/PID/cmdline): it may hold a
        // token. `eval` runs it as `sh -c` would.
        var spec = ChildSpec("/bin/sh", ["-c", "eval \"$\(Self.commandVariable)\""])
        spec.ownProcessGroup = true
        spec.environment = Self.environment(from: ProcessEnvironment.entries()) + ["\(Self.commandVariable)=\(command)"]
        switch ChildProcesses.run(spec, input: message, limit: Self.outputLimit, seconds: seconds, stopDescriptor: StopSignals.wakeDescriptor) {
        case .success(let finished): return finished
        case .failure(let failure):
            let reason = SystemError.reason(failure.code)
            throw InputError(
                Words("the signer could not be started: \(reason.en)", es: "no se pudo iniciar el firmante: \(reason.es)"),
                hint: hint, kind: .missingInput)
        }
    }

    /// Refuses a signer that was stopped, ran out of time, could not run, failed or was killed.
    private func checkEnding(_ run: ChildRun) throws(InputError) {
        let said = Self.said(run.errors)
        if run.stopped {
            throw InputError(
                Words("the signer was stopped by a stop signal", es: "el firmante se detuvo por una señal de parada"), kind: .temporaryFailure)
        }
        if run.timedOut {
            throw InputError(
                Words(
                    "the signer did not answer within \(Int(seconds)) s and was stopped\(said.en)",
                    es: "el firmante no respondió en \(Int(seconds)) s y se detuvo\(said.es)"),
                hint: Words(
                    "check that it reads the message from standard input and asks nobody anything (no prompt, no MFA)",
                    es: "comprueba que lee el mensaje de la entrada estándar y no pregunta nada a nadie (sin preguntas ni MFA)"),
                kind: .temporaryFailure)
        }
        switch run.end {
        case .exited(0):
            return
        case .exited(126), .exited(127):
            throw InputError(
                Words(
                    "the signer could not be run (the shell said \(run.end.status): command not found or not executable)\(said.en)",
                    es: "no se pudo ejecutar el firmante (el shell dijo \(run.end.status): orden no encontrada o no ejecutable)\(said.es)"),
                hint: hint, kind: .missingInput)
        case .exited(let code):
            throw InputError(
                Words("the signer failed (exit status \(code))\(said.en)", es: "el firmante falló (estado de salida \(code))\(said.es)"), hint: hint)
        case .signalled(let number):
            throw InputError(
                Words("the signer was killed by signal \(number)\(said.en)", es: "el firmante terminó por la señal \(number)\(said.es)"), hint: hint)
        }
    }

    /// The signature the signer printed, or why what it printed is none.
    private func signature(_ run: ChildRun) throws(InputError) -> [UInt8] {
        let said = Self.said(run.errors)
        // Its shell exited while a job it left in the background held its output: said, so a
        // signer without a signature is not blamed for the wrong thing.
        let leftBehind =
            run.leftBehind
            ? Words(
                " (its shell exited while a process it started in the background still held its output; that process was stopped)",
                es: " (su shell terminó mientras un proceso que dejó en segundo plano aún tenía su salida; ese proceso se detuvo)")
            : Words(verbatim: "")
        switch SignerOutput.signature(run.output) {
        case .success(let raw): return raw
        case .failure(.empty):
            throw InputError(
                Words("the signer printed nothing on standard output", es: "el firmante no imprimió nada en la salida estándar") + leftBehind
                    + Words(said.en, es: said.es), hint: hint)
        case .failure(.unrecognized(let count)):
            let more = run.truncated ? "+" : ""
            throw InputError(
                Words(
                    "the signer printed \(count)\(more) bytes that are not an ES256 signature (DER or raw r‖s, as bytes, base64 or base64url)",
                    es: "el firmante imprimió \(count)\(more) bytes que no son una firma ES256 (DER o r‖s en bruto, en bytes, base64 o base64url)")
                    + leftBehind + Words(said.en, es: said.es),
                hint: hint)
        case .failure(.outOfRange):
            throw InputError(
                Words(
                    "the signer printed a signature whose r or s is 0 or not below P-256's order: no signature at all",
                    es: "el firmante imprimió una firma con r o s igual a 0 o no menor que el orden de P-256: no es una firma"), hint: hint)
        }
    }

    private var hint: Words {
        Words(
            "try it by hand, the command in \(Self.commandVariable): printf 'x' | sh -c \(Self.shown(command)); it must print one ES256 signature of its standard input",
            es:
                "pruébalo a mano, con la orden en \(Self.commandVariable): printf 'x' | sh -c \(Self.shown(command)); debe imprimir una firma ES256 de su entrada estándar"
        )
    }

    /// A command as messages show it: by the variable that carries it (`Redaction`), never its
    /// text, which may hold a token (`vault … -token=…`, `TOKEN=… aws …`).
    static func shown(_ command: String) -> String { Redaction.argument(command, kind: Setting.signer.argumentKind) ?? "" }

    /// What the signer said on standard error, as the end of a message: ": …" on one line,
    /// bounded and stripped of control characters; nothing when it said nothing.
    static func said(_ errors: [UInt8]) -> (en: String, es: String) {
        let lines = String(decoding: errors.prefix(4 * shownLimit), as: UTF8.self)
            .split(whereSeparator: \.isNewline).map { line in String(line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()) }
            .filter { !$0.isEmpty }
        guard !lines.isEmpty else { return ("", "") }
        let text = OutsideText.display(lines.joined(separator: " / "), limit: shownLimit)
        return ("; it said: \(text)", "; dijo: \(text)")
    }
}
