public import PushCore
public import PushCrypto
import PushFiles
import PushSystem
import PushWords

/// `--signer COMMAND` (or `PUSHCTL_SIGNER`): a command that signs the provider token with a key
/// pushctl never sees (AWS KMS, Google Cloud KMS, Vault transit, an HSM's tool). It is run with
/// `/bin/sh -c`, gets the JWT's signing input (`header.claims`, no newline) on its standard input,
/// and prints one ES256 signature (`SignerOutput`: DER or raw r‖s, bytes or base64, Vault's
/// `vault:v1:` prefix). Its environment is pushctl's less the secrets pushctl took out of it
/// (`PUSHCTL_KEY`, `PUSHCTL_CACHE_KEY`).
///
/// It runs at most `timeLimit` seconds (then it is killed) and at most `outputLimit` bytes of each
/// of its outputs are read. A signer that cannot start: 66; one that runs out of time: 75
/// (worth another try); one that fails, prints no signature, or one that does not verify: 65.
/// Nothing is sent in any of those cases.
public struct ExternalSigner: ES256Signing {
    public let command: String
    /// Checks each signature before it is used, when the key's public half is known.
    public let publicKey: ES256PublicKey?

    /// A KMS call is a few hundred milliseconds; a CLI that starts Python or Java, a few seconds.
    public static let timeLimit = 30.0
    public static let outputLimit = 64 * 1024
    /// How much of what the signer said on standard error a message shows.
    static let shownLimit = 300

    public init(command: String, publicKey: ES256PublicKey?) {
        self.command = command
        self.publicKey = publicKey
    }

    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        var spec = ChildSpec("/bin/sh", ["-c", command])
        spec.ownProcessGroup = true
        let run: ChildRun
        switch ChildProcesses.run(spec, input: message, limit: Self.outputLimit, seconds: Self.timeLimit) {
        case .success(let finished): run = finished
        case .failure(let failure):
            let reason = SystemError.reason(failure.code)
            throw InputError(
                Words("the signer could not be started: \(reason.en)", es: "no se pudo iniciar el firmante: \(reason.es)"),
                hint: hint, kind: .missingInput)
        }
        let said = Self.said(run.errors)
        if run.timedOut {
            throw InputError(
                Words(
                    "the signer did not answer within \(Int(Self.timeLimit)) s and was stopped\(said.en)",
                    es: "el firmante no respondió en \(Int(Self.timeLimit)) s y se detuvo\(said.es)"),
                hint: Words(
                    "check that it reads the message from standard input and asks nobody anything (no prompt, no MFA)",
                    es: "comprueba que lee el mensaje de la entrada estándar y no pregunta nada a nadie (sin preguntas ni MFA)"),
                kind: .temporaryFailure)
        }
        switch run.end {
        case .exited(0):
            break
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
        let signature: [UInt8]
        switch SignerOutput.signature(run.output) {
        case .success(let raw): signature = raw
        case .failure(.empty):
            throw InputError(
                Words("the signer printed nothing on standard output\(said.en)", es: "el firmante no imprimió nada en la salida estándar\(said.es)"), hint: hint
            )
        case .failure(.unrecognized(let count)):
            let more = run.truncated ? "+" : ""
            throw InputError(
                Words(
                    "the signer printed \(count)\(more) bytes that are not an ES256 signature (DER or raw r‖s, as bytes, base64 or base64url)\(said.en)",
                    es: "el firmante imprimió \(count)\(more) bytes que no son una firma ES256 (DER o r‖s en bruto, en bytes, base64 o base64url)\(said.es)"),
                hint: hint)
        case .failure(.outOfRange):
            throw InputError(
                Words(
                    "the signer printed a signature whose r or s is 0 or not below P-256's order: no signature at all",
                    es: "el firmante imprimió una firma con r o s igual a 0 o no menor que el orden de P-256: no es una firma"), hint: hint)
        }
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

    private var hint: Words {
        Words(
            "try it by hand: printf 'x' | sh -c \(Self.shown(command)); it must print one ES256 signature of its standard input",
            es: "pruébalo a mano: printf 'x' | sh -c \(Self.shown(command)); debe imprimir una firma ES256 de su entrada estándar")
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
