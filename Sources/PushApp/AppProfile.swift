import PushCore

/// What pushctl knows of the app a notification is for: what the phone would use to show it.
public struct AppProfile: Sendable {
    /// The folder read (an Xcode project's folder or a built `.app`).
    public var root: String
    /// `CFBundleDevelopmentRegion`, else the String Catalog's source language.
    public var developmentRegion: String?
    /// `CFBundleDisplayName`, else `CFBundleName`.
    public var displayName: String?
    /// `UIBackgroundModes` of the app's Info.plist files (not its extensions').
    public var backgroundModes: [String] = []
    public var infoPlists: [String] = []
    /// `aps-environment` of the app's entitlements (`development`, `production`).
    public var apsEnvironment: String?
    public var timeSensitive = false
    public var criticalAlerts = false
    public var entitlementsFiles: [String] = []
    /// Notification Service Extensions: the folder of each (its Info.plist names the extension point).
    public var serviceExtensions: [String] = []
    /// Sound files the app ships, by file name (`ping.caf`).
    public var sounds: [String] = []
    /// The Localizable table: locale → key → what the phone formats.
    public var strings: [String: [String: LocalizedFormat]] = [:]
    public var stringsFiles: [String] = []
    /// Every type the app's Swift declares.
    public var types = TypeIndex([:])
    public var swiftFiles = 0
    /// What was not read, and why.
    public var skipped: [SkippedFile] = []

    public init(root: String) { self.root = root }

    /// The app's `ActivityAttributes` types, sorted by name.
    public var activityTypes: [ActivityType] {
        types.types.values.filter { declaration in
            declaration.kind == .structure && declaration.inherited.contains { $0 == "ActivityAttributes" || $0 == "ActivityKit.ActivityAttributes" }
        }
        .map { declaration in
            ActivityType(name: declaration.name, contentState: types.resolve(["ContentState"], from: declaration.scope))
        }
        .sorted { $0.name < $1.name }
    }

    /// The locales the app has strings in, sorted.
    public var locales: [String] { strings.keys.sorted() }

    /// The locale a check reads: `requested` (or the development region, else `en`) matched to the
    /// app's own: exactly, else by language (`es-MX` finds `es`).
    public func locale(_ requested: String?) -> String {
        let wanted = LocaleName.normal(requested ?? developmentRegion ?? "en")
        if strings[wanted] != nil { return wanted }
        let language = wanted.split(separator: "-").first.map(String.init) ?? wanted
        return strings.keys.sorted().first { $0 == language || $0.hasPrefix(language + "-") } ?? wanted
    }
}

/// An `ActivityAttributes` type and its `ContentState` (qualified names).
public struct ActivityType: Sendable, Equatable {
    public let name: String
    /// nil when the type declares no ContentState the checker can find.
    public let contentState: String?
    /// The name `attributes-type` gives: the type's own, unqualified.
    public var shortName: String { name.split(separator: ".").last.map(String.init) ?? name }
}

/// A string the phone formats: the format, each plural form, and plural variables.
public struct LocalizedFormat: Sendable, Equatable {
    /// The formats the phone may use (one, or each plural or device form).
    public var formats: [String]
    /// Whether the forms vary by a number (a catalog's plural variations).
    public var pluralVaries = false
    /// `%#@name@` variables (a `.stringsdict`'s or a catalog's substitutions).
    public var variables: [PluralVariable] = []

    public init(formats: [String], pluralVaries: Bool = false, variables: [PluralVariable] = []) {
        self.formats = formats
        self.pluralVaries = pluralVaries
        self.variables = variables
    }
}

/// A `%#@name@` variable: the argument it reads (`argNum`, or its place in the format) and its forms.
public struct PluralVariable: Sendable, Equatable {
    public let name: String
    public let position: Int?
    public let specifier: String
    public let forms: [String]
}

/// A file the reader passed over.
public struct SkippedFile: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// Larger than the reader takes.
        case tooLarge
        /// Not readable, or not the format its name says (a plist or JSON that does not parse).
        case unreadable
        /// A symbolic link to outside the app folder.
        case linkOutside
        /// Deeper than the reader goes.
        case tooDeep
        /// The reader's limit on files was reached.
        case tooMany
    }
    public let path: String
    public let reason: Reason
}

/// Locale names as the app writes them (`en`, `es-419`, `pt_BR`, `zh-Hans`), compared one way.
enum LocaleName {
    static func normal(_ name: String) -> String {
        name.replacing("_", with: "-").lowercased()
    }
}
