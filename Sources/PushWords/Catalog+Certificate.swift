public import PushCore

// Provider certificates.

extension ProviderCertificate {
    /// Which environments the certificate serves, in words (English in JSON, the reader's language in text).
    public var environments: Words {
        switch (development, production) {
        case (true, true): return Words("development and production", es: "desarrollo y producción")
        case (true, false): return Words("development only", es: "solo desarrollo")
        case (false, true): return Words("production only", es: "solo producción")
        case (false, false): return Words("none marked", es: "ninguno indicado")
        }
    }

    /// "development", "production", "development and production" or "none marked".
    public var environmentsDescription: String { environments.text(.en) }
}

extension CertificateRefusal {
    public var words: Words {
        switch self {
        case .needsTokenAuthentication(let pushType):
            return Words(
                "push type \(pushType.rawValue) needs token authentication (a .p8 key); APNs does not accept it over a certificate",
                es: "el tipo \(pushType.rawValue) necesita autenticación por token (una clave .p8); APNs no lo acepta con un certificado")
        case .topicNotCovered(let shown, let pushType, let covered):
            let list = covered.joined(separator: ", ")
            return Words(
                "this certificate does not cover the topic '\(shown)' (push type \(pushType.rawValue)); it covers: \(list)",
                es: "este certificado no cubre el topic '\(shown)' (tipo \(pushType.rawValue)); cubre: \(list)")
        }
    }
}
