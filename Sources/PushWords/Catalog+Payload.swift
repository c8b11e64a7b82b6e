public import PushCore

// Payloads: what refuses one, and what is worth a warning.

extension PayloadProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .empty(let source):
            return Words("the payload (\(Words.path(source))) is empty", es: "la carga útil (\(Words.path(source))) está vacía")
        case .notUTF8(let source):
            return Words(
                "the payload (\(Words.path(source))) is not valid UTF-8; JSON text is UTF-8 and APNs would refuse or garble it",
                es: "la carga útil (\(Words.path(source))) no es UTF-8 válido; el texto JSON es UTF-8 y APNs la rechazaría o la estropearía")
        case .notJSON(let source, let diagnosis):
            return Words("the payload (\(Words.path(source))) is not valid JSON: ", es: "la carga útil (\(Words.path(source))) no es JSON válido: ")
                + diagnosis.words
        case .notObject(let source, let kind):
            return Words(
                "the payload (\(Words.path(source))) is \(kind.words), not a JSON object",
                es: "la carga útil (\(Words.path(source))) es \(kind.words), no un objeto JSON")
        case .tooLarge(let count, let type):
            let limit = type.payloadLimit
            return Words(
                "the payload is \(count) bytes, \(count - limit) over APNs' limit of \(limit) bytes for \(type.rawValue) pushes",
                es: "la carga útil ocupa \(count) bytes, \(count - limit) más que el límite de APNs de \(limit) bytes para las notificaciones \(type.rawValue)")
        case .negativeBadge(let badge):
            return Words(
                "the badge must be 0 or more (0 clears the badge); got \(badge)",
                es: "el badge debe ser 0 o más (0 lo borra); se recibió \(badge)")
        case .interruptionLevel(let shown, let meant):
            let levels = PayloadBuilder.interruptionLevels.joined(separator: ", ")
            let guess = meant.map { Words("; did you mean \($0)?", es: "; ¿querías decir \($0)?") } ?? Words(verbatim: "")
            return Words(
                "the interruption level must be one of \(levels); got '\(shown)'",
                es: "el nivel de interrupción debe ser uno de \(levels); se recibió '\(shown)'") + guess
        case .customNotKeyValue(let shown):
            return Words(
                "a custom key is given as KEY=JSON (e.g. order={\"id\":42}); got '\(shown)'",
                es: "una clave propia se da como CLAVE=JSON (p. ej. order={\"id\":42}); se recibió '\(shown)'")
        case .customAps:
            return Words("a custom key cannot be \"aps\"", es: "una clave propia no puede ser \"aps\"")
        case .customNotJSON(let key, let diagnosis):
            return Words(
                "\(Setting.custom) \(key): the value starts like JSON but is not valid JSON: ",
                es: "\(Setting.custom) \(key): el valor empieza como JSON pero no es JSON válido: ") + diagnosis.wordsWithinLine
        case .liveActivityDropped(let errors):
            return LiveActivityLint.droppedPrefix
                + Words.joined(errors.map { $0.message + Words(verbatim: " (") + $0.fix + Words(verbatim: ")") }, separator: Words(verbatim: "; "))
        }
    }

    public var hintWords: Words? {
        switch self {
        case .empty:
            return Words("send a JSON object such as {\"aps\":{\"alert\":\"Hello\"}}", es: "envía un objeto JSON como {\"aps\":{\"alert\":\"Hola\"}}")
        case .notUTF8:
            return Words("save the file as UTF-8", es: "guarda el archivo como UTF-8")
        case .notJSON(_, let diagnosis):
            return diagnosis.named ? nil : Words("check it with `python3 -m json.tool`", es: "revísala con `python3 -m json.tool`")
        case .notObject:
            return Words("APNs payloads look like {\"aps\":{…}}", es: "las cargas útiles de APNs tienen la forma {\"aps\":{…}}")
        case .tooLarge(_, let type):
            return type == .voip
                ? Words("shorten it", es: "acórtala")
                : Words("shorten it (only voip pushes may have 5120 bytes)", es: "acórtala (solo las notificaciones voip pueden llegar a 5120 bytes)")
        case .customAps:
            return Words(
                "set Apple's keys with the alert, badge, sound… fields, or give the whole payload",
                es: "pon las claves de Apple con los campos de alerta, badge, sonido…, o da la carga útil completa")
        case .customNotJSON(let key, _):
            return Words(
                "fix the JSON; for a plain string write it as a JSON string, e.g. \(key)=\"text\"",
                es: "corrige el JSON; para un texto simple escríbelo como cadena JSON, p. ej. \(key)=\"texto\"")
        case .liveActivityDropped:
            return Words(
                "APNs answers 200 to it all the same; fix the payload, or send it anyway with \(Setting.noLint)",
                es: "APNs responde 200 igualmente; arregla la carga útil, o envíala de todos modos con \(Setting.noLint)")
        case .negativeBadge, .interruptionLevel, .customNotKeyValue:
            return nil
        }
    }
}

extension PayloadWarning {
    public var words: Words {
        switch self {
        case .noAps:
            return Words(
                "the payload has no \"aps\" dictionary; iOS shows nothing without one (custom keys go beside \"aps\")",
                es: "la carga útil no tiene diccionario \"aps\"; iOS no muestra nada sin él (las claves propias van junto a \"aps\")")
        case .apsNotObject(let kind):
            return Words(
                "\"aps\" is \(kind.words); Apple's keys go in an \"aps\" dictionary",
                es: "\"aps\" es \(kind.words); las claves de Apple van en un diccionario \"aps\"")
        case .backgroundWithAlert:
            return Words(
                "a background push with alert, badge or sound: iOS may not deliver it silently; use \(Setting.pushType) alert for a visible one",
                es:
                    "una notificación en segundo plano con alert, badge o sound: puede que iOS no la entregue en silencio; usa \(Setting.pushType) alert para una visible"
            )
        case .liveActivityKeys(let pushType):
            return Words(
                "the payload has Live Activity keys (aps.event, content-state) but goes as push type \(pushType.rawValue): send it with \(Setting.pushType) liveactivity (or \(Setting.liveActivity) update)",
                es:
                    "la carga útil tiene claves de Live Activity (aps.event, content-state) pero va como tipo \(pushType.rawValue): envíala con \(Setting.pushType) liveactivity (o \(Setting.liveActivity) update)"
            )
        case .liveActivity(let finding):
            return finding.text
        case .broadcastExpirationDefaulted:
            return Words(
                "apns-expiration: 0, the default for broadcasts (deliver now or drop; a channel without storage takes nothing else); \(Setting.expiration) UNIX keeps it longer on a \(Setting.storage) latest channel",
                es:
                    "apns-expiration: 0, lo predeterminado en las difusiones (se entrega ya o se descarta; un canal sin almacenamiento no admite otra cosa); \(Setting.expiration) UNIX la guarda más tiempo en un canal \(Setting.storage) latest"
            )
        }
    }
}
