public import PushCore

// What the phone will do with a payload, judged against the app (PushApp's findings): each
// finding in both languages, what it means and what to do.

extension AppFindingSeverity {
    public var words: Words {
        switch self {
        case .willFail: return Words("will fail on the phone", es: "fallará en el teléfono")
        case .willLookWrong: return Words("will look wrong", es: "se verá mal")
        case .note: return Words("note", es: "nota")
        }
    }
}

extension DecodedKind {
    /// "an Int", "a Date (seconds since 2001-01-01)".
    public var words: Words {
        switch self {
        case .string: return Words("a string", es: "una cadena")
        case .bool: return Words("true or false", es: "true o false")
        case .double: return Words("a number", es: "un número")
        case .date: return Words("a Date (a number: seconds since 2001-01-01)", es: "un Date (un número: segundos desde el 2001-01-01)")
        case .url: return Words("a URL (a string)", es: "una URL (una cadena)")
        case .uuid: return Words("a UUID (a string)", es: "un UUID (una cadena)")
        case .data: return Words("Data (a base64 string)", es: "Data (una cadena en base64)")
        case .array: return Words("an array", es: "un array")
        case .dictionary: return Words("an object (a dictionary)", es: "un objeto (un diccionario)")
        case .integer(let name): return Words("an integer (\(name))", es: "un entero (\(name))")
        case .object(let name): return Words("an object (\(name))", es: "un objeto (\(name))")
        case .rawValue(let type, let raw): return Words("one of \(type)'s \(raw) raw values", es: "uno de los valores \(raw) de \(type)")
        }
    }
}

extension UncheckedReason {
    public var words: Words {
        switch self {
        case .customDecoder(let type):
            return Words("\(type) decodes itself (init(from:)): not checked", es: "\(type) se decodifica a sí mismo (init(from:)): sin comprobar")
        case .propertyWrapper(let type, let wrapper):
            return Words("\(type) has a property wrapper (@\(wrapper)): not checked", es: "\(type) tiene un property wrapper (@\(wrapper)): sin comprobar")
        case .macro(let type, let macro):
            return Words("\(type) uses a macro (\(macro)): not checked", es: "\(type) usa una macro (\(macro)): sin comprobar")
        case .unknownType(let type):
            return Words(
                "the app declares no type \(type) that pushctl can read: not checked",
                es: "la app no declara ningún tipo \(type) que pushctl sepa leer: sin comprobar")
        case .unsupportedType(let type):
            return Words("\(type) is a kind of type pushctl does not judge: not checked", es: "\(type) es un tipo que pushctl no juzga: sin comprobar")
        }
    }
}

extension AppFinding {
    /// "will fail on the phone: aps.content-state.score: …; fix", as one line.
    public var text: Words {
        let fixWords = problem.fix
        let tail = fixWords.en.isEmpty ? Words(verbatim: "") : Words(verbatim: "; ") + fixWords
        return severity.words + Words(verbatim: ": \(OutsideText.display(field, limit: 120)): ") + problem.words + tail
    }
}

extension AppProblem {
    /// A value from the payload or the app, as a message quotes it: bounded, no control characters.
    static func shown(_ text: String) -> String { "\"" + OutsideText.display(text, limit: 80) + "\"" }
    static func list(_ items: [String]) -> String { items.isEmpty ? "—" : OutsideText.display(items.prefix(12).joined(separator: ", "), limit: 200) }

    /// What the phone will do.
    public var words: Words {
        switch self {
        case .noActivityTypes:
            return Words(
                "the app declares no ActivityAttributes type: content-state is not checked",
                es: "la app no declara ningún tipo ActivityAttributes: content-state no se comprueba")
        case .unknownAttributesType(let given, let declared):
            return Words(
                "attributes-type \(Self.shown(given)) is not one of the app's ActivityAttributes types (\(Self.list(declared))): the Live Activity does not start",
                es:
                    "attributes-type \(Self.shown(given)) no es uno de los tipos ActivityAttributes de la app (\(Self.list(declared))): la Live Activity no empieza"
            )
        case .activityTypeAmbiguous(let declared):
            return Words(
                "the app declares several ActivityAttributes types (\(Self.list(declared))) and content-state decodes into none: shown against the closest",
                es:
                    "la app declara varios tipos ActivityAttributes (\(Self.list(declared))) y content-state no se decodifica en ninguno: se compara con el más cercano"
            )
        case .unchecked(let reason):
            return reason.words
        case .missingKey(let key, let type):
            return Words(
                "\(type) needs \(Self.shown(key)) and the payload has none: the phone cannot decode it (\"Unable to decode content state\") and drops the update",
                es: "\(type) necesita \(Self.shown(key)) y la carga útil no lo trae: el teléfono no puede decodificarla y descarta la actualización")
        case .nullValue(let expected):
            return Words(
                "null where the app expects \(expected.words): the phone cannot decode it",
                es: "null donde la app espera \(expected.words): el teléfono no puede decodificarlo")
        case .wrongType(let expected, let found):
            return Words(
                "\(found.words) where the app expects \(expected.words): the phone cannot decode it",
                es: "\(found.words) donde la app espera \(expected.words): el teléfono no puede decodificarlo")
        case .notAnInteger(let type, let value):
            return Words(
                "\(Self.shown(value)) does not fit in \(type): the phone cannot decode it",
                es: "\(Self.shown(value)) no cabe en \(type): el teléfono no puede decodificarlo")
        case .notAURL(let value):
            return Words(
                "\(Self.shown(value)) is not a URL: the phone cannot decode it", es: "\(Self.shown(value)) no es una URL: el teléfono no puede decodificarla")
        case .notAUUID(let value):
            return Words(
                "\(Self.shown(value)) is not a UUID: the phone cannot decode it", es: "\(Self.shown(value)) no es un UUID: el teléfono no puede decodificarlo")
        case .notBase64(let value):
            return Words(
                "\(Self.shown(value)) is not base64: the phone cannot decode it as Data",
                es: "\(Self.shown(value)) no está en base64: el teléfono no puede decodificarlo como Data")
        case .notARawValue(let type, let value, let allowed):
            return Words(
                "\(Self.shown(value)) is not a case of \(type) (\(Self.list(allowed))): the phone cannot decode it",
                es: "\(Self.shown(value)) no es un caso de \(type) (\(Self.list(allowed))): el teléfono no puede decodificarlo")
        case .dictionaryKeyNotInteger(let key):
            return Words(
                "the key \(Self.shown(key)) is not an integer, and the dictionary's keys are Int",
                es: "la clave \(Self.shown(key)) no es un entero, y las claves del diccionario son Int")
        case .ignoredKey(let key, let type, let meant):
            let hint = meant.map { Words(" (did you mean \(Self.shown($0))?)", es: " (¿querías decir \(Self.shown($0))?)") } ?? Words(verbatim: "")
            return Words("\(type) does not read \(Self.shown(key)): the phone ignores it", es: "\(type) no lee \(Self.shown(key)): el teléfono lo ignora")
                + hint
        case .dateLooksLikeUnixTime(let given, let phone, let unix, _):
            let phoneDay = String(UTCDate.format(unixSeconds: phone).prefix(10))
            let unixDay = String(UTCDate.format(unixSeconds: unix).prefix(10))
            return Words(
                "\(given) is \(phoneDay) as the phone decodes a Date (seconds since 2001-01-01); as UNIX time it is \(unixDay)",
                es: "\(given) es el \(phoneDay) tal como el teléfono decodifica un Date (segundos desde el 2001-01-01); como hora UNIX es el \(unixDay)")
        case .locKeyMissing(let key, let locale, let locales):
            let elsewhere = locales.isEmpty ? Words(verbatim: "") : Words(" (it is in \(Self.list(locales)))", es: " (sí está en \(Self.list(locales)))")
            return Words(
                "the app's Localizable strings have no \(Self.shown(key)) in \(locale): the phone shows the key itself",
                es: "las cadenas Localizable de la app no tienen \(Self.shown(key)) en \(locale): el teléfono muestra la clave tal cual") + elsewhere
        case .locArgsTooFew(let key, let needed, let given):
            return Words(
                "\(Self.shown(key)) takes \(needed) argument(s) and loc-args gives \(given): the phone shows the rest empty or as (null)",
                es: "\(Self.shown(key)) lleva \(needed) argumento(s) y loc-args da \(given): el teléfono muestra el resto vacío o como (null)")
        case .locArgsUnused(let key, let used, let given):
            return Words(
                "\(Self.shown(key)) uses \(used) argument(s) of the \(given) in loc-args: the rest are not shown",
                es: "\(Self.shown(key)) usa \(used) argumento(s) de los \(given) de loc-args: el resto no se muestra")
        case .locArgNotString(let key, let position, let specifier):
            return Words(
                "\(Self.shown(key)) formats argument \(position) with \(specifier), but loc-args are strings: the phone shows the wrong text",
                es: "\(Self.shown(key)) da formato al argumento \(position) con \(specifier), pero loc-args son cadenas: el teléfono muestra otro texto")
        case .pluralFromString(let key, let position, let variable):
            return Words(
                "\(Self.shown(key)) picks a plural form (\(variable)) from argument \(position), which loc-args gives as a string",
                es: "\(Self.shown(key)) elige una forma plural (\(variable)) por el argumento \(position), que loc-args da como cadena")
        case .localeNotInApp(let locale, let locales):
            return Words(
                "the app has no strings in \(Self.shown(locale)) (it has \(Self.list(locales))): the development region's are read",
                es: "la app no tiene cadenas en \(Self.shown(locale)) (tiene \(Self.list(locales))): se leen las de la región de desarrollo")
        case .backgroundModeMissing:
            return Words(
                "a background push, and the app's Info.plist has no remote-notification in UIBackgroundModes: the app is never woken",
                es: "un push en segundo plano, y el Info.plist de la app no tiene remote-notification en UIBackgroundModes: la app nunca se despierta")
        case .interruptionLevelNotEntitled(let level, let entitlement):
            return Words(
                "\(level) without \(entitlement) in the app's entitlements: the phone delivers it as an ordinary (active) notification",
                es: "\(level) sin \(entitlement) en los entitlements de la app: el teléfono la entrega como una notificación normal (active)")
        case .noServiceExtension:
            return Words(
                "mutable-content, and the app has no Notification Service Extension: the notification is shown unmodified",
                es: "mutable-content, y la app no tiene Notification Service Extension: la notificación se muestra sin modificar")
        case .soundNotShipped(let name, let shipped):
            return Words(
                "the app ships no sound \(Self.shown(name)) (it has \(Self.list(shipped))): the phone plays the default sound",
                es: "la app no incluye el sonido \(Self.shown(name)) (tiene \(Self.list(shipped))): el teléfono toca el sonido por defecto")
        case .environmentMismatch(let sending, let app):
            return Words(
                "sent to the \(sending) environment, and the app's aps-environment is \(app): its device tokens belong to the other (BadDeviceToken)",
                es: "enviada al entorno \(sending), y el aps-environment de la app es \(app): sus tokens de dispositivo son del otro (BadDeviceToken)")
        case .pushNotEntitled:
            return Words(
                "the app's entitlements have no aps-environment: it cannot receive remote notifications",
                es: "los entitlements de la app no tienen aps-environment: no puede recibir notificaciones remotas")
        }
    }

    /// What to do; empty when the message says it all.
    public var fix: Words {
        switch self {
        case .missingKey(let key, _):
            return Words(
                "add \(Self.shown(key)), or make the property optional in the app", es: "añade \(Self.shown(key)), o haz opcional la propiedad en la app")
        case .dateLooksLikeUnixTime(_, _, _, let send):
            return Words("if you meant UNIX time, send \(send)", es: "si querías decir hora UNIX, envía \(send)")
        case .unknownAttributesType:
            return Words("give the struct's name exactly", es: "indica el nombre exacto del struct")
        case .locKeyMissing:
            return Words(
                "add the key to Localizable in that language, or check the locale asked for",
                es: "añade la clave a Localizable en ese idioma, o revisa el idioma pedido")
        case .locArgNotString(_, let position, _):
            return Words("use %@ (or %\(position)$@) in the app's string", es: "usa %@ (o %\(position)$@) en la cadena de la app")
        case .backgroundModeMissing:
            return Words(
                "add Background Modes › Remote notifications to the app target", es: "añade Background Modes › Remote notifications al target de la app")
        case .interruptionLevelNotEntitled:
            return Words(
                "add the capability to the app, or send another interruption-level", es: "añade la capacidad a la app, o envía otro interruption-level")
        case .noServiceExtension:
            return Words(
                "add a Notification Service Extension target, or leave out mutable-content",
                es: "añade un target Notification Service Extension, o quita mutable-content")
        case .soundNotShipped:
            return Words(
                "add the file to the app's bundle (or Library/Sounds), or send \"default\"",
                es: "añade el archivo al bundle de la app (o a Library/Sounds), o envía \"default\"")
        case .environmentMismatch:
            return Words("send to the environment the app was built for", es: "envía al entorno para el que se compiló la app")
        case .pushNotEntitled:
            return Words("add the Push Notifications capability", es: "añade la capacidad Push Notifications")
        case .nullValue, .wrongType, .notAnInteger, .notAURL, .notAUUID, .notBase64, .notARawValue, .dictionaryKeyNotInteger:
            return Words("send what the app's type declares", es: "envía lo que declara el tipo de la app")
        default:
            return Words(verbatim: "")
        }
    }
}

extension AppFolderProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .missing(let path):
            let shown = OutsideText.display(path, limit: 200)
            return Words("\(Setting.app) '\(shown)' does not exist", es: "\(Setting.app) '\(shown)' no existe")
        case .notAFolder(let path):
            let shown = OutsideText.display(path, limit: 200)
            return Words("\(Setting.app) '\(shown)' is not a folder", es: "\(Setting.app) '\(shown)' no es una carpeta")
        }
    }

    public var hintWords: Words? {
        Words("give your app's project folder, or a built .app", es: "indica la carpeta del proyecto de tu app, o una .app compilada")
    }
}
