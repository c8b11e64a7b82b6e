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
        if let publicKey, !publicKey.isValidSignature(signature, for: message) { throw problem(.otherKey) }
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
        case .failure(let failure): throw problem(.cannotStart(SystemError.code(failure.code)))
        }
    }

    /// Refuses a signer that was stopped, ran out of time, could not run, failed or was killed.
    private func checkEnding(_ run: ChildRun) throws(InputError) {
        let said = Self.said(run.errors)
        if run.stopped { throw problem(.stopped) }
        if run.timedOut { throw problem(.timedOut(seconds: Int(seconds), said: said)) }
        switch run.end {
        case .exited(0): return
        case .exited(126), .exited(127): throw problem(.notRunnable(status: run.end.status, said: said))
        case .exited(let code): throw problem(.failed(status: code, said: said))
        case .signalled(let number): throw problem(.killed(signal: number, said: said))
        }
    }

    /// The signature the signer printed, or why what it printed is none.
    private func signature(_ run: ChildRun) throws(InputError) -> [UInt8] {
        let said = Self.said(run.errors)
        // Its shell exited while a job it left in the background held its output: said, so a
        // signer without a signature is not blamed for the wrong thing.
        switch SignerOutput.signature(run.output) {
        case .success(let raw): return raw
        case .failure(.empty): throw problem(.printedNothing(leftBehind: run.leftBehind, said: said))
        case .failure(.unrecognized(let count)):
            throw problem(.notASignature(bytes: count, truncated: run.truncated, leftBehind: run.leftBehind, said: said))
        case .failure(.outOfRange): throw problem(.outOfRange)
        }
    }

    /// This signer's problem, the signer shown by the variable that carries its command.
    private func problem(_ failure: SignerProblem.Failure) -> InputError { InputError(SignerProblem(signer: Self.shown(command), failure)) }

    /// A command as messages show it: by the variable that carries it (`Redaction`), never its
    /// text, which may hold a token (`vault … -token=…`, `TOKEN=… aws …`).
    static func shown(_ command: String) -> String { Redaction.argument(command, kind: Setting.signer.argumentKind) ?? "" }

    /// What the signer said on standard error, on one line, bounded and stripped of control
    /// characters; nil when it said nothing.
    static func said(_ errors: [UInt8]) -> String? {
        let lines = String(decoding: errors.prefix(4 * shownLimit), as: UTF8.self)
            .split(whereSeparator: \.isNewline).map { line in String(line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()) }
            .filter { !$0.isEmpty }
        guard !lines.isEmpty else { return nil }
        return OutsideText.display(lines.joined(separator: " / "), limit: shownLimit)
    }
}
