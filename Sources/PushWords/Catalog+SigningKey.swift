public import PushCore

// A key to sign provider tokens with: what the file held instead of an APNs .p8 key.

extension SigningKeyProblem: WordedProblem {
    public var words: Words {
        let expected = Words("APNs keys are P-256 (prime256v1) EC keys", es: "las claves de APNs son claves EC P-256 (prime256v1)")
        switch self {
        case .empty: return Words("the key file is empty", es: "el archivo de la clave está vacío")
        case .notPEM:
            return Words(
                "this is not a PEM key (no '-----BEGIN PRIVATE KEY-----' line); an APNs .p8 key is PEM text",
                es: "esto no es una clave PEM (no hay línea '-----BEGIN PRIVATE KEY-----'); una clave .p8 de APNs es texto PEM")
        case .damagedBeginLine:
            return Words(
                "the file's -----BEGIN …----- line is damaged (it does not end in five dashes), so it cannot be read as a key",
                es: "la línea -----BEGIN …----- del archivo está dañada (no termina en cinco guiones), así que no se puede leer como clave")
        case .lostLineBreaks:
            return Words(
                "the key's line breaks were lost (the -----BEGIN …----- line runs into the base64): a secret pasted on one line?",
                es: "la clave perdió sus saltos de línea (la línea -----BEGIN …----- sigue con el base64): ¿un secreto pegado en una sola línea?")
        case .encryptedTraditional(let label):
            let shown = OutsideText.display(label, limit: 40)
            return Words(
                "this key is encrypted (a traditional '\(shown)' with a password); Apple's .p8 keys are not",
                es: "esta clave está cifrada (un '\(shown)' tradicional con contraseña); las claves .p8 de Apple no lo están")
        case .encryptedPKCS8:
            return Words(
                "this key is encrypted (PKCS#8 with a password); Apple's .p8 keys are not",
                es: "esta clave está cifrada (PKCS#8 con contraseña); las claves .p8 de Apple no lo están")
        case .publicKeyGiven:
            return Words(
                "this file holds a public key; signing needs the private key (the .p8 file)",
                es: "este archivo contiene una clave pública; para firmar hace falta la clave privada (el archivo .p8)")
        case .certificateGiven:
            return Words(
                "this file holds a certificate, not a key; token authentication signs with the .p8 key",
                es: "este archivo contiene un certificado, no una clave; la autenticación por token firma con la clave .p8")
        case .rsa: return expected + Words("; this file holds an RSA key", es: "; este archivo contiene una clave RSA")
        case .otherType(let name):
            return expected + Words("; this file holds a \(name) key", es: "; este archivo contiene una clave \(name)")
        case .unnamedCurve:
            return expected + Words("; this file holds an EC key on an unnamed curve", es: "; este archivo contiene una clave EC de una curva sin nombre")
        case .otherCurve(let group):
            let friendly = ["secp384r1": "P-384 (secp384r1)", "secp521r1": "P-521 (secp521r1)", "secp256k1": "secp256k1"][group] ?? group
            return expected + Words("; this file holds an EC key on \(friendly)", es: "; este archivo contiene una clave EC de la curva \(friendly)")
        case .ecParameters:
            return Words("this file starts with EC parameters, not a key", es: "este archivo empieza con parámetros EC, no con una clave")
        case .otherBlock(let label):
            let shown = OutsideText.display(label, limit: 40)
            return Words("this file holds a '\(shown)' PEM block, not a key", es: "este archivo contiene un bloque PEM '\(shown)', no una clave")
        case .unreadablePrivateKey:
            return Words(
                "the PEM block could not be read as a private key (damaged base64 or DER inside)",
                es: "el bloque PEM no se pudo leer como clave privada (base64 o DER dañado dentro)")
        case .unreadablePublicKey:
            return Words(
                "the PEM block could not be read as a public key (damaged base64 or DER inside)",
                es: "el bloque PEM no se pudo leer como clave pública (base64 o DER dañado dentro)")
        case .unreadableCertificate:
            return Words(
                "the certificate could not be read (damaged base64 or DER inside)", es: "no se pudo leer el certificado (base64 o DER dañado dentro)")
        case .damaged(let damage):
            return Words("this key is damaged: ", es: "esta clave está dañada: ") + damage.words
                + Words(
                    "; every token it signed would be refused (InvalidProviderToken)",
                    es: "; APNs rechazaría todos los tokens que firmara (InvalidProviderToken)")
        case .coordinateSize:
            return Words("a P-256 point has 32-byte x and y coordinates", es: "un punto de P-256 tiene coordenadas x e y de 32 bytes")
        case .notOnCurve: return Words("the coordinates are not a point on P-256", es: "las coordenadas no son un punto de P-256")
        }
    }

    public var hintWords: Words? {
        let download = Words(
            "use the .p8 file from Certificates, Identifiers & Profiles › Keys (or `pushctl key generate` for a test key)",
            es: "usa el archivo .p8 de Certificates, Identifiers & Profiles › Keys (o `pushctl key generate` para una clave de prueba)")
        let unencryptedCopy = Words(
            "write an unencrypted copy with `openssl pkey -in KEY -out AuthKey_KEYID.p8` and keep it mode 0600",
            es: "escribe una copia sin cifrar con `openssl pkey -in KEY -out AuthKey_KEYID.p8` y déjala con modo 0600")
        switch self {
        case .empty, .notPEM, .publicKeyGiven, .certificateGiven, .rsa, .otherType, .unnamedCurve, .otherCurve, .otherBlock, .unreadablePrivateKey:
            return download
        case .encryptedTraditional, .encryptedPKCS8: return unencryptedCopy
        case .damagedBeginLine:
            return Words(
                "download the .p8 file again, or restore the first line to -----BEGIN PRIVATE KEY-----",
                es: "descarga de nuevo el archivo .p8, o deja la primera línea como -----BEGIN PRIVATE KEY-----")
        case .lostLineBreaks:
            return Words(
                "write it with its newlines, e.g. printf '%s\\n' \"$APNS_KEY\" > AuthKey_KEYID.p8 with the secret stored as the whole file",
                es: "escríbela con sus saltos de línea, p. ej. printf '%s\\n' \"$APNS_KEY\" > AuthKey_KEYID.p8, con el archivo entero guardado como secreto")
        case .ecParameters:
            return Words(
                "remove the EC PARAMETERS block, or use the .p8 file Apple gave you",
                es: "quita el bloque EC PARAMETERS, o usa el archivo .p8 que te dio Apple")
        case .damaged:
            return Words(
                "restore the .p8 from a copy you trust (Apple lets you download it once), or revoke it and make a new key in Certificates, Identifiers & Profiles › Keys",
                es:
                    "recupera el .p8 de una copia de confianza (Apple deja descargarlo una sola vez), o revócala y crea una clave nueva en Certificates, Identifiers & Profiles › Keys"
            )
        case .unreadablePublicKey, .unreadableCertificate, .coordinateSize, .notOnCurve: return nil
        }
    }
}

extension SigningKeyProblem.KeyDamage {
    public var words: Words {
        switch self {
        case .scalarOutOfRange:
            return Words(
                "its private scalar is out of range (0, or not below the curve's order n)",
                es: "su escalar privado está fuera de rango (0, o no menor que el orden n de la curva)")
        case .publicNotOnCurve: return Words("its public half is not a point on P-256", es: "su mitad pública no es un punto de P-256")
        case .halvesDisagree:
            return Words(
                "its public half does not match its private half (one of them was altered)",
                es: "su mitad pública no corresponde a su mitad privada (una de las dos se alteró)")
        }
    }
}
