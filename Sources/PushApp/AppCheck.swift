public import PushCore

/// What the phone will do with a payload sent to this app: the Live Activity types, the alert's
/// strings in the chosen locale, and the capabilities the payload relies on.
public struct AppCheck: Sendable {
    public struct Options: Sendable {
        /// `apns-push-type`; nil reads it from the payload as APNs would guess it.
        public var pushType: PushType?
        /// The language the alert is read in (`es`, `pt-BR`); nil for the app's development region.
        public var locale: String?
        /// The APNs environment it is sent to, when known.
        public var environment: APNsEnvironment?

        public init(pushType: PushType? = nil, locale: String? = nil, environment: APNsEnvironment? = nil) {
            self.pushType = pushType
            self.locale = locale
            self.environment = environment
        }
    }

    public let app: AppProfile
    public init(app: AppProfile) { self.app = app }

    /// Every finding, worst first, then by field.
    public func findings(for payload: JSONValue, options: Options = Options()) -> [AppFinding] {
        var found: [AppFinding] = []
        let aps = payload["aps"] ?? .object([])
        let pushType = options.pushType ?? Self.impliedPushType(aps)
        if pushType == .liveactivity || aps["content-state"] != nil || aps["attributes-type"] != nil {
            found += liveActivity(aps)
        }
        found += alertStrings(aps, locale: options.locale)
        found += capabilities(aps, pushType: pushType, environment: options.environment)
        return found.enumerated().sorted { ($0.element.severity, $0.offset) < ($1.element.severity, $1.offset) }.map(\.element)
    }

    /// The push type a payload implies when none is given: background for content-available alone.
    static func impliedPushType(_ aps: JSONValue) -> PushType {
        if aps["content-state"] != nil || aps["event"] != nil { return .liveactivity }
        let shows = aps["alert"] != nil || aps["sound"] != nil || aps["badge"] != nil
        return aps["content-available"] == .integer(1) && !shows ? .background : .alert
    }

    // MARK: Live Activities

    func liveActivity(_ aps: JSONValue) -> [AppFinding] {
        let declared = app.activityTypes
        guard !declared.isEmpty else { return [AppFinding(.noActivityTypes, field: "aps.content-state")] }
        var found: [AppFinding] = []
        var candidates = declared
        if let named = aps["attributes-type"] {
            guard let name = named.stringValue, let type = declared.first(where: { $0.shortName == name || $0.name == name }) else {
                return [
                    AppFinding(
                        .unknownAttributesType(given: named.stringValue ?? named.compact, declared: declared.map(\.shortName)), field: "aps.attributes-type")
                ]
            }
            candidates = [type]
            if let attributes = aps["attributes"] {
                found += DecodeCheck.check(attributes, as: type.name, index: app.types, path: "aps.attributes")
            }
        }
        guard let state = aps["content-state"] else { return found }
        // With several types and no attributes-type, the state is judged against the type that
        // reads most of its keys (then the one it fails least): the one the sender meant.
        var results: [(type: ActivityType, overlap: Int, findings: [AppFinding])] = []
        let given = Set(state.objectMembers?.map(\.0) ?? [])
        for type in candidates {
            guard let stateType = type.contentState else {
                results.append((type, 0, [AppFinding(.unchecked(.unknownType(type.name + ".ContentState")), field: "aps.content-state")]))
                continue
            }
            let reads = app.types.declaration(named: stateType).map { Set(DecodeCheck.decodedKeys($0).map(\.key)) } ?? []
            results.append((type, reads.intersection(given).count, DecodeCheck.check(state, as: stateType, index: app.types, path: "aps.content-state")))
        }
        let failures = { (list: [AppFinding]) in list.filter { $0.severity == .willFail }.count }
        let best = results.min { ($1.overlap, failures($0.findings)) < ($0.overlap, failures($1.findings)) }!
        if candidates.count > 1 && failures(best.findings) > 0 {
            found.append(AppFinding(.activityTypeAmbiguous(declared: declared.map(\.shortName)), field: "aps.content-state"))
        }
        return found + best.findings
    }

    // MARK: Alert strings

    func alertStrings(_ aps: JSONValue, locale requested: String?) -> [AppFinding] {
        guard let alert = aps["alert"], case .object = alert else { return [] }
        var locale = app.locale(requested)
        var found: [AppFinding] = []
        if let requested, app.strings[locale] == nil, !app.strings.isEmpty {
            // The phone falls back to the development region's strings.
            found.append(AppFinding(.localeNotInApp(locale: requested, locales: app.locales), field: "locale"))
            locale = app.locale(nil)
        }
        for (keyField, argsField) in [("title-loc-key", "title-loc-args"), ("subtitle-loc-key", "subtitle-loc-args"), ("loc-key", "loc-args")] {
            guard let key = alert[keyField]?.stringValue else { continue }
            let arguments = alert[argsField]?.array ?? []
            guard let format = app.strings[locale]?[key] else {
                let having = app.locales.filter { app.strings[$0]?[key] != nil }
                found.append(AppFinding(.locKeyMissing(key: key, locale: locale, locales: having), field: "aps.alert.\(keyField)"))
                continue
            }
            found += Self.arguments(key: key, format: format, given: arguments.count, field: "aps.alert.\(argsField)")
        }
        return found
    }

    /// loc-args against the format's specifiers: how many, which positions, and their types.
    static func arguments(key: String, format: LocalizedFormat, given: Int, field: String) -> [AppFinding] {
        var found: [AppFinding] = []
        var needed = 0
        var reported: Set<Int> = []
        for text in format.formats {
            var next = 1
            for specifier in FormatSpecifier.all(in: text) {
                let position = specifier.position ?? next
                if specifier.position == nil { next += 1 }
                needed = max(needed, position)
                if let variable = specifier.variable {
                    let rule = format.variables.first { $0.name == variable }
                    let at = rule?.position ?? position
                    needed = max(needed, at)
                    if reported.insert(at).inserted { found.append(AppFinding(.pluralFromString(key: key, position: at, variable: variable), field: field)) }
                } else if specifier.conversion != "@" {
                    guard reported.insert(position).inserted else { continue }
                    if format.pluralVaries {
                        found.append(AppFinding(.pluralFromString(key: key, position: position, variable: specifier.text), field: field))
                    } else {
                        found.append(AppFinding(.locArgNotString(key: key, position: position, specifier: specifier.text), field: field))
                    }
                }
            }
        }
        if given < needed { found.append(AppFinding(.locArgsTooFew(key: key, needed: needed, given: given), field: field)) }
        if given > needed { found.append(AppFinding(.locArgsUnused(key: key, used: needed, given: given), field: field)) }
        return found
    }

    // MARK: Capabilities

    func capabilities(_ aps: JSONValue, pushType: PushType, environment: APNsEnvironment?) -> [AppFinding] {
        var found: [AppFinding] = []
        if pushType == .background && !app.backgroundModes.contains("remote-notification") {
            found.append(AppFinding(.backgroundModeMissing, field: "aps.content-available"))
        }
        if let level = aps["interruption-level"]?.stringValue {
            if level == "time-sensitive" && !app.timeSensitive {
                found.append(
                    AppFinding(
                        .interruptionLevelNotEntitled(level: level, entitlement: "com.apple.developer.usernotifications.time-sensitive"),
                        field: "aps.interruption-level"))
            }
            if level == "critical" && !app.criticalAlerts {
                found.append(
                    AppFinding(
                        .interruptionLevelNotEntitled(level: level, entitlement: "com.apple.developer.usernotifications.critical-alerts"),
                        field: "aps.interruption-level"))
            }
        }
        let sound = aps["sound"]
        if sound?["critical"] == .integer(1), !app.criticalAlerts, aps["interruption-level"]?.stringValue != "critical" {
            found.append(
                AppFinding(
                    .interruptionLevelNotEntitled(level: "critical", entitlement: "com.apple.developer.usernotifications.critical-alerts"),
                    field: "aps.sound.critical"))
        }
        if aps["mutable-content"] == .integer(1) && app.serviceExtensions.isEmpty {
            found.append(AppFinding(.noServiceExtension, field: "aps.mutable-content"))
        }
        if let name = sound?.stringValue ?? sound?["name"]?.stringValue, name != "default", !name.isEmpty, !app.sounds.contains(name) {
            found.append(AppFinding(.soundNotShipped(name: name, shipped: app.sounds), field: sound?.stringValue != nil ? "aps.sound" : "aps.sound.name"))
        }
        if !app.entitlementsFiles.isEmpty {
            if let declared = app.apsEnvironment, let environment {
                let sending = environment == .sandbox ? "development" : "production"
                if declared != sending { found.append(AppFinding(.environmentMismatch(sending: sending, app: declared), field: "aps-environment")) }
            } else if app.apsEnvironment == nil {
                found.append(AppFinding(.pushNotEntitled, field: "aps-environment"))
            }
        }
        return found
    }
}

/// A printf-style specifier in a localized format: `%@`, `%1$@`, `%lld`, `%#@files@`.
struct FormatSpecifier: Equatable {
    /// `2` for `%2$@`; nil when it takes the next argument.
    let position: Int?
    /// The conversion with its length (`@`, `d`, `lld`, `.2f`'s `f`).
    let conversion: String
    /// The variable of `%#@name@`.
    let variable: String?
    /// As written.
    let text: String

    static func all(in format: String) -> [FormatSpecifier] {
        var found: [FormatSpecifier] = []
        let chars = Array(format)
        var i = 0
        while i < chars.count {
            guard chars[i] == "%" else {
                i += 1
                continue
            }
            let start = i
            i += 1
            guard i < chars.count else { break }
            if chars[i] == "%" {
                i += 1
                continue
            }
            var digits = ""
            var j = i
            while j < chars.count, chars[j].isASCII, chars[j].isNumber {
                digits.append(chars[j])
                j += 1
            }
            var position: Int?
            if j < chars.count, chars[j] == "$", !digits.isEmpty {
                position = Int(digits)
                i = j + 1
            }
            if i + 1 < chars.count, chars[i] == "#", chars[i + 1] == "@" {
                var name = ""
                var k = i + 2
                while k < chars.count, chars[k] != "@" {
                    name.append(chars[k])
                    k += 1
                }
                i = min(k + 1, chars.count)
                found.append(FormatSpecifier(position: position, conversion: "@", variable: name, text: String(chars[start..<i])))
                continue
            }
            while i < chars.count, "-+ #0'".contains(chars[i]) { i += 1 }
            while i < chars.count, chars[i].isASCII, chars[i].isNumber || chars[i] == "." || chars[i] == "*" { i += 1 }
            var conversion = ""
            while i < chars.count, "hlqLzjt".contains(chars[i]) {
                conversion.append(chars[i])
                i += 1
            }
            guard i < chars.count, "@dDiuUxXoOfFeEgGcCsSpaA".contains(chars[i]) else { continue }
            conversion.append(chars[i])
            i += 1
            found.append(FormatSpecifier(position: position, conversion: conversion, variable: nil, text: String(chars[start..<i])))
        }
        return found
    }
}

extension JSONValue {
    var array: [JSONValue]? { if case .array(let items) = self { return items } else { return nil } }
}
