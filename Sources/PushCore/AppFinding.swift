/// What the phone will do with a payload, judged against the app it is for (PushApp reads the app
/// and makes these; PushWords says each in English and Spanish). A code with its parameters, the
/// field it concerns and how bad it is: the sender, the mock and `--output json` share one value.
public struct AppFinding: Sendable, Equatable {
    public let severity: AppFindingSeverity
    /// The payload's field as a JSON path (`aps.content-state.endsAt`, `aps.alert.loc-args[1]`),
    /// or the header or the app's setting it concerns (`apns-push-type`).
    public let field: String
    public let problem: AppProblem

    public init(_ problem: AppProblem, field: String) {
        self.problem = problem
        self.field = field
        self.severity = problem.severity
    }
}

/// How bad a finding is, as the phone would show it.
public enum AppFindingSeverity: String, Sendable, CaseIterable, Comparable {
    /// The phone drops it or cannot use it (a Live Activity that does not update, an app not woken).
    case willFail = "will-fail"
    /// It arrives but shows wrong: the raw key, the wrong words, the default sound, a demoted alert.
    case willLookWrong = "will-look-wrong"
    /// Worth knowing, nothing wrong on its own (a type the checker cannot judge, an unused key).
    case note

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
    private var rank: Int {
        switch self {
        case .willFail: return 0
        case .willLookWrong: return 1
        case .note: return 2
        }
    }
}

/// What a Swift value expects from JSON, as a finding names it.
public enum DecodedKind: Sendable, Equatable {
    case string, bool, double, date, url, uuid, data, array, dictionary
    /// An integer type (`Int`, `UInt8`, …), by name.
    case integer(String)
    /// A struct of the app's, by name.
    case object(String)
    /// An enum of the app's with raw values of `rawType` (`String`, `Int`).
    case rawValue(type: String, rawType: String)
}

/// Why a type of the app's is not judged: the checker says so rather than guessing.
public enum UncheckedReason: Sendable, Equatable {
    /// It decodes itself (`init(from:)`).
    case customDecoder(type: String)
    /// A property wrapper on one of its properties (`@Clamped var x`).
    case propertyWrapper(type: String, wrapper: String)
    /// A macro attached to it or expanded inside it.
    case macro(type: String, macro: String)
    /// A type the app does not declare (or declares in a form the checker does not read).
    case unknownType(String)
    /// A generic type, a class, or an enum without raw values.
    case unsupportedType(String)
}

/// Each thing the app check finds.
public enum AppProblem: Sendable, Equatable {
    // MARK: Live Activity types
    /// The app declares no `ActivityAttributes` type, so content-state is not checked.
    case noActivityTypes
    /// `attributes-type` names no `ActivityAttributes` type of the app's.
    case unknownAttributesType(given: String, declared: [String])
    /// A Live Activity payload the checker cannot tell the type of (several declared, no `attributes-type`).
    case activityTypeAmbiguous(declared: [String])
    case unchecked(UncheckedReason)
    /// A required key is missing from an object that decodes into `type`.
    case missingKey(key: String, type: String)
    /// null where a non-optional value is required.
    case nullValue(expected: DecodedKind)
    case wrongType(expected: DecodedKind, found: JSONKind)
    /// A number that does not fit the integer type (too large, or with a fraction).
    case notAnInteger(type: String, value: String)
    case notAURL(String)
    case notAUUID(String)
    case notBase64(String)
    /// A string or number that is none of the enum's raw values.
    case notARawValue(type: String, value: String, allowed: [String])
    /// A dictionary with `Int` keys given a key that is not an integer.
    case dictionaryKeyNotInteger(String)
    /// A key the type does not decode (a `let` with a value, a property left out of `CodingKeys`,
    /// or no property at all): the phone ignores it. `meant` is a near miss among the keys it reads.
    case ignoredKey(key: String, type: String, meant: String?)
    /// A `Date` given a number that reads as UNIX time: the phone reads seconds since 2001-01-01.
    /// `phoneReading` and `unixReading` are UNIX seconds; `send` is what to send for the UNIX reading.
    case dateLooksLikeUnixTime(given: String, phoneReading: Int64, unixReading: Int64, send: Int64)

    // MARK: Alert strings
    /// `loc-key` (or `title-loc-key`, `subtitle-loc-key`) is not in the app's Localizable strings
    /// for `locale`: the phone shows the key itself. `locales` are those that have it.
    case locKeyMissing(key: String, locale: String, locales: [String])
    /// `loc-args` gives fewer arguments than the format uses: the phone shows `(null)` or nothing.
    case locArgsTooFew(key: String, needed: Int, given: Int)
    /// More arguments than the format uses: the rest are not shown.
    case locArgsUnused(key: String, used: Int, given: Int)
    /// The format takes argument `position` with `specifier`, but loc-args are strings (`%@`).
    case locArgNotString(key: String, position: Int, specifier: String)
    /// A plural rule whose number comes from loc-args (strings): check the form the phone picks.
    case pluralFromString(key: String, position: Int, variable: String)
    /// `--locale` names a language the app has no strings for.
    case localeNotInApp(locale: String, locales: [String])

    // MARK: Capabilities
    /// A background push to an app whose Info.plist has no `remote-notification` in `UIBackgroundModes`.
    case backgroundModeMissing
    /// `interruption-level` `time-sensitive` or `critical` (or a critical sound) without the entitlement.
    case interruptionLevelNotEntitled(level: String, entitlement: String)
    /// `mutable-content` with no Notification Service Extension in the app.
    case noServiceExtension
    /// A sound the app does not ship: the phone plays the default sound.
    case soundNotShipped(name: String, shipped: [String])
    /// Sending to one APNs environment while the app's entitlement names the other.
    case environmentMismatch(sending: String, app: String)
    /// The app's entitlements have no `aps-environment`: it cannot receive remote notifications.
    case pushNotEntitled

    public var severity: AppFindingSeverity {
        switch self {
        case .unknownAttributesType, .missingKey, .nullValue, .wrongType, .notAnInteger, .notAURL, .notAUUID, .notBase64, .notARawValue,
            .dictionaryKeyNotInteger, .backgroundModeMissing, .environmentMismatch, .pushNotEntitled:
            return .willFail
        case .dateLooksLikeUnixTime, .locKeyMissing, .locArgsTooFew, .locArgNotString, .interruptionLevelNotEntitled, .noServiceExtension,
            .soundNotShipped:
            return .willLookWrong
        case .noActivityTypes, .activityTypeAmbiguous, .unchecked, .ignoredKey, .locArgsUnused, .pluralFromString, .localeNotInApp:
            return .note
        }
    }

    /// A stable name for machine output (`--output json`'s `code`); never translated.
    public var code: String {
        switch self {
        case .noActivityTypes: return "no-activity-types"
        case .unknownAttributesType: return "unknown-attributes-type"
        case .activityTypeAmbiguous: return "activity-type-ambiguous"
        case .unchecked: return "unchecked"
        case .missingKey: return "missing-key"
        case .nullValue: return "null-value"
        case .wrongType: return "wrong-type"
        case .notAnInteger: return "not-an-integer"
        case .notAURL: return "not-a-url"
        case .notAUUID: return "not-a-uuid"
        case .notBase64: return "not-base64"
        case .notARawValue: return "not-a-raw-value"
        case .dictionaryKeyNotInteger: return "dictionary-key-not-integer"
        case .ignoredKey: return "ignored-key"
        case .dateLooksLikeUnixTime: return "date-looks-like-unix-time"
        case .locKeyMissing: return "loc-key-missing"
        case .locArgsTooFew: return "loc-args-too-few"
        case .locArgsUnused: return "loc-args-unused"
        case .locArgNotString: return "loc-arg-not-string"
        case .pluralFromString: return "plural-from-string"
        case .localeNotInApp: return "locale-not-in-app"
        case .backgroundModeMissing: return "background-mode-missing"
        case .interruptionLevelNotEntitled: return "interruption-level-not-entitled"
        case .noServiceExtension: return "no-service-extension"
        case .soundNotShipped: return "sound-not-shipped"
        case .environmentMismatch: return "environment-mismatch"
        case .pushNotEntitled: return "push-not-entitled"
        }
    }
}

// MARK: - Machine output

extension AppFinding {
    /// `{"severity", "field", "code", "parameters"}`: what `--output json` carries (words added by the caller).
    public var json: JSONValue {
        .object([
            ("severity", .string(severity.rawValue)), ("field", .string(field)), ("code", .string(problem.code)),
            ("parameters", .object(problem.parameters)),
        ])
    }
}

extension AppProblem {
    /// The code's parameters by name, in order.
    public var parameters: [(String, JSONValue)] {
        func list(_ items: [String]) -> JSONValue { .array(items.map(JSONValue.string)) }
        switch self {
        case .noActivityTypes, .backgroundModeMissing, .noServiceExtension, .pushNotEntitled: return []
        case .unknownAttributesType(let given, let declared): return [("given", .string(given)), ("declared", list(declared))]
        case .activityTypeAmbiguous(let declared): return [("declared", list(declared))]
        case .unchecked(let reason): return reason.parameters
        case .missingKey(let key, let type): return [("key", .string(key)), ("type", .string(type))]
        case .nullValue(let expected): return [("expected", .string(expected.name))]
        case .wrongType(let expected, let found): return [("expected", .string(expected.name)), ("found", .string("\(found)"))]
        case .notAnInteger(let type, let value): return [("type", .string(type)), ("value", .string(value))]
        case .notAURL(let value), .notAUUID(let value), .notBase64(let value): return [("value", .string(value))]
        case .notARawValue(let type, let value, let allowed): return [("type", .string(type)), ("value", .string(value)), ("allowed", list(allowed))]
        case .dictionaryKeyNotInteger(let key): return [("key", .string(key))]
        case .ignoredKey(let key, let type, let meant):
            return [("key", .string(key)), ("type", .string(type)), ("meant", meant.map(JSONValue.string) ?? .null)]
        case .dateLooksLikeUnixTime(let given, let phone, let unix, let send):
            return [("given", .string(given)), ("phoneReading", .integer(phone)), ("unixReading", .integer(unix)), ("send", .integer(send))]
        case .locKeyMissing(let key, let locale, let locales): return [("key", .string(key)), ("locale", .string(locale)), ("locales", list(locales))]
        case .locArgsTooFew(let key, let needed, let given):
            return [("key", .string(key)), ("needed", .integer(Int64(needed))), ("given", .integer(Int64(given)))]
        case .locArgsUnused(let key, let used, let given): return [("key", .string(key)), ("used", .integer(Int64(used))), ("given", .integer(Int64(given)))]
        case .locArgNotString(let key, let position, let specifier):
            return [("key", .string(key)), ("position", .integer(Int64(position))), ("specifier", .string(specifier))]
        case .pluralFromString(let key, let position, let variable):
            return [("key", .string(key)), ("position", .integer(Int64(position))), ("variable", .string(variable))]
        case .localeNotInApp(let locale, let locales): return [("locale", .string(locale)), ("locales", list(locales))]
        case .interruptionLevelNotEntitled(let level, let entitlement): return [("level", .string(level)), ("entitlement", .string(entitlement))]
        case .soundNotShipped(let name, let shipped): return [("name", .string(name)), ("shipped", list(shipped))]
        case .environmentMismatch(let sending, let app): return [("sending", .string(sending)), ("app", .string(app))]
        }
    }
}

extension UncheckedReason {
    var parameters: [(String, JSONValue)] {
        switch self {
        case .customDecoder(let type): return [("reason", .string("custom-decoder")), ("type", .string(type))]
        case .propertyWrapper(let type, let wrapper): return [("reason", .string("property-wrapper")), ("type", .string(type)), ("wrapper", .string(wrapper))]
        case .macro(let type, let macro): return [("reason", .string("macro")), ("type", .string(type)), ("macro", .string(macro))]
        case .unknownType(let type): return [("reason", .string("unknown-type")), ("type", .string(type))]
        case .unsupportedType(let type): return [("reason", .string("unsupported-type")), ("type", .string(type))]
        }
    }
}

extension DecodedKind {
    /// `Int`, `String`, `Date`, `Phase`: the Swift type a finding's parameters name.
    public var name: String {
        switch self {
        case .string: return "String"
        case .bool: return "Bool"
        case .double: return "Double"
        case .date: return "Date"
        case .url: return "URL"
        case .uuid: return "UUID"
        case .data: return "Data"
        case .array: return "Array"
        case .dictionary: return "Dictionary"
        case .integer(let name), .object(let name), .rawValue(let name, _): return name
        }
    }
}

/// Why the app given (`--app`) cannot be read at all, before any of its files is.
public enum AppFolderProblem: InputProblem {
    /// Nothing at the path.
    case missing(path: String)
    /// A file, not a folder (an app's project folder or a built `.app`).
    case notAFolder(path: String)

    public var kind: InputError.Kind {
        switch self {
        case .missing: return .missingInput
        case .notAFolder: return .usage
        }
    }
}
