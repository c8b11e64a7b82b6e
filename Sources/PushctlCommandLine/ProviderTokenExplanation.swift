public import PushCore
import PushCrypto
import PushWords

/// The signing steps of `jwt --explain`, in order, one sentence each (also used by `demo`).
public struct ProviderTokenExplanation {
    public let token: ProviderToken
    public let keyFile: String
    /// How steps are numbered: "1." … "8." alone, "2.1" … inside the demo's step 2.
    public var label: (Int) -> String = { "\($0)." }

    public init(token: ProviderToken, keyFile: String, label: @escaping (Int) -> String = { "\($0)." }) {
        self.token = token
        self.keyFile = keyFile
        self.label = label
    }

    public var lines: [String] {
        let u = token.unsigned
        let digest = SHA256.hash(Array(u.signingInput.utf8))
        func step(_ n: Int, _ title: Words, _ sentence: Words) -> String {
            "\n" + Console.paint("\(label(n)) \(title.description)", .bold) + " — " + sentence.description
        }
        return [
            step(
                1, Words("Key", es: "Clave"),
                Words(
                    "\(keyFile) holds a P-256 private key; its Key ID (\(u.keyID)) tells APNs which public key checks the signature.",
                    es: "\(keyFile) contiene una clave privada P-256; su Key ID (\(u.keyID)) le dice a APNs qué clave pública comprueba la firma.")),
            step(
                2, Words("Header", es: "Cabecera"),
                Words(
                    "JSON naming the algorithm (ES256 = ECDSA on P-256 with SHA-256) and the key id.",
                    es: "JSON con el algoritmo (ES256 = ECDSA sobre P-256 con SHA-256) y el id de la clave.")),
            "   " + u.header.compact,
            step(
                3, Words("Claims", es: "Claims"),
                Words(
                    "JSON naming your team (iss) and when the token was issued (iat, UNIX seconds; APNs accepts it for 60 minutes).",
                    es: "JSON con tu equipo (iss) y cuándo se emitió el token (iat, segundos UNIX; APNs lo acepta durante 60 minutos).")),
            "   " + u.claims.compact,
            "   iat \(u.issuedAt) = \(UTCDate.format(unixSeconds: u.issuedAt))",
            step(
                4, Words("Base64url", es: "Base64url"),
                Words(
                    "each JSON part is encoded as base64url without padding, so it fits in an HTTP header.",
                    es: "cada parte JSON se codifica en base64url sin relleno, para que quepa en una cabecera HTTP.")),
            "   header: " + u.encodedHeader,
            "   claims: " + u.encodedClaims,
            step(
                5, Words("Signing input", es: "Lo que se firma"),
                Words(
                    "the two encoded parts joined by a dot; this exact text is what gets signed.",
                    es: "las dos partes codificadas unidas por un punto; este texto exacto es el que se firma.")),
            "   " + u.signingInput,
            step(
                6, Words("SHA-256", es: "SHA-256"),
                Words("ES256 first hashes the signing input to 32 bytes.", es: "ES256 primero resume ese texto en 32 bytes con SHA-256.")),
            "   " + digest.hexString,
            step(
                7, Words("Signature", es: "Firma"),
                Words(
                    "ECDSA signs the digest with the private key, giving two 32-byte numbers, r and s.",
                    es: "ECDSA firma el resumen con la clave privada y da dos números de 32 bytes, r y s.")),
            "   r: " + token.r.hexString,
            "   s: " + token.s.hexString,
            step(
                8, Words("Token", es: "Token"),
                Words(
                    "r‖s (64 bytes) in base64url is the third part; APNs receives the whole token as `authorization: bearer <token>`.",
                    es: "r‖s (64 bytes) en base64url es la tercera parte; APNs recibe el token entero como `authorization: bearer <token>`.")),
            token.compact,
        ]
    }
}
