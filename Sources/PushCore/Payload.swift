/// A notification payload: the exact bytes to send, and what pushctl learned reading them.
public struct Payload: Sendable {
    /// Sent byte for byte as given (a file's bytes are never re-encoded).
    public let bytes: [UInt8]
    public let json: JSONValue

    /// Parses and checks that the payload is a JSON object. Size is checked against the
    /// push type later, once the type is known.
    public init(bytes: [UInt8], source: String) throws(InputError) {
        guard !bytes.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw InputError(Words("the payload (\(source)) is empty", es: "la carga útil (\(source)) está vacía"),
                             hint: Words("send a JSON object such as {\"aps\":{\"alert\":\"Hello\"}}", es: "envía un objeto JSON como {\"aps\":{\"alert\":\"Hola\"}}"))
        }
        let json: JSONValue
        guard String(validUTF8: bytes) != nil else {
            throw InputError(Words("the payload (\(source)) is not valid UTF-8; JSON text is UTF-8 and APNs would refuse or garble it",
                                   es: "la carga útil (\(source)) no es UTF-8 válido; el texto JSON es UTF-8 y APNs la rechazaría o la estropearía"),
                             hint: Words("save the file as UTF-8", es: "guarda el archivo como UTF-8"))
        }
        do { json = try JSONValue.parse(bytes) } catch {
            let diagnosis = JSONDiagnosis(bytes: bytes, error: error)
            throw InputError(Words("the payload (\(source)) is not valid JSON: ", es: "la carga útil (\(source)) no es JSON válido: ") + diagnosis.words,
                             hint: diagnosis.named ? nil : Words("check it with `python3 -m json.tool`", es: "revísala con `python3 -m json.tool`"))
        }
        guard case .object = json else {
            throw InputError(Words("the payload (\(source)) is \(json.typeName), not a JSON object", es: "la carga útil (\(source)) es \(json.typeWords.es), no un objeto JSON"),
                             hint: Words("APNs payloads look like {\"aps\":{…}}", es: "las cargas útiles de APNs tienen la forma {\"aps\":{…}}"))
        }
        self.bytes = bytes
        self.json = json
    }

    public init(json: JSONValue) {
        self.json = json
        self.bytes = json.compactBytes
    }

    /// A payload whose compact form is already at hand: `compactBytes` must be what
    /// `json.compactBytes` writes (a text `JSONValue.parseNotingCompactMembers` found compact).
    init(json: JSONValue, compactBytes: [UInt8]) {
        assert(compactBytes == json.compactBytes, "not the value's compact form")
        self.json = json
        self.bytes = compactBytes
    }

    /// Apple's rule, and pushctl's: background when `aps` holds only `content-available: 1`, else alert.
    public var inferredPushType: PushType {
        guard let aps = json["aps"]?.objectMembers, aps.count == 1, aps[0].0 == "content-available",
              aps[0].1 == .integer(1)
        else { return .alert }
        return .background
    }

    /// Things worth a warning but not a refusal.
    public func warnings(for type: PushType) -> [Words] {
        var out: [Words] = []
        switch json["aps"] {
        case nil:
            if type != .mdm {
                out.append(Words("the payload has no \"aps\" dictionary; iOS shows nothing without one (custom keys go beside \"aps\")",
                                 es: "la carga útil no tiene diccionario \"aps\"; iOS no muestra nada sin él (las claves propias van junto a \"aps\")"))
            }
        case .object?:
            break
        case let other?:
            out.append(Words("\"aps\" is \(other.typeName); Apple's keys go in an \"aps\" dictionary",
                             es: "\"aps\" es \(other.typeWords.es); las claves de Apple van en un diccionario \"aps\""))
        }
        if type == .background, let aps = json["aps"]?.objectMembers,
           aps.contains(where: { ["alert", "badge", "sound"].contains($0.0) }) {
            out.append(Words("a background push with alert, badge or sound: iOS may not deliver it silently; use \(Setting.pushType) alert for a visible one",
                             es: "una notificación en segundo plano con alert, badge o sound: puede que iOS no la entregue en silencio; usa \(Setting.pushType) alert para una visible"))
        }
        return out
    }

    /// Refuses a payload over the push type's limit, saying by how many bytes.
    public func checkSize(for type: PushType) throws(InputError) {
        try Payload.checkSize(bytes.count, for: type)
    }

    /// Refuses `count` bytes of payload when they are over the push type's limit.
    static func checkSize(_ count: Int, for type: PushType) throws(InputError) {
        let limit = type.payloadLimit
        guard count <= limit else {
            throw InputError(
                Words("the payload is \(count) bytes, \(count - limit) over APNs' limit of \(limit) bytes for \(type.rawValue) pushes",
                      es: "la carga útil ocupa \(count) bytes, \(count - limit) más que el límite de APNs de \(limit) bytes para las notificaciones \(type.rawValue)"),
                hint: type == .voip ? Words("shorten it", es: "acórtala")
                    : Words("shorten it (only voip pushes may have 5120 bytes)", es: "acórtala (solo las notificaciones voip pueden llegar a 5120 bytes)"))
        }
    }
}

/// The payload from `send`'s builder flags (`--title --body --badge …`).
public struct PayloadBuilder: Sendable {
    public var title: String?
    public var subtitle: String?
    public var body: String?
    public var badge: Int?
    public var sound: String?
    public var category: String?
    public var threadID: String?
    public var contentAvailable = false
    public var mutableContent = false
    public var interruptionLevel: String?
    /// `KEY=JSON` pairs, placed beside `aps`; a value that is not JSON is taken as a string.
    public var custom: [String] = []

    public init() {}

    public static let interruptionLevels = ["passive", "active", "time-sensitive", "critical"]

    public var isEmpty: Bool {
        title == nil && subtitle == nil && body == nil && badge == nil && sound == nil && category == nil
            && threadID == nil && !contentAvailable && !mutableContent && interruptionLevel == nil && custom.isEmpty
    }

    public func build() throws(InputError) -> Payload {
        var aps: [(String, JSONValue)] = []
        var alert: [(String, JSONValue)] = []
        if let title { alert.append(("title", .string(title))) }
        if let subtitle { alert.append(("subtitle", .string(subtitle))) }
        if let body { alert.append(("body", .string(body))) }
        if !alert.isEmpty { aps.append(("alert", .object(alert))) }
        if let badge {
            guard badge >= 0 else {
                throw InputError(Words("the badge must be 0 or more (0 clears the badge); got \(badge)",
                                       es: "el badge debe ser 0 o más (0 lo borra); se recibió \(badge)"))
            }
            aps.append(("badge", .integer(Int64(badge))))
        }
        if let sound { aps.append(("sound", .string(sound))) }
        if let category { aps.append(("category", .string(category))) }
        if let threadID { aps.append(("thread-id", .string(threadID))) }
        if contentAvailable { aps.append(("content-available", .integer(1))) }
        if mutableContent { aps.append(("mutable-content", .integer(1))) }
        if let interruptionLevel {
            guard PayloadBuilder.interruptionLevels.contains(interruptionLevel) else {
                let levels = PayloadBuilder.interruptionLevels.joined(separator: ", "), shown = OutsideText.display(interruptionLevel)
                // A slip ("timesensitive", "Critical") gets the level meant.
                let guess = PayloadBuilder.interruptionLevels.first { RequestLine.close(interruptionLevel, $0) }
                    .map { Words("; did you mean \($0)?", es: "; ¿querías decir \($0)?") } ?? Words(verbatim: "")
                throw InputError(Words("the interruption level must be one of \(levels); got '\(shown)'",
                                       es: "el nivel de interrupción debe ser uno de \(levels); se recibió '\(shown)'") + guess)
            }
            aps.append(("interruption-level", .string(interruptionLevel)))
        }
        var root: [(String, JSONValue)] = aps.isEmpty && !custom.isEmpty ? [] : [("aps", .object(aps))]
        for pair in custom {
            guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else {
                throw InputError(Words("a custom key is given as KEY=JSON (e.g. order={\"id\":42}); got '\(OutsideText.display(pair))'",
                                       es: "una clave propia se da como CLAVE=JSON (p. ej. order={\"id\":42}); se recibió '\(OutsideText.display(pair))'"))
            }
            let key = String(pair[..<eq])
            let text = String(pair[pair.index(after: eq)...])
            guard key != "aps" else {
                throw InputError(Words("a custom key cannot be \"aps\"", es: "una clave propia no puede ser \"aps\""),
                                 hint: Words("set Apple's keys with the alert, badge, sound… fields, or give the whole payload",
                                             es: "pon las claves de Apple con los campos de alerta, badge, sonido…, o da la carga útil completa"))
            }
            let value: JSONValue
            do {
                value = try JSONValue.parse(text)
            } catch {
                // A value that starts like JSON and does not parse is a mistake, not a string to send.
                let first = text.utf8.first { $0 != 0x20 && $0 != 0x09 }
                if let first, [UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-")].contains(first)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) {
                    let shownKey = OutsideText.display(key, limit: 40)
                    let diagnosis = JSONDiagnosis(bytes: Array(text.utf8), error: error)
                    throw InputError(Words("\(Setting.custom) \(shownKey): the value starts like JSON but is not valid JSON: ",
                                           es: "\(Setting.custom) \(shownKey): el valor empieza como JSON pero no es JSON válido: ") + diagnosis.wordsWithinLine,
                                     hint: Words("fix the JSON; for a plain string write it as a JSON string, e.g. \(shownKey)=\"text\"",
                                                 es: "corrige el JSON; para un texto simple escríbelo como cadena JSON, p. ej. \(shownKey)=\"texto\""))
                }
                value = .string(text)
            }
            root.removeAll { $0.0 == key }
            root.append((key, value))
        }
        return Payload(json: .object(root))
    }
}
