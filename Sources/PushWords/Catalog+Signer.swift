public import PushCore

// An external signer: how it ended without a usable signature.

extension SignerProblem: WordedProblem {
    public var words: Words {
        switch failure {
        case .cannotStart(let reason):
            return Words("the signer could not be started: \(reason.words)", es: "no se pudo iniciar el firmante: \(reason.words)")
        case .stopped: return Words("the signer was stopped by a stop signal", es: "el firmante se detuvo por una señal de parada")
        case .timedOut(let seconds, let said):
            return Words("the signer did not answer within \(seconds) s and was stopped", es: "el firmante no respondió en \(seconds) s y se detuvo")
                + Self.said(said)
        case .notRunnable(let status, let said):
            return Words(
                "the signer could not be run (the shell said \(status): command not found or not executable)",
                es: "no se pudo ejecutar el firmante (el shell dijo \(status): orden no encontrada o no ejecutable)") + Self.said(said)
        case .failed(let status, let said):
            return Words("the signer failed (exit status \(status))", es: "el firmante falló (estado de salida \(status))") + Self.said(said)
        case .killed(let signal, let said):
            return Words("the signer was killed by signal \(signal)", es: "el firmante terminó por la señal \(signal)") + Self.said(said)
        case .printedNothing(let leftBehind, let said):
            return Words("the signer printed nothing on standard output", es: "el firmante no imprimió nada en la salida estándar")
                + Self.leftBehind(leftBehind) + Self.said(said)
        case .notASignature(let bytes, let truncated, let leftBehind, let said):
            let more = truncated ? "+" : ""
            return Words(
                "the signer printed \(bytes)\(more) bytes that are not an ES256 signature (DER or raw r‖s, as bytes, base64 or base64url)",
                es: "el firmante imprimió \(bytes)\(more) bytes que no son una firma ES256 (DER o r‖s en bruto, en bytes, base64 o base64url)")
                + Self.leftBehind(leftBehind) + Self.said(said)
        case .outOfRange:
            return Words(
                "the signer printed a signature whose r or s is 0 or not below P-256's order: no signature at all",
                es: "el firmante imprimió una firma con r o s igual a 0 o no menor que el orden de P-256: no es una firma")
        case .otherKey:
            return Words(
                "the signer's signature does not verify with the public key given: it signs with another key, or over other bytes than its standard input",
                es: "la firma del firmante no se verifica con la clave pública dada: firma con otra clave, o sobre otros bytes que su entrada estándar")
        }
    }

    public var hintWords: Words? {
        switch failure {
        case .stopped: return nil
        case .timedOut:
            return Words(
                "check that it reads the message from standard input and asks nobody anything (no prompt, no MFA)",
                es: "comprueba que lee el mensaje de la entrada estándar y no pregunta nada a nadie (sin preguntas ni MFA)")
        case .otherKey:
            return Words(
                "sign the bytes of standard input with SHA-256 (ECDSA_SHA_256 over the message, not over a digest of it), with the key whose public half is given",
                es:
                    "firma los bytes de la entrada estándar con SHA-256 (ECDSA_SHA_256 sobre el mensaje, no sobre un resumen suyo), con la clave cuya mitad pública se da"
            )
        case .cannotStart, .notRunnable, .failed, .killed, .printedNothing, .notASignature, .outOfRange:
            return Words(
                "try it by hand, the command in PUSHCTL_SIGNER: printf 'x' | sh -c \(signer); it must print one ES256 signature of its standard input",
                es:
                    "pruébalo a mano, con la orden en PUSHCTL_SIGNER: printf 'x' | sh -c \(signer); debe imprimir una firma ES256 de su entrada estándar"
            )
        }
    }

    /// What the signer said on standard error, as the end of a message (already bounded and shown).
    private static func said(_ text: String?) -> Words {
        guard let text else { return Words(verbatim: "") }
        return Words("; it said: \(text)", es: "; dijo: \(text)")
    }

    private static func leftBehind(_ leftBehind: Bool) -> Words {
        guard leftBehind else { return Words(verbatim: "") }
        return Words(
            " (its shell exited while a process it started in the background still held its output; that process was stopped)",
            es: " (su shell terminó mientras un proceso que dejó en segundo plano aún tenía su salida; ese proceso se detuvo)")
    }
}
