import PushApp
import PushCore
import PushWords
import PushctlCommandLine

/// What `check` prints: the findings, or what was found in the app, as text in the chosen
/// language or as JSON (keys and codes never translated; `message` and `fix` in the language).
enum AppListing {
    // MARK: Findings

    static func text(_ findings: [AppFinding], in language: Language) -> String {
        guard !findings.isEmpty else {
            return Words("nothing found: the phone should show it as sent", es: "nada que señalar: el teléfono debería mostrarla tal como se envía").text(
                language, naming: FlagNames.naming)
        }
        let failing = findings.filter { $0.severity == .willFail }.count
        let summary = Words(
            "\(findings.count) finding(s), \(failing) that will fail on the phone",
            es: "\(findings.count) hallazgo(s), \(failing) que fallará(n) en el teléfono")
        return (findings.map { $0.text.text(language, naming: FlagNames.naming) } + [summary.text(language, naming: FlagNames.naming)]).joined(separator: "\n")
    }

    static func json(_ findings: [AppFinding], profile: AppProfile, locale: String, in language: Language) -> JSONValue {
        let items: [JSONValue] = findings.map { finding in
            guard case .object(var members) = finding.json else { return finding.json }
            members.append(("message", .string(finding.problem.words.text(language, naming: FlagNames.naming))))
            members.append(("fix", .string(finding.problem.fix.text(language, naming: FlagNames.naming))))
            return .object(members)
        }
        return .object([
            ("app", .string(profile.root)), ("locale", .string(locale)),
            ("willFail", .bool(findings.contains { $0.severity == .willFail })), ("findings", .array(items)),
        ])
    }

    // MARK: What the app has

    static func text(_ profile: AppProfile, in language: Language) -> String {
        var lines: [String] = []
        func line(_ label: Words, _ value: String) {
            lines.append(label.text(language, naming: FlagNames.naming) + ": " + OutsideText.display(value, limit: 300))
        }
        let none = Words("none found", es: "no se encontró").text(language, naming: FlagNames.naming)
        func list(_ items: [String]) -> String { items.isEmpty ? none : items.joined(separator: ", ") }
        line(Words(verbatim: "app"), profile.root)
        line(Words("name shown", es: "nombre que se muestra"), profile.displayName ?? none)
        line(Words("development region", es: "región de desarrollo"), profile.developmentRegion ?? none)
        let counts = profile.locales.map { "\($0) (\(profile.strings[$0]?.count ?? 0))" }
        line(Words("Localizable strings (keys)", es: "cadenas Localizable (claves)"), list(counts))
        line(Words("background modes", es: "modos en segundo plano"), list(profile.backgroundModes))
        line(Words(verbatim: "aps-environment"), profile.apsEnvironment ?? none)
        var entitled: [String] = []
        if profile.timeSensitive { entitled.append("time-sensitive") }
        if profile.criticalAlerts { entitled.append("critical-alerts") }
        line(Words("interruption levels entitled", es: "niveles de interrupción con entitlement"), list(entitled))
        line(Words(verbatim: "Notification Service Extensions"), list(profile.serviceExtensions))
        line(Words("sounds", es: "sonidos"), list(profile.sounds))
        line(Words("Swift files read", es: "archivos Swift leídos"), String(profile.swiftFiles))
        let activities = profile.activityTypes
        line(Words("Live Activity types", es: "tipos de Live Activity"), activities.isEmpty ? none : String(activities.count))
        for activity in activities {
            lines.append("  \(activity.shortName): " + fields(of: activity.name, profile, language))
            lines.append("    ContentState: " + (activity.contentState.map { fields(of: $0, profile, language) } ?? none))
        }
        if !profile.skipped.isEmpty {
            let shown = profile.skipped.prefix(10).map { "\($0.path) (\(reasonWords($0.reason).text(language, naming: FlagNames.naming)))" }
            line(Words("not read", es: "sin leer"), shown.joined(separator: ", ") + (profile.skipped.count > 10 ? ", …" : ""))
        }
        return lines.joined(separator: "\n")
    }

    /// `home_score: Int, scorer: String? (optional)`, or why the type is not checked.
    static func fields(of name: String, _ profile: AppProfile, _ language: Language) -> String {
        guard let declaration = profile.types.declaration(named: name) else {
            return UncheckedReason.unknownType(name).words.text(language, naming: FlagNames.naming)
        }
        if let reason = DecodeCheck.uncheckedReason(declaration) { return reason.words.text(language, naming: FlagNames.naming) }
        let keys = DecodeCheck.decodedKeys(declaration)
        if keys.isEmpty { return "{}" }
        return OutsideText.display(keys.map { "\($0.key): \($0.property.type?.description ?? "?")" }.joined(separator: ", "), limit: 600)
    }

    static func reasonWords(_ reason: SkippedFile.Reason) -> Words {
        switch reason {
        case .tooLarge: return Words("too large", es: "demasiado grande")
        case .unreadable: return Words("unreadable", es: "ilegible")
        case .linkOutside: return Words("a link out of the app's folder", es: "un enlace fuera de la carpeta de la app")
        case .tooDeep: return Words("too deep", es: "demasiado profundo")
        case .tooMany: return Words("over the limit of files", es: "por encima del límite de archivos")
        }
    }

    static func json(_ profile: AppProfile) -> JSONValue {
        func list(_ items: [String]) -> JSONValue { .array(items.map(JSONValue.string)) }
        let activities: [JSONValue] = profile.activityTypes.map { activity in
            .object([
                ("name", .string(activity.shortName)), ("type", .string(activity.name)), ("contentState", activity.contentState.map(JSONValue.string) ?? .null),
            ])
        }
        return .object([
            ("app", .string(profile.root)), ("displayName", profile.displayName.map(JSONValue.string) ?? .null),
            ("developmentRegion", profile.developmentRegion.map(JSONValue.string) ?? .null), ("locales", list(profile.locales)),
            ("backgroundModes", list(profile.backgroundModes)), ("apsEnvironment", profile.apsEnvironment.map(JSONValue.string) ?? .null),
            ("timeSensitive", .bool(profile.timeSensitive)), ("criticalAlerts", .bool(profile.criticalAlerts)),
            ("serviceExtensions", list(profile.serviceExtensions)), ("sounds", list(profile.sounds)), ("liveActivities", .array(activities)),
            ("swiftFiles", .integer(Int64(profile.swiftFiles))), ("skipped", list(profile.skipped.map(\.path))),
        ])
    }
}
