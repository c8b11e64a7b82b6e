internal import CLibcrypto
import PushCore
import PushWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a key file holds, judged from its PEM label before OpenSSL parses it, so
/// each wrong kind of file gets its own message.
enum PEMContents: Equatable {
    case empty
    case notPEM
    /// A BEGIN line that does not end in five dashes: the label cannot be trusted, and whatever
    /// follows it (the key itself) must never be echoed as if it were one.
    case damagedBeginLine
    case label(String)
    /// A traditional (OpenSSL) PEM whose headers say it is encrypted: `Proc-Type: 4,ENCRYPTED`.
    case encrypted(String)

    /// Whether the key's line breaks were lost (a CI secret pasted on one line): the base64 starts
    /// on the BEGIN line, or the file is one line holding both BEGIN and END.
    static func lostLineBreaks(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let begin = text.firstRange(of: "-----BEGIN "), let dashes = text[begin.upperBound...].firstRange(of: "-----") else { return false }
        let after = text[dashes.upperBound...]
        return after.first.map { $0 != "\n" && $0 != "\r" } ?? false
    }

    /// Labels are short ("ENCRYPTED PRIVATE KEY" is the longest usual one).
    static let labelLimit = 40

    init(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if text.allSatisfy(\.isWhitespace) {
            self = .empty
            return
        }
        guard let begin = text.firstRange(of: "-----BEGIN ") else {
            self = .notPEM
            return
        }
        // The label is what stands between "BEGIN " and the next dashes on the same line, nothing more.
        let line = text[begin.upperBound...].prefix { $0 != "\n" && $0 != "\r" }
        guard let end = line.firstRange(of: "-----") else {
            self = .damagedBeginLine
            return
        }
        let label = line[..<end.lowerBound]
        guard !label.isEmpty, label.count <= PEMContents.labelLimit,
            label.unicodeScalars.allSatisfy({ $0.isASCII && !OutsideText.isControl($0) })
        else {
            self = .damagedBeginLine
            return
        }
        let body = text[end.upperBound...].prefix(400)
        if body.contains("Proc-Type: 4,ENCRYPTED") {
            self = .encrypted(String(label))
            return
        }
        self = .label(String(label))
    }
}

enum KeyProblem {
    static let lostLineBreaks = InputError(
        Words(
            "the key's line breaks were lost (the -----BEGIN …----- line runs into the base64): a secret pasted on one line?",
            es: "la clave perdió sus saltos de línea (la línea -----BEGIN …----- sigue con el base64): ¿un secreto pegado en una sola línea?"),
        hint: Words(
            "write it with its newlines, e.g. printf '%s\\n' \"$APNS_KEY\" > AuthKey_KEYID.p8 with the secret stored as the whole file",
            es: "escríbela con sus saltos de línea, p. ej. printf '%s\\n' \"$APNS_KEY\" > AuthKey_KEYID.p8, con el archivo entero guardado como secreto"))

    static let damagedBeginLine = InputError(
        Words(
            "the file's -----BEGIN …----- line is damaged (it does not end in five dashes), so it cannot be read as a key",
            es: "la línea -----BEGIN …----- del archivo está dañada (no termina en cinco guiones), así que no se puede leer como clave"),
        hint: Words(
            "download the .p8 file again, or restore the first line to -----BEGIN PRIVATE KEY-----",
            es: "descarga de nuevo el archivo .p8, o deja la primera línea como -----BEGIN PRIVATE KEY-----"))

    static func encrypted(_ label: String) -> InputError {
        let shown = OutsideText.display(label, limit: PEMContents.labelLimit)
        return InputError(
            Words(
                "this key is encrypted (a traditional '\(shown)' with a password); Apple's .p8 keys are not",
                es: "esta clave está cifrada (un '\(shown)' tradicional con contraseña); las claves .p8 de Apple no lo están"),
            hint: unencryptedCopy)
    }

    static let expected = Words("APNs keys are P-256 (prime256v1) EC keys", es: "las claves de APNs son claves EC P-256 (prime256v1)")
    static let download = Words(
        "use the .p8 file from Certificates, Identifiers & Profiles › Keys (or `pushctl key generate` for a test key)",
        es: "usa el archivo .p8 de Certificates, Identifiers & Profiles › Keys (o `pushctl key generate` para una clave de prueba)")
    static let unencryptedCopy = Words(
        "write an unencrypted copy with `openssl pkey -in KEY -out AuthKey_KEYID.p8` and keep it mode 0600",
        es: "escribe una copia sin cifrar con `openssl pkey -in KEY -out AuthKey_KEYID.p8` y déjala con modo 0600")

    static func forLabel(_ label: String, wantPrivate: Bool) -> InputError? {
        switch label {
        case "PRIVATE KEY", "EC PRIVATE KEY":
            return nil
        case "PUBLIC KEY":
            return wantPrivate
                ? InputError(
                    Words(
                        "this file holds a public key; signing needs the private key (the .p8 file)",
                        es: "este archivo contiene una clave pública; para firmar hace falta la clave privada (el archivo .p8)"), hint: download)
                : nil
        case "ENCRYPTED PRIVATE KEY":
            return InputError(
                Words(
                    "this key is encrypted (PKCS#8 with a password); Apple's .p8 keys are not",
                    es: "esta clave está cifrada (PKCS#8 con contraseña); las claves .p8 de Apple no lo están"),
                hint: unencryptedCopy)
        case "RSA PRIVATE KEY", "RSA PUBLIC KEY":
            return InputError(expected + Words("; this file holds an RSA key", es: "; este archivo contiene una clave RSA"), hint: download)
        case "CERTIFICATE":
            return InputError(
                Words(
                    "this file holds a certificate, not a key; token authentication signs with the .p8 key",
                    es: "este archivo contiene un certificado, no una clave; la autenticación por token firma con la clave .p8"), hint: download)
        case "EC PARAMETERS":
            return InputError(
                Words("this file starts with EC parameters, not a key", es: "este archivo empieza con parámetros EC, no con una clave"),
                hint: Words(
                    "remove the EC PARAMETERS block, or use the .p8 file Apple gave you",
                    es: "quita el bloque EC PARAMETERS, o usa el archivo .p8 que te dio Apple"))
        default:
            let shown = OutsideText.display(label, limit: PEMContents.labelLimit)
            return InputError(
                Words("this file holds a '\(shown)' PEM block, not a key", es: "este archivo contiene un bloque PEM '\(shown)', no una clave"), hint: download)
        }
    }

    /// A private key whose parts contradict each other: a .p8 altered on disk (a flipped bit) loads,
    /// signs, and every token it makes is refused (InvalidProviderToken). OpenSSL 3's checks.
    static func consistency(_ key: OpenSSLKey) -> InputError? {
        let problem: Words
        switch pushctl_key_problem(key.pointer) {
        case 0: return nil
        case 1:
            problem = Words(
                "its private scalar is out of range (0, or not below the curve's order n)",
                es: "su escalar privado está fuera de rango (0, o no menor que el orden n de la curva)")
        case 2: problem = Words("its public half is not a point on P-256", es: "su mitad pública no es un punto de P-256")
        default:
            problem = Words(
                "its public half does not match its private half (one of them was altered)",
                es: "su mitad pública no corresponde a su mitad privada (una de las dos se alteró)")
        }
        return InputError(
            Words("this key is damaged: ", es: "esta clave está dañada: ") + problem
                + Words(
                    "; every token it signed would be refused (InvalidProviderToken)",
                    es: "; APNs rechazaría todos los tokens que firmara (InvalidProviderToken)"),
            hint: Words(
                "restore the .p8 from a copy you trust (Apple lets you download it once), or revoke it and make a new key in Certificates, Identifiers & Profiles › Keys",
                es:
                    "recupera el .p8 de una copia de confianza (Apple deja descargarlo una sola vez), o revócala y crea una clave nueva en Certificates, Identifiers & Profiles › Keys"
            ))
    }

    static func forKey(_ key: OpenSSLKey) -> InputError? {
        guard key.isEC else {
            let rsa = key.typeName == "RSA" || key.typeName == "RSA-PSS"
            let kind = rsa ? Words("an RSA key", es: "una clave RSA") : Words("a \(key.typeName) key", es: "una clave \(key.typeName)")
            return InputError(expected + Words("; this file holds ", es: "; este archivo contiene ") + kind, hint: download)
        }
        guard let group = key.groupName else {
            return InputError(
                expected + Words("; this file holds an EC key on an unnamed curve", es: "; este archivo contiene una clave EC de una curva sin nombre"),
                hint: download)
        }
        if group == "prime256v1" || group == "P-256" { return nil }
        let friendly = ["secp384r1": "P-384 (secp384r1)", "secp521r1": "P-521 (secp521r1)", "secp256k1": "secp256k1"][group] ?? group
        return InputError(
            expected + Words("; this file holds an EC key on \(friendly)", es: "; este archivo contiene una clave EC de la curva \(friendly)"), hint: download)
    }
}
