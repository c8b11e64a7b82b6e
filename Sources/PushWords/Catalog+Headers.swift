public import PushCore

// A notification's header fields (push type, priority, topic, collapse id, expiration, apns-id)
// and the rule for every value bound for a header; a date given where UNIX seconds belong.

extension HeaderProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .controlCharacter(let name, let byte, let position):
            let hex = (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            return Words(
                "\(name) holds a control character (byte 0x\(hex) at byte \(position)); header values cannot contain line breaks or other control characters",
                es:
                    "\(name) contiene un carácter de control (byte 0x\(hex) en el byte \(position)); el valor de una cabecera no puede llevar saltos de línea ni otros caracteres de control"
            )
        case .tooLong(let name, let bytes, let limit):
            return Words(
                "\(name) is \(bytes) bytes; pushctl sends at most \(limit) bytes in a header value",
                es: "\(name) ocupa \(bytes) bytes; pushctl envía como mucho \(limit) bytes en el valor de una cabecera")
        case .unknownPushType(let name, let shown, let meant):
            let guess = meant.map { Words("; did you mean \($0.rawValue)?", es: "; ¿querías decir \($0.rawValue)?") } ?? Words(verbatim: "")
            return Words("\(name) '\(shown)' is not an APNs push type", es: "\(name) '\(shown)' no es un tipo de notificación de APNs") + guess
        case .priority(let name, let shown):
            return Words(
                "\(name) must be 10 (immediate), 5 (power-considerate) or 1 (never wake the device); got '\(shown)'",
                es: "\(name) debe ser 10 (inmediata), 5 (cuidando la batería) o 1 (sin despertar el dispositivo); se recibió '\(shown)'")
        case .backgroundPriority(let name):
            return Words(
                "\(name) 10 with a background push: Apple documents this as an error (APNs answers 400 BadPriority)",
                es: "\(name) 10 con una notificación en segundo plano: Apple lo documenta como un error (APNs responde 400 BadPriority)")
        case .notABundleID(let name, let shown):
            return Words("\(name) '\(shown)' is not a bundle id", es: "\(name) '\(shown)' no es un bundle id")
        case .collapseIDTooLong(let name, let bytes):
            let over = bytes - APNsHeader.collapseIDLimit
            return Words(
                "\(name) is \(bytes) bytes, \(over) over APNs' limit of 64 bytes (UTF-8)",
                es: "\(name) ocupa \(bytes) bytes, \(over) más que el límite de APNs de 64 bytes (UTF-8)")
        case .collapseIDEmpty(let name):
            return Words("\(name) is empty; leave it out instead", es: "\(name) está vacío; mejor no lo pongas")
        case .expiration(let name, let shown, _):
            return Words(
                "\(name) must be UNIX seconds (an integer, 0 or more; 0 = deliver once or drop); got '\(shown)'",
                es: "\(name) va en segundos UNIX (un entero, 0 o más; 0 = entregar una vez o descartar); se recibió '\(shown)'")
        case .notAUUID(let name, let shown):
            return Words("\(name) '\(shown)' is not a UUID", es: "\(name) '\(shown)' no es un UUID")
        }
    }

    public var hintWords: Words? {
        switch self {
        case .controlCharacter:
            return Words("remove it (a line break copied with the value?)", es: "quítalo (¿un salto de línea copiado con el valor?)")
        case .tooLong:
            return Words("check that the right value was passed", es: "comprueba que se pasó el valor correcto")
        case .unknownPushType:
            let types = PushType.allCases.map(\.rawValue).joined(separator: ", ")
            return Words("use one of \(types)", es: "usa uno de estos: \(types)")
        case .backgroundPriority(let name):
            return Words(
                "background pushes are sent with priority 5; leave out \(name) or use \(name) 5",
                es: "las notificaciones en segundo plano se envían con prioridad 5; quita \(name) o usa \(name) 5")
        case .notABundleID:
            return Words("use your app's bundle id, e.g. com.example.app", es: "usa el bundle id de tu app, p. ej. com.example.app")
        case .expiration(_, _, let date):
            return date?.words
        case .notAUUID:
            return Words(
                "use the 8-4-4-4-12 hex form, e.g. 123e4567-e89b-12d3-a456-426614174000, or leave it out and APNs makes one",
                es: "usa la forma hexadecimal 8-4-4-4-12, p. ej. 123e4567-e89b-12d3-a456-426614174000, o quítalo y APNs crea uno")
        case .priority, .collapseIDTooLong, .collapseIDEmpty:
            return nil
        }
    }
}

extension DateSuggestion {
    public var words: Words {
        Words(
            "as UNIX seconds, that date (\(shown)) is \(seconds): \(use)",
            es: "en segundos UNIX, esa fecha (\(shown)) es \(seconds): \(use)")
    }
}

extension DateGiven {
    /// "as UNIX seconds, that date (2026-12-01 00:00 UTC) is 1796083200: --expiration 1796083200",
    /// or nil when `text` is not a date (`DateGiven.suggestion`).
    public static func hint(_ text: String, name: String) -> Words? {
        suggestion(text, name: name)?.words
    }
}
