public import PushCore

// An endpoint given instead of Apple's hosts (`--endpoint`).

extension EndpointProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .notAnHTTPSURL(let shown, let why, _):
            return Words("the endpoint '\(shown)' is not an https://host[:port] URL: ", es: "el endpoint '\(shown)' no es una URL https://host[:puerto]: ")
                + why.words
        }
    }

    public var hintWords: Words? {
        switch self {
        case .notAnHTTPSURL(_, _, let meant?):
            return Words("write it as \(meant)", es: "escríbelo como \(meant)")
        case .notAnHTTPSURL(_, _, nil):
            return Words(
                "APNs is HTTPS only, e.g. https://127.0.0.1:8443 for pushctl mock",
                es: "APNs solo habla HTTPS, p. ej. https://127.0.0.1:8443 para pushctl mock")
        }
    }
}

extension EndpointProblem.Why {
    public var words: Words {
        let only = Words("; give only the scheme, host and port", es: "; da solo el esquema, el host y el puerto")
        switch self {
        case .tooLong: return Words("it is too long", es: "es demasiado larga")
        case .notHTTPS: return Words("it must start with https://", es: "debe empezar por https://")
        case .space: return Words("it holds a space", es: "contiene un espacio")
        case .controlCharacter: return Words("it holds a control character", es: "contiene un carácter de control")
        case .path: return Words("it has ", es: "tiene ") + Words("a path", es: "una ruta") + only
        case .query: return Words("it has ", es: "tiene ") + Words("a query", es: "una consulta") + only
        case .fragment: return Words("it has ", es: "tiene ") + Words("a fragment", es: "un fragmento") + only
        case .userName: return Words("it has ", es: "tiene ") + Words("a user name", es: "un nombre de usuario") + only
        case .unclosedIPv6: return Words("an IPv6 address needs its closing ]", es: "a una dirección IPv6 le falta su ] de cierre")
        case .textAfterIPv6: return Words("unexpected text after the IPv6 address", es: "hay texto inesperado tras la dirección IPv6")
        case .invalidIPv6: return Words("the IPv6 address is not valid", es: "la dirección IPv6 no es válida")
        case .noHost: return Words("it has no host", es: "no tiene host")
        case .hostCharacters:
            return Words(
                "the host name may hold only letters, digits, '-', '.' and '_'", es: "el nombre del host solo puede tener letras, dígitos, '-', '.' y '_'")
        case .port: return Words("the port must be a number from 1 to 65535", es: "el puerto debe ser un número del 1 al 65535")
        }
    }
}
