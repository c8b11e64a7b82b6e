public import PushCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The app's types by qualified name, and how a name written in one scope resolves.
public struct TypeIndex: Sendable {
    public let types: [String: SwiftTypeDeclaration]

    public init(_ types: [String: SwiftTypeDeclaration]) { self.types = types }

    /// The qualified name `parts` means inside `scope`: the innermost enclosing type first, as Swift looks.
    public func resolve(_ parts: [String], from scope: [String]) -> String? {
        for depth in stride(from: scope.count, through: 0, by: -1) {
            let candidate = (scope.prefix(depth) + parts).joined(separator: ".")
            if types[candidate] != nil { return candidate }
        }
        return nil
    }

    /// The declaration a qualified name stands for, through typealiases.
    public func declaration(named name: String) -> SwiftTypeDeclaration? {
        var declaration = types[name]
        var hops = 0
        while let alias = declaration, alias.kind == .alias, case .named(let parts) = alias.aliased, hops < 8 {
            declaration = resolve(parts, from: Array(alias.scope.dropLast())).flatMap { types[$0] }
            hops += 1
        }
        return declaration
    }
}

/// Swift's own types that a synthesized `Decodable` reads from JSON, as the phone's default
/// `JSONDecoder` reads them (dates as seconds since 2001-01-01, data as base64).
enum BuiltinType: Equatable {
    case string, bool, floating, date, url, uuid, data
    /// Its range as JSON gives it: exact integers (`low`...`high`, `high` at most Int64's), and
    /// numbers with a point below `above`, the first power of two past the type's largest.
    case integer(name: String, low: Int64, high: Int64, above: Double)

    init?(_ parts: [String]) {
        var parts = parts[...]
        if parts.count == 2, ["Swift", "Foundation", "CoreGraphics"].contains(parts.first!) { parts = parts.dropFirst() }
        guard parts.count == 1, let name = parts.first else { return nil }
        switch name {
        case "String": self = .string
        case "Bool": self = .bool
        case "Double", "Float", "CGFloat", "Float64", "Float32", "Decimal", "TimeInterval": self = .floating
        case "Date": self = .date
        case "URL": self = .url
        case "UUID": self = .uuid
        case "Data": self = .data
        case "Int", "Int64": self = .integer(name: name, low: .min, high: .max, above: 9_223_372_036_854_775_808)
        case "Int32": self = .integer(name: name, low: -2_147_483_648, high: 2_147_483_647, above: 2_147_483_648)
        case "Int16": self = .integer(name: name, low: -32768, high: 32767, above: 32768)
        case "Int8": self = .integer(name: name, low: -128, high: 127, above: 128)
        case "UInt", "UInt64": self = .integer(name: name, low: 0, high: .max, above: 18_446_744_073_709_551_616)
        case "UInt32": self = .integer(name: name, low: 0, high: 4_294_967_295, above: 4_294_967_296)
        case "UInt16": self = .integer(name: name, low: 0, high: 65535, above: 65536)
        case "UInt8": self = .integer(name: name, low: 0, high: 255, above: 256)
        default: return nil
        }
    }

    var kind: DecodedKind {
        switch self {
        case .string: return .string
        case .bool: return .bool
        case .floating: return .double
        case .date: return .date
        case .url: return .url
        case .uuid: return .uuid
        case .data: return .data
        case .integer(let name, _, _, _): return .integer(name)
        }
    }
}

/// Judges a JSON value against a type of the app's as Swift's synthesized `Decodable` and a
/// default `JSONDecoder` would: every reason it would throw is a `willFail` finding; what it
/// cannot judge is a note that says so.
public struct DecodeCheck {
    public let index: TypeIndex
    public private(set) var findings: [AppFinding] = []
    /// Types already reported as unchecked (said once each).
    private var uncheckedSaid: Set<String> = []

    public init(index: TypeIndex) { self.index = index }

    /// The findings for `value` decoded as the type named `typeName` (qualified).
    public static func check(_ value: JSONValue, as typeName: String, index: TypeIndex, path: String) -> [AppFinding] {
        var check = DecodeCheck(index: index)
        check.value(value, as: .named(typeName.split(separator: ".").map(String.init)), scope: [], path: path)
        return check.findings
    }

    /// Whether the phone would decode it (no `willFail` finding).
    public static func decodes(_ value: JSONValue, as typeName: String, index: TypeIndex) -> Bool {
        !check(value, as: typeName, index: index, path: "").contains { $0.severity == .willFail }
    }

    mutating func value(_ json: JSONValue, as type: TypeReference, scope: [String], path: String) {
        switch type {
        case .optional(let wrapped):
            if json != .null { value(json, as: wrapped, scope: scope, path: path) }
        case .array(let element):
            guard case .array(let items) = json else { return mismatch(.array, json, path) }
            for (i, item) in items.enumerated() { value(item, as: element, scope: scope, path: "\(path)[\(i)]") }
        case .dictionary(let key, let element):
            guard case .object(let members) = json else { return mismatch(.dictionary, json, path) }
            guard case .named(let keyName) = key, let keyType = BuiltinType(keyName) else {
                return unchecked(.unsupportedType(type.description), path)
            }
            for (name, item) in members {
                let itemPath = Self.join(path, name)
                switch keyType {
                case .string: break
                case .integer:
                    if Int(name) == nil { add(.dictionaryKeyNotInteger(name), itemPath) }
                default: return unchecked(.unsupportedType(type.description), path)
                }
                value(item, as: element, scope: scope, path: itemPath)
            }
        case .unsupported(let text):
            unchecked(.unsupportedType(text), path)
        case .named(let parts):
            if let qualified = index.resolve(parts, from: scope), let declaration = index.types[qualified] {
                appType(json, declaration, path: path)
            } else if let builtin = BuiltinType(parts) {
                self.builtin(json, builtin, path: path)
            } else {
                unchecked(.unknownType(parts.joined(separator: ".")), path)
            }
        }
    }

    mutating func builtin(_ json: JSONValue, _ type: BuiltinType, path: String) {
        switch (type, json) {
        case (_, .null): add(.nullValue(expected: type.kind), path)
        case (.string, .string), (.bool, .bool), (.floating, .integer), (.floating, .number): break
        case (.date, .integer(let n)): dateReading(Double(n), text: String(n), path: path)
        case (.date, .number(let d)): dateReading(d, text: String(d), path: path)
        case (.integer(let name, let low, let high, _), .integer(let n)):
            if n < low || n > high { add(.notAnInteger(type: name, value: String(n)), path) }
        case (.integer(let name, let low, _, let above), .number(let d)):
            if d.rounded() != d || d < Double(low) || d >= above { add(.notAnInteger(type: name, value: String(d)), path) }
        case (.url, .string(let s)):
            if URL(string: s) == nil { add(.notAURL(s), path) }
        case (.uuid, .string(let s)):
            if UUID(uuidString: s) == nil { add(.notAUUID(s), path) }
        case (.data, .string(let s)):
            if Data(base64Encoded: s) == nil { add(.notBase64(s), path) }
        default: mismatch(type.kind, json, path)
        }
    }

    /// A `Date` number read both ways when it looks like UNIX time (2001 to 2050 as UNIX seconds):
    /// the phone adds it to 2001-01-01, 31 years on.
    mutating func dateReading(_ seconds: Double, text: String, path: String) {
        let offset = Double(LiveActivityLint.referenceDateOffset)
        guard seconds >= offset, seconds < 2_524_608_000 else { return }
        let unix = Int64(seconds)
        add(
            .dateLooksLikeUnixTime(
                given: text, phoneReading: unix + LiveActivityLint.referenceDateOffset, unixReading: unix, send: unix - LiveActivityLint.referenceDateOffset),
            path)
    }

    mutating func appType(_ json: JSONValue, _ declaration: SwiftTypeDeclaration, path: String) {
        if let reason = Self.uncheckedReason(declaration) { return unchecked(reason, path) }
        switch declaration.kind {
        case .alias:
            guard let aliased = declaration.aliased else { return unchecked(.unknownType(declaration.name), path) }
            value(json, as: aliased, scope: Array(declaration.scope.dropLast()), path: path)
        case .enumeration:
            rawValue(json, declaration, path: path)
        case .structure:
            structure(json, declaration, path: path)
        case .classType:
            unchecked(.unsupportedType(declaration.name), path)
        }
    }

    /// Why a declaration is not judged, if it is not.
    public static func uncheckedReason(_ declaration: SwiftTypeDeclaration) -> UncheckedReason? {
        if declaration.customDecoder { return .customDecoder(type: declaration.name) }
        if let macro = declaration.macro { return .macro(type: declaration.name, macro: macro) }
        if let wrapper = declaration.wrapper { return .propertyWrapper(type: declaration.name, wrapper: wrapper) }
        if declaration.generic || declaration.kind == .classType { return .unsupportedType(declaration.name) }
        if declaration.kind == .enumeration && (declaration.rawType == nil || declaration.hasAssociatedValues) { return .unsupportedType(declaration.name) }
        return nil
    }

    mutating func rawValue(_ json: JSONValue, _ declaration: SwiftTypeDeclaration, path: String) {
        let raw = declaration.rawType ?? ""
        let kind = DecodedKind.rawValue(type: declaration.name, rawType: raw)
        let given: String
        let matches: Bool
        switch (raw, json) {
        case (_, .null): return add(.nullValue(expected: kind), path)
        case ("String", .string(let s)), ("Character", .string(let s)):
            given = s
            matches = declaration.rawValues.contains(s)
        case ("Double", .integer(let n)), ("Float", .integer(let n)):
            given = String(n)
            matches = declaration.rawValues.contains { Double($0) == Double(n) }
        case ("Double", .number(let d)), ("Float", .number(let d)):
            given = String(d)
            matches = declaration.rawValues.contains { Double($0) == d }
        case (_, .integer(let n)) where raw.hasPrefix("Int") || raw.hasPrefix("UInt"):
            given = String(n)
            matches = declaration.rawValues.contains { Int64($0) == n }
        case (_, .number(let d)) where raw.hasPrefix("Int") || raw.hasPrefix("UInt"):
            given = String(d)
            matches = d.rounded() == d && abs(d) < 9.2e18 && declaration.rawValues.contains { Int64($0) == Int64(d) }
        default: return mismatch(kind, json, path)
        }
        if !matches { add(.notARawValue(type: declaration.name, value: given, allowed: declaration.rawValues), path) }
    }

    /// The keys a struct's synthesized `init(from:)` reads: each property's key, and whether it is optional.
    public static func decodedKeys(_ declaration: SwiftTypeDeclaration) -> [(key: String, property: StoredProperty)] {
        if let keys = declaration.codingKeys {
            return keys.compactMap { key in declaration.properties.first { $0.name == key.property }.map { (key.key, $0) } }
        }
        return declaration.properties.filter(\.isDecoded).map { ($0.name, $0) }
    }

    mutating func structure(_ json: JSONValue, _ declaration: SwiftTypeDeclaration, path: String) {
        guard case .object(let members) = json else { return mismatch(.object(declaration.name), json, path) }
        let keys = Self.decodedKeys(declaration)
        var missing: [String] = []
        for (key, property) in keys {
            let keyPath = Self.join(path, key)
            guard let type = property.type else {
                unchecked(.unknownType("\(declaration.name).\(property.name)"), keyPath)
                continue
            }
            let given = members.first { $0.0 == key }?.1
            if case .optional = type {
                if let given { value(given, as: type, scope: declaration.scope, path: keyPath) }
            } else if let given {
                value(given, as: type, scope: declaration.scope, path: keyPath)
            } else {
                missing.append(key)
                add(.missingKey(key: key, type: declaration.name), keyPath)
            }
        }
        let read = Set(keys.map(\.key))
        for (key, _) in members where !read.contains(key) {
            let meant = Self.nearMiss(key, among: missing)
            add(.ignoredKey(key: key, type: declaration.name, meant: meant), Self.join(path, key))
        }
    }

    /// `ends_at` for `endsAt` (the same letters, other separators and case), or a slip of one or two letters.
    static func nearMiss(_ key: String, among candidates: [String]) -> String? {
        func letters(_ s: String) -> String { s.lowercased().filter { $0.isLetter || $0.isNumber } }
        return candidates.first { letters($0) == letters(key) } ?? candidates.first { EditDistance.between(Array(key), Array($0)) <= 2 }
    }

    mutating func mismatch(_ expected: DecodedKind, _ json: JSONValue, _ path: String) {
        if json == .null { add(.nullValue(expected: expected), path) } else { add(.wrongType(expected: expected, found: json.kind), path) }
    }

    mutating func unchecked(_ reason: UncheckedReason, _ path: String) {
        let said = "\(reason)"
        guard uncheckedSaid.insert(said).inserted else { return }
        add(.unchecked(reason), path)
    }

    mutating func add(_ problem: AppProblem, _ path: String) { findings.append(AppFinding(problem, field: path)) }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}
