public import PushCore
import PushCrypto
import PushFiles
public import PushWords

/// What a certificate file holds, as `pushctl cert inspect` reads it: a `.p12`/`.pfx` (with its
/// password), a PEM certificate (with or without its key) or the DER `.cer` Apple's portal gives.
public struct CertificateInspection {
    public let path: String
    public let certificate: ProviderCertificate
    /// Whether the file holds the private key too.
    public let hasKey: Bool

    /// Reads and checks the file; the password comes from the settings, or `askPassword` (on a
    /// terminal) when the file needs one and none was given.
    public static func read(_ path: String, values: SettingValues, askPassword: (String) -> String?) throws(InputError) -> CertificateInspection {
        let bytes = try InputFiles.read(path, what: .certificateFile)
        var password = try CertificateCredential.password(values)
        if password == nil, CertificateFile.needsPassword(bytes) { password = askPassword(path) }
        let (certificate, hasKey) = try CertificateFile.inspect(bytes, source: path, password: password)
        return CertificateInspection(path: path, certificate: certificate, hasKey: hasKey)
    }

    /// The certificate as `pushctl cert inspect` shows it: a row each, labels in a 14-column field.
    public func text(now: Int64, language: Language, naming: SettingNaming = .plain) -> [String] {
        let c = certificate
        func show(_ text: String) -> String { OutsideText.display(text, limit: 300) }
        /// A row: its label in a 14-column field, in `language`.
        func row(_ english: String, _ spanish: String, _ value: String) -> String {
            let label = Words("\(english)", es: "\(spanish)").text(language, naming: naming)
            return label + String(repeating: " ", count: max(1, 14 - label.count)) + value
        }
        let content =
            hasKey ? Words(" (certificate and private key)", es: " (certificado y clave privada)") : Words(" (certificate only)", es: " (solo el certificado)")
        var lines = [row("file", "archivo", show(path) + content.text(language, naming: naming)), row("subject", "sujeto", show(c.subject))]
        lines.append(
            row(
                "bundle id", "bundle id",
                c.uid.map(show)
                    ?? Words(
                        "(none: no UID in the subject; not an APNs certificate?)",
                        es: "(ninguno: el sujeto no tiene UID; ¿no es un certificado de APNs?)"
                    ).text(language, naming: naming)))
        let topics =
            c.topics.isEmpty
            ? [
                c.uid.map { show($0) + Words(" (from the UID; no topics extension)", es: " (del UID; sin extensión de topics)").text(language, naming: naming) }
                    ?? Words("(none)", es: "(ninguno)").text(language, naming: naming)
            ]
            : c.topics.map { "\(show($0.name))\($0.kinds.isEmpty ? "" : " (\($0.kinds.map(show).joined(separator: ", ")))")" }
        for (index, topic) in topics.enumerated() { lines.append(index == 0 ? row("topics", "topics", topic) : String(repeating: " ", count: 14) + topic) }
        lines.append(row("environments", "entornos", c.environments.text(language, naming: naming)))
        lines.append(row("issuer", "emisor", show(c.issuer)))
        lines.append(row("serial", "nº de serie", c.serialHex))
        let state: Words
        switch c.validity(now: now) {
        case .expired: state = Words("EXPIRED", es: "CADUCADO")
        case .notYetValid: state = Words("NOT YET VALID", es: "AÚN NO ES VÁLIDO")
        case .expiresSoon(let days): state = Words("\(days) days left: renew soon", es: "quedan \(days) días: renuévalo pronto")
        case .valid: state = Words("\(c.daysLeft(now: now)) days left", es: "quedan \(c.daysLeft(now: now)) días")
        }
        lines.append(row("valid from", "válido desde", UTCDate.format(unixSeconds: c.notBefore)))
        lines.append(row("valid to", "válido hasta", "\(UTCDate.format(unixSeconds: c.notAfter)) (\(state.text(language, naming: naming)))"))
        lines.append(row("sha-256", "sha-256", c.fingerprint))
        return lines
    }

    /// The same as `--output json`; `expiring` answers `--expires-within` when it was given.
    public func json(now: Int64, expiring: Bool?) -> JSONValue {
        let c = certificate
        var members: [(String, JSONValue)] = [
            ("file", .string(OutsideText.display(path, limit: 1000))),
            ("subject", .string(c.subject)),
            ("bundleId", c.uid.map(JSONValue.string) ?? .null),
            (
                "topics",
                .array(
                    c.allowedTopics.map { name in
                        .object([
                            ("topic", .string(name)),
                            ("kinds", .array((c.topics.first { $0.name == name }?.kinds ?? []).map(JSONValue.string))),
                        ])
                    })
            ),
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
}
