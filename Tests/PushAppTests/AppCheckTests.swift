import Foundation
import PushCore
import PushWords
import Testing

@testable import PushApp

@Suite struct AppReaderTests {
    @Test("the reader finds the app's types, strings in both forms, its Info.plist, entitlements and sounds, and passes over .build")
    func readsTheApp() throws {
        let app = try AppFolder.matchApp()
        let profile = try app.profile()
        #expect(profile.activityTypes.map(\.name) == ["MatchAttributes", "TimerAttributes"])
        #expect(profile.activityTypes.map(\.contentState) == ["MatchAttributes.ContentState", "TimerAttributes.ContentState"])
        #expect(profile.types.types["HiddenAttributes"] == nil)
        #expect(profile.types.types["MatchAttributes.Event.Kind"]?.rawValues == ["1", "2", "3"])
        #expect(profile.types.types["Phase"]?.rawValues == ["first-half", "half-time", "second-half", "finished"])
        let state = try #require(profile.types.types["MatchAttributes.ContentState"])
        #expect(state.codingKeys?.first == CodingKeyCase(property: "home", key: "home_score"))
        #expect(profile.developmentRegion == "en")
        #expect(profile.displayName == "Match")
        #expect(profile.backgroundModes == ["fetch"])
        #expect(profile.apsEnvironment == "development")
        #expect(profile.sounds == ["whistle.caf"])
        #expect(profile.locales == ["en", "es"])
        #expect(profile.strings["es"]?["GOAL"]?.formats == ["¡Gol de %@!"])
        #expect(profile.strings["en"]?["GOALS_COUNT"]?.formats == ["%lld goal", "%lld goals"])
        #expect(profile.strings["en"]?["GOALS_COUNT"]?.pluralVaries == true)
        #expect(profile.strings["en"]?["Kick-off"]?.formats == ["Kick-off"])
        #expect(profile.skipped.isEmpty)
    }

    @Test("a .stringsdict's plural rule and an extension's Info.plist are read for what they are")
    func stringsdictAndExtension() throws {
        let app = try AppFolder()
        try app.write(
            "App/en.lproj/Localizable.stringsdict",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>FILES</key><dict>
            <key>NSStringLocalizedFormatKey</key><string>%1$@ shared %2$#@files@</string>
            <key>files</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key><string>d</string>
            <key>one</key><string>a file</string><key>other</key><string>%d files</string></dict>
            </dict></dict></plist>
            """)
        try app.write("Service/Info.plist", AppFolder.infoPlist(backgroundModes: [], extensionPoint: "com.apple.usernotifications.service"))
        try app.write("Service/Service.entitlements", AppFolder.entitlements([:]))
        try app.write("App/Info.plist", AppFolder.infoPlist(backgroundModes: ["remote-notification"]))
        let profile = try app.profile()
        #expect(profile.serviceExtensions == ["Service"])
        #expect(profile.backgroundModes == ["remote-notification"])
        #expect(profile.entitlementsFiles.isEmpty)
        let files = try #require(profile.strings["en"]?["FILES"])
        #expect(files.variables == [PluralVariable(name: "files", position: nil, specifier: "d", forms: ["a file", "%d files"])])
        let check = AppCheck(app: profile)
        let findings = check.findings(for: .of(#"{"aps":{"alert":{"loc-key":"FILES","loc-args":["Ana","3"]},"mutable-content":1}}"#))
        #expect(findings.map(\.problem) == [.pluralFromString(key: "FILES", position: 2, variable: "files")])
    }

    @Test("a link out of the folder is not followed; a missing folder or a file is refused")
    func bounds() throws {
        let app = try AppFolder()
        let outside = try AppFolder()
        try outside.write("Secret.swift", "struct SecretAttributes: ActivityAttributes { struct ContentState: Codable { var x: Int } }")
        try FileManager.default.createSymbolicLink(atPath: app.path + "/Linked", withDestinationPath: outside.path)
        try app.write("Inside/A.swift", "struct A: Codable { var a: Int }")
        try FileManager.default.createSymbolicLink(atPath: app.path + "/Again", withDestinationPath: app.path + "/Inside")
        let profile = try app.profile()
        #expect(profile.activityTypes.isEmpty)
        #expect(profile.skipped == [SkippedFile(path: "Linked", reason: .linkOutside)])
        #expect(profile.types.types["A"] != nil)
        let missing = try #require(throws: InputError.self) { try AppReader().read(app.path + "/nope") }
        #expect(missing.problem as? AppFolderProblem == .missing(path: app.path + "/nope") && missing.kind == .missingInput)
        let file = try #require(throws: InputError.self) { try AppReader().read(app.path + "/Inside/A.swift") }
        #expect(file.problem as? AppFolderProblem == .notAFolder(path: app.path + "/Inside/A.swift") && file.kind == .usage)
    }

    @Test("limits: so many entries, so deep")
    func limits() throws {
        let app = try AppFolder()
        for i in 0..<30 { try app.write("F\(i).swift", "struct T\(i) {}") }
        try app.write("a/b/c/d/e/Deep.swift", "struct Deep {}")
        var limits = AppReader.Limits()
        limits.entries = 10
        limits.depth = 3
        let profile = try AppReader(limits: limits).read(app.path)
        #expect(profile.swiftFiles == 10)
        #expect(profile.skipped.contains { $0.reason == .tooMany })
        var deep = AppReader.Limits()
        deep.depth = 3
        let shallow = try AppReader(limits: deep).read(app.path)
        #expect(shallow.types.types["Deep"] == nil)
        #expect(shallow.skipped.contains { $0.reason == .tooDeep })
    }
}

@Suite struct AppCheckTests {
    static let goodUpdate = """
        {"aps":{"event":"update","timestamp":1,"content-state":{"home_score":2,"away_score":1,"phase":"second-half",
        "endsAt":786000000,"lastEvent":{"minute":61,"kind":1},"tags":["derby"]},
        "alert":{"title-loc-key":"GOAL","title-loc-args":["Betis"],"loc-key":"SCORE","loc-args":["2","1"]},"sound":"whistle.caf"}}
        """

    func findings(_ payload: String, pushType: PushType? = nil, locale: String? = nil, environment: APNsEnvironment? = nil) throws -> [AppFinding] {
        let app = try AppFolder.matchApp()
        return AppCheck(app: try app.profile()).findings(for: .of(payload), options: .init(pushType: pushType, locale: locale, environment: environment))
    }

    @Test("the matching good payload: nothing found, in English and in Spanish")
    func good() throws {
        #expect(try findings(Self.goodUpdate, pushType: .liveactivity) == [])
        #expect(try findings(Self.goodUpdate, pushType: .liveactivity, locale: "es") == [])
        #expect(try findings(Self.goodUpdate, pushType: .liveactivity, locale: "es_ES") == [])
    }

    @Test("content-state: a missing key, snake_case without CodingKeys, a wrong type, a bad raw value, null, a nested struct")
    func contentState() throws {
        let payload = """
            {"aps":{"event":"update","content-state":{"homeScore":2,"away_score":"1","phase":"halftime","endsAt":null,
            "lastEvent":{"minute":61.5,"kind":9},"tags":[1],"version":3}}}
            """
        let found = try findings(payload, pushType: .liveactivity)
        let failures = found.filter { $0.severity == .willFail }
        #expect(
            failures.map(\.field) == [
                "aps.content-state.home_score", "aps.content-state.away_score", "aps.content-state.phase", "aps.content-state.endsAt",
                "aps.content-state.lastEvent.minute", "aps.content-state.lastEvent.kind", "aps.content-state.tags[0]",
            ])
        #expect(failures[0].problem == .missingKey(key: "home_score", type: "MatchAttributes.ContentState"))
        #expect(failures[1].problem == .wrongType(expected: .integer("Int"), found: .string))
        #expect(failures[2].problem == .notARawValue(type: "Phase", value: "halftime", allowed: ["first-half", "half-time", "second-half", "finished"]))
        #expect(failures[3].problem == .nullValue(expected: .date))
        #expect(failures[4].problem == .notAnInteger(type: "Int", value: "61.5"))
        #expect(found.contains { $0.problem == .ignoredKey(key: "homeScore", type: "MatchAttributes.ContentState", meant: "home_score") })
        // A `let` with a value is never decoded: the key is ignored, not checked.
        #expect(found.contains { $0.problem == .ignoredKey(key: "version", type: "MatchAttributes.ContentState", meant: nil) })
    }

    @Test("a Date given UNIX time is read both ways, with the number to send")
    func unixDate() throws {
        let found = try findings(#"{"aps":{"content-state":{"home_score":0,"away_score":0,"phase":"finished","endsAt":1764300000}}}"#)
        let date = try #require(found.first { $0.field == "aps.content-state.endsAt" })
        #expect(date.problem == .dateLooksLikeUnixTime(given: "1764300000", phoneReading: 2_742_607_200, unixReading: 1_764_300_000, send: 785_992_800))
        #expect(date.severity == .willLookWrong)
        #expect(date.text.en.contains("2056-11-28") && date.text.en.contains("2025-11-28") && date.text.en.contains("send 785992800"))
        #expect(date.text.es.contains("envía 785992800"))
    }

    @Test("push-to-start: attributes-type names a declared type, attributes decode into it; a custom decoder is unchecked, not guessed")
    func start() throws {
        let unknown = try findings(#"{"aps":{"event":"start","attributes-type":"Match","attributes":{},"content-state":{}}}"#)
        #expect(unknown.map(\.problem) == [.unknownAttributesType(given: "Match", declared: ["MatchAttributes", "TimerAttributes"])])
        let start = try findings(
            #"{"aps":{"event":"start","attributes-type":"MatchAttributes","attributes":{"homeTeam":"Betis","stadium":""},"content-state":{"home_score":0,"away_score":0,"phase":"first-half","endsAt":786000000,"tags":[]}}}"#
        )
        #expect(start.map(\.problem) == [.missingKey(key: "awayTeam", type: "MatchAttributes"), .notAURL("")])
        let timer = try findings(#"{"aps":{"event":"update","attributes-type":"TimerAttributes","content-state":{"anything":true}}}"#)
        #expect(timer.map(\.problem) == [.unchecked(.customDecoder(type: "TimerState"))])
        #expect(timer.allSatisfy { $0.severity == .note })
    }

    @Test("alert strings: a key missing in the locale, too few arguments, a non-string specifier, a plural variation")
    func strings() throws {
        let missing = try findings(#"{"aps":{"alert":{"loc-key":"GOALS_COUNT","loc-args":["3"]}}}"#, locale: "es")
        #expect(missing.map(\.problem) == [.locKeyMissing(key: "GOALS_COUNT", locale: "es", locales: ["en"])])
        #expect(missing[0].text.en.contains("shows the key itself"))
        let plural = try findings(#"{"aps":{"alert":{"loc-key":"GOALS_COUNT","loc-args":["3"]}}}"#)
        #expect(plural.map(\.problem) == [.pluralFromString(key: "GOALS_COUNT", position: 1, variable: "%lld")])
        let few = try findings(#"{"aps":{"alert":{"loc-key":"SCORE","loc-args":["2"],"title-loc-key":"GOAL","title-loc-args":["a","b"]}}}"#)
        #expect(few.map(\.problem) == [.locArgsTooFew(key: "SCORE", needed: 2, given: 1), .locArgsUnused(key: "GOAL", used: 1, given: 2)])
        let specifier = try findings(#"{"aps":{"alert":{"loc-key":"FOUL","loc-args":["Ana"]}}}"#, locale: "es")
        #expect(specifier.map(\.problem) == [.locArgNotString(key: "FOUL", position: 1, specifier: "%d")])
        let unknownLocale = try findings(#"{"aps":{"alert":{"loc-key":"GOAL","loc-args":["x"]}}}"#, locale: "fr")
        // A language the app lacks: the phone falls back to the development region's strings.
        #expect(unknownLocale.map(\.problem) == [.localeNotInApp(locale: "fr", locales: ["en", "es"])])
    }

    @Test("capabilities: background mode, interruption levels, the service extension, the sound, the environment")
    func capabilities() throws {
        let background = try findings(#"{"aps":{"content-available":1}}"#)
        #expect(background.map(\.problem) == [.backgroundModeMissing])
        #expect(background[0].severity == .willFail)
        let alert = try findings(
            #"{"aps":{"alert":"hi","interruption-level":"time-sensitive","mutable-content":1,"sound":{"name":"goal.caf","critical":1}}}"#,
            environment: .production)
        #expect(
            alert.map(\.problem) == [
                .environmentMismatch(sending: "production", app: "development"),
                .interruptionLevelNotEntitled(level: "time-sensitive", entitlement: "com.apple.developer.usernotifications.time-sensitive"),
                .interruptionLevelNotEntitled(level: "critical", entitlement: "com.apple.developer.usernotifications.critical-alerts"),
                .noServiceExtension,
                .soundNotShipped(name: "goal.caf", shipped: ["whistle.caf"]),
            ])
        #expect(try findings(#"{"aps":{"alert":"hi","sound":"default"}}"#, environment: .sandbox) == [])
    }

    @Test("every finding reads in English and Spanish, and what it echoes is bounded and has no control characters")
    func words() throws {
        let long = String(repeating: "x", count: 500) + "\u{1B}[31m"
        let problems: [AppProblem] = [
            .missingKey(key: long, type: "T"), .locKeyMissing(key: long, locale: "en", locales: []), .soundNotShipped(name: long, shipped: [long]),
            .notAURL(long), .unknownAttributesType(given: long, declared: []), .ignoredKey(key: long, type: "T", meant: long),
        ]
        for problem in problems {
            let finding = AppFinding(problem, field: long)
            for language in Language.allCases {
                let text = finding.text.text(language)
                #expect(!text.isEmpty && text.count < 900)
                #expect(!text.unicodeScalars.contains { $0.value == 0x1B })
            }
            #expect(finding.text.en != finding.text.es)
        }
    }
}
