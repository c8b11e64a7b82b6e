public import PushCore
import PushFiles
import PushSystem

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads an app folder (an Xcode project's folder or a built `.app`) into an `AppProfile`,
/// bounded: so many entries, so deep, so large a file; links followed only inside the folder; the
/// build and dependency folders passed over.
public struct AppReader {
    public struct Limits: Sendable {
        public var entries = 20_000
        public var depth = 16
        public var fileSize = InputFiles.sizeLimit
        public var totalBytes = 64 << 20
        public init() {}
    }

    /// Folders an app's own files are never in.
    static let passedOver: Set<String> = [".build", "DerivedData", "Pods", ".git", "node_modules", "Carthage", ".swiftpm", "xcuserdata"]
    static let soundExtensions: Set<String> = ["caf", "aif", "aiff", "wav", "m4a", "mp3"]

    public let limits: Limits
    public init(limits: Limits = Limits()) { self.limits = limits }

    /// The app at `path`; a path with nothing there, or a file, is refused (`AppFolderProblem`).
    public func read(_ path: String) throws(InputError) -> AppProfile {
        func refused(_ problem: AppFolderProblem) -> InputError { InputError(problem, kind: problem.kind) }
        guard let info = FileSystem.status(path) else { throw refused(.missing(path: path)) }
        guard info.kind == .directory else { throw refused(.notAFolder(path: path)) }
        let root = FileSystem.resolved(path) ?? path
        var walk = Walk(root: root, limits: limits)
        walk.visit(root, relative: "", depth: 0)
        return walk.profile()
    }
}

/// One pass over the folder, then the files it found read by kind.
struct Walk {
    let root: String
    let limits: AppReader.Limits
    var entries = 0
    var bytesRead = 0
    var skipped: [SkippedFile] = []
    var swift: [String] = []
    var catalogs: [String] = []
    var strings: [String] = []
    var stringsdicts: [String] = []
    var infoPlists: [String] = []
    var entitlements: [String] = []
    var sounds: [String] = []

    init(root: String, limits: AppReader.Limits) {
        self.root = root
        self.limits = limits
    }

    mutating func visit(_ folder: String, relative: String, depth: Int) {
        guard depth <= limits.depth else { return skipped.append(SkippedFile(path: relative, reason: .tooDeep)) }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            return skipped.append(SkippedFile(path: relative, reason: .unreadable))
        }
        for name in names.sorted() {
            entries += 1
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            guard entries <= limits.entries else { return skipped.append(SkippedFile(path: relativePath, reason: .tooMany)) }
            let full = folder + "/" + name
            guard var info = FileSystem.linkStatus(full) else { continue }
            if info.kind == .symbolicLink {
                // A link is followed only while it stays inside the app folder.
                guard let target = FileSystem.resolved(full), target.hasPrefix(root + "/"), let followed = FileSystem.status(target) else {
                    skipped.append(SkippedFile(path: relativePath, reason: .linkOutside))
                    continue
                }
                info = followed
            }
            if info.kind == .directory {
                if !AppReader.passedOver.contains(name) { visit(full, relative: relativePath, depth: depth + 1) }
            } else if info.kind == .regular {
                classify(relativePath, name: name)
            }
        }
    }

    mutating func classify(_ path: String, name: String) {
        let ext = name.split(separator: ".").count > 1 ? String(name.split(separator: ".").last!).lowercased() : ""
        switch ext {
        case "swift": swift.append(path)
        case "xcstrings": catalogs.append(path)
        case "strings": strings.append(path)
        case "stringsdict": stringsdicts.append(path)
        case "entitlements": entitlements.append(path)
        case "plist" where name == "Info.plist" || name.hasSuffix("-Info.plist"): infoPlists.append(path)
        case _ where AppReader.soundExtensions.contains(ext): sounds.append(name)
        default: break
        }
    }

    /// The bytes of a file the walk found, within the limits; nil (and noted) otherwise.
    mutating func bytes(_ path: String) -> [UInt8]? {
        let full = root + "/" + path
        if let size = FileSystem.status(full)?.size, size > limits.fileSize {
            skipped.append(SkippedFile(path: path, reason: .tooLarge))
            return nil
        }
        guard bytesRead < limits.totalBytes, let data = try? InputFiles.read(full, what: .appFile) else {
            skipped.append(SkippedFile(path: path, reason: bytesRead < limits.totalBytes ? .unreadable : .tooMany))
            return nil
        }
        bytesRead += data.count
        return data
    }

    mutating func plist(_ path: String) -> PlistValue? {
        guard let data = bytes(path) else { return nil }
        guard !PlistDepth.tooDeep(data), let value = try? PropertyListDecoder().decode(PlistValue.self, from: Data(data)) else {
            skipped.append(SkippedFile(path: path, reason: .unreadable))
            return nil
        }
        return value
    }

    mutating func profile() -> AppProfile {
        var profile = AppProfile(root: root)
        profile.skipped = []
        // Extensions first: their folders' Info.plist and entitlements are not the app's.
        var extensionFolders: [String] = []
        var appInfo: [PlistValue] = []
        for path in infoPlists {
            guard let info = plist(path) else { continue }
            let folder = Self.folder(of: path)
            if let point = info["NSExtension"]?["NSExtensionPointIdentifier"]?.string {
                extensionFolders.append(folder)
                if point == "com.apple.usernotifications.service" { profile.serviceExtensions.append(folder.isEmpty ? "." : folder) }
            } else {
                appInfo.append(info)
                profile.infoPlists.append(path)
            }
        }
        func inExtension(_ path: String) -> Bool { extensionFolders.contains { !$0.isEmpty && (path == $0 || path.hasPrefix($0 + "/")) } }
        for info in appInfo {
            profile.backgroundModes += (info["UIBackgroundModes"]?.array ?? []).compactMap(\.string)
            profile.developmentRegion = profile.developmentRegion ?? info["CFBundleDevelopmentRegion"]?.string.flatMap(Self.literal)
            profile.displayName = profile.displayName ?? (info["CFBundleDisplayName"]?.string ?? info["CFBundleName"]?.string).flatMap(Self.literal)
        }
        profile.backgroundModes = Array(Set(profile.backgroundModes)).sorted()
        for path in entitlements where !inExtension(path) {
            guard let values = plist(path) else { continue }
            profile.entitlementsFiles.append(path)
            profile.apsEnvironment = profile.apsEnvironment ?? values["aps-environment"]?.string
            profile.timeSensitive = profile.timeSensitive || values["com.apple.developer.usernotifications.time-sensitive"]?.bool == true
            profile.criticalAlerts = profile.criticalAlerts || values["com.apple.developer.usernotifications.critical-alerts"]?.bool == true
        }
        profile.sounds = Array(Set(sounds)).sorted()
        readStrings(into: &profile)
        var declarations: [SwiftTypeDeclaration] = []
        for path in swift {
            guard let data = bytes(path) else { continue }
            if SwiftDeclarations.nestsTooDeep(data) {
                skipped.append(SkippedFile(path: path, reason: .tooDeep))
                continue
            }
            declarations += SwiftDeclarations.read(String(decoding: data, as: UTF8.self), file: path)
            profile.swiftFiles += 1
        }
        profile.types = TypeIndex(SwiftDeclarations.merge(declarations))
        profile.skipped = skipped
        return profile
    }

    /// The Localizable table in every language: catalogs, then `.strings`, then `.stringsdict` (whose plural rules win).
    mutating func readStrings(into profile: inout AppProfile) {
        for path in catalogs where Self.table(path) == "Localizable" {
            guard let data = bytes(path) else { continue }
            guard let catalog = try? StringCatalog(JSONValue.parse(data)) else {
                skipped.append(SkippedFile(path: path, reason: .unreadable))
                continue
            }
            profile.stringsFiles.append(path)
            profile.developmentRegion = profile.developmentRegion ?? catalog.sourceLanguage
            for (locale, table) in catalog.tables { profile.strings[locale, default: [:]].merge(table) { first, _ in first } }
        }
        for path in strings + stringsdicts where Self.table(path) == "Localizable" {
            guard let locale = Self.lprojLocale(path) else { continue }
            guard let value = plist(path), let entries = value.dictionary else { continue }
            profile.stringsFiles.append(path)
            let name = locale == "base" ? LocaleName.normal(profile.developmentRegion ?? "en") : locale
            for (key, entry) in entries {
                if let text = entry.string {
                    if profile.strings[name]?[key] == nil { profile.strings[name, default: [:]][key] = LocalizedFormat(formats: [text]) }
                } else if let rule = entry.dictionary, let format = rule["NSStringLocalizedFormatKey"]?.string {
                    profile.strings[name, default: [:]][key] = LocalizedFormat(formats: [format], variables: Self.variables(rule))
                }
            }
        }
    }

    /// A `.stringsdict` entry's plural variables.
    static func variables(_ rule: [String: PlistValue]) -> [PluralVariable] {
        rule.keys.sorted().compactMap { name in
            guard let variable = rule[name]?.dictionary, variable["NSStringFormatSpecTypeKey"]?.string == "NSStringPluralRuleType" else { return nil }
            let forms = ["zero", "one", "two", "few", "many", "other"].compactMap { variable[$0]?.string }
            return PluralVariable(name: name, position: nil, specifier: variable["NSStringFormatValueTypeKey"]?.string ?? "@", forms: forms)
        }
    }

    /// `Localizable` for `es.lproj/Localizable.strings` or `Localizable.xcstrings`.
    static func table(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.split(separator: ".").first.map(String.init) ?? name
    }

    /// `es` for `…/es.lproj/Localizable.strings`; nil outside an lproj folder.
    static func lprojLocale(_ path: String) -> String? {
        let parts = path.split(separator: "/")
        guard parts.count >= 2, parts[parts.count - 2].hasSuffix(".lproj") else { return nil }
        return LocaleName.normal(String(parts[parts.count - 2].dropLast(".lproj".count)))
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// A value the build would substitute (`$(DEVELOPMENT_LANGUAGE)`) is not the value itself.
    static func literal(_ text: String) -> String? { text.contains("$(") || text.isEmpty ? nil : text }
}

/// A property list value, whatever its form (XML, binary, or the old text form of `.strings`).
indirect enum PlistValue: Decodable, Sendable {
    case string(String)
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case array([PlistValue])
    case dictionary([String: PlistValue])
    case other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? container.decode(Int64.self) {
            self = .integer(i)
        } else if let d = try? container.decode(Double.self) {
            self = .real(d)
        } else if let a = try? container.decode([PlistValue].self) {
            self = .array(a)
        } else if let d = try? container.decode([String: PlistValue].self) {
            self = .dictionary(d)
        } else {
            self = .other
        }
    }

    subscript(key: String) -> PlistValue? { dictionary?[key] }
    var string: String? { if case .string(let s) = self { return s } else { return nil } }
    var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    var array: [PlistValue]? { if case .array(let a) = self { return a } else { return nil } }
    var dictionary: [String: PlistValue]? { if case .dictionary(let d) = self { return d } else { return nil } }
}

/// A String Catalog (`.xcstrings`, JSON) as the Localizable table it compiles to.
struct StringCatalog {
    var sourceLanguage: String?
    var tables: [String: [String: LocalizedFormat]] = [:]

    init(_ json: JSONValue) {
        sourceLanguage = json["sourceLanguage"]?.stringValue
        let source = sourceLanguage.map(LocaleName.normal)
        for (key, entry) in json["strings"]?.objectMembers ?? [] {
            let localizations = entry["localizations"]?.objectMembers ?? []
            for (locale, localization) in localizations {
                if let format = Self.format(localization) { tables[LocaleName.normal(locale), default: [:]][key] = format }
            }
            // A key with nothing in the source language shows the key itself: it is its own text.
            if let source, tables[source]?[key] == nil {
                tables[source, default: [:]][key] = LocalizedFormat(formats: [key])
            }
        }
    }

    /// One language's entry: its string unit, its variations' forms, its substitutions.
    static func format(_ localization: JSONValue) -> LocalizedFormat? {
        var format = LocalizedFormat(formats: [])
        collect(localization, into: &format)
        for (name, substitution) in localization["substitutions"]?.objectMembers ?? [] {
            var forms = LocalizedFormat(formats: [])
            collect(substitution, into: &forms)
            let position = substitution["argNum"]?.integerValue.map { Int(clamping: $0) }
            let specifier = substitution["formatSpecifier"]?.stringValue ?? "@"
            format.variables.append(PluralVariable(name: name, position: position, specifier: specifier, forms: forms.formats))
        }
        return format.formats.isEmpty ? nil : format
    }

    /// The value of a `stringUnit`, or of each form under `variations` (plural, device; nested).
    static func collect(_ node: JSONValue, into format: inout LocalizedFormat, depth: Int = 0) {
        guard depth < 8 else { return }
        if let value = node["stringUnit"]?["value"]?.stringValue { format.formats.append(value) }
        for (kind, forms) in node["variations"]?.objectMembers ?? [] {
            if kind == "plural" { format.pluralVaries = true }
            for (_, form) in forms.objectMembers ?? [] { collect(form, into: &format, depth: depth + 1) }
        }
    }
}

/// How deep a property list nests, measured before it is decoded: Foundation's decoder (and ours
/// over it) recurse once a level, so a file nested thousands deep would overflow the stack.
enum PlistDepth {
    static let limit = 64

    static func tooDeep(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: Array("bplist".utf8)) { return binaryTooDeep(bytes) }
        let text = bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) ? [] : bytes
        return textTooDeep(text)
    }

    /// XML counts its `<array>` and `<dict>` tags; the old text form its brackets outside quotes.
    /// UTF-16 text (the old `.strings` form) is left to the decoder, whose strings files are flat.
    static func textTooDeep(_ bytes: [UInt8]) -> Bool {
        var depth = 0
        var quoted = false
        var i = 0
        let xml = bytes.firstRange(of: Array("<plist".utf8)) != nil
        while i < bytes.count {
            let byte = bytes[i]
            if xml {
                if byte == UInt8(ascii: "<") {
                    let rest = bytes[(i + 1)...].prefix(7)
                    if rest.starts(with: Array("array>".utf8)) || rest.starts(with: Array("dict>".utf8)) { depth += 1 }
                    if rest.starts(with: Array("/array".utf8)) || rest.starts(with: Array("/dict".utf8)) { depth -= 1 }
                }
            } else if quoted {
                if byte == UInt8(ascii: "\\") { i += 1 } else if byte == UInt8(ascii: "\"") { quoted = false }
            } else if byte == UInt8(ascii: "\"") {
                quoted = true
            } else if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: ")") || byte == UInt8(ascii: "}") {
                depth -= 1
            }
            if depth > limit { return true }
            i += 1
        }
        return false
    }

    /// A binary plist's arrays and dictionaries, followed from the top object through the offset
    /// table without recursion; a reference out of range or a loop counts as too deep.
    static func binaryTooDeep(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 40 else { return false }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let refSize = Int(bytes[trailer + 7])
        func number(_ at: Int, _ size: Int) -> Int? {
            guard size > 0, size <= 8, at >= 0, at + size <= bytes.count else { return nil }
            return bytes[at..<(at + size)].reduce(0) { $0 << 8 | Int($1) } & Int.max
        }
        guard let count = number(trailer + 8, 8), let top = number(trailer + 16, 8), let table = number(trailer + 24, 8), count < 1 << 20 else { return true }
        var stack: [(object: Int, depth: Int)] = [(top, 1)]
        var visits = 0
        while let (object, depth) = stack.popLast() {
            visits += 1
            guard depth <= limit, visits <= 1 << 20, object < count, let offset = number(table + object * offsetSize, offsetSize), offset < bytes.count else {
                return true
            }
            let marker = bytes[offset]
            let kind = marker >> 4
            guard kind == 0xA || kind == 0xD else { continue }
            var items = Int(marker & 0x0F)
            var start = offset + 1
            if items == 0x0F {
                guard start < bytes.count, bytes[start] >> 4 == 1, let n = number(start + 1, 1 << Int(bytes[start] & 0x0F)) else { return true }
                items = n
                start += 1 + (1 << Int(bytes[start] & 0x0F))
            }
            let references = kind == 0xD ? items * 2 : items
            guard references <= count * 2 else { return true }
            for r in 0..<references {
                guard let child = number(start + r * refSize, refSize) else { return true }
                stack.append((child, depth + 1))
            }
        }
        return false
    }
}
