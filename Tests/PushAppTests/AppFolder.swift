import Foundation
import PushApp
import PushCore

/// An app folder a test makes on disk, removed when the test is done.
final class AppFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("pushctl-app-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ name: String, _ text: String) throws { try write(name, Data(text.utf8)) }

    func write(_ name: String, _ data: Data) throws {
        let full = path + "/" + name
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: full))
    }

    /// A property list in binary form, as a built app carries it.
    func writeBinaryPlist(_ name: String, _ value: [String: String]) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        try write(name, try encoder.encode(value))
    }

    func profile() throws -> AppProfile { try AppReader().read(path) }

    /// The app the tests check against: a match tracker with a Live Activity, strings in English
    /// (a catalog with plural variations) and Spanish (a binary .strings), no service extension.
    static func matchApp() throws -> AppFolder {
        let app = try AppFolder()
        try app.write("Match/MatchAttributes.swift", matchAttributes)
        try app.write("Match/Models.swift", models)
        try app.write("Match/Localizable.xcstrings", catalog)
        try app.writeBinaryPlist(
            "Match/es.lproj/Localizable.strings", ["GOAL": "¡Gol de %@!", "SCORE": "%1$@ %2$@", "FOUL": "Falta de %d"])
        try app.write("Match/Info.plist", infoPlist(backgroundModes: ["fetch"]))
        try app.write("Match/Match.entitlements", entitlements(["aps-environment": "<string>development</string>"]))
        try app.write("Match/Sounds/whistle.caf", "not really audio")
        try app.write(".build/Hidden.swift", "struct HiddenAttributes: ActivityAttributes { struct ContentState: Codable { var x: Int } }")
        return app
    }

    static let matchAttributes = """
        import ActivityKit
        import Foundation

        struct MatchAttributes: ActivityAttributes {
            public struct ContentState: Codable, Hashable {
                var home: Int
                var away: Int
                var phase: Phase
                var endsAt: Date
                var scorer: String?
                var lastEvent: Event?
                var tags: [String] = []
                let version: Int = 2

                enum CodingKeys: String, CodingKey {
                    case home = "home_score"
                    case away = "away_score"
                    case phase, endsAt, scorer, lastEvent, tags
                }
            }

            var homeTeam: String
            var awayTeam: String
            var stadium: URL?
        }

        struct TimerAttributes: ActivityAttributes {
            typealias ContentState = TimerState
            var name: String
        }

        struct TimerState: Codable, Hashable {
            var remaining: Double
            init(from decoder: Decoder) throws { remaining = 0 }
        }
        """

    static let models = """
        enum Phase: String, Codable, Hashable {
            case firstHalf = "first-half", halfTime = "half-time", secondHalf = "second-half"
            case finished
        }

        extension MatchAttributes {
            struct Event: Codable, Hashable {
                var minute: Int
                var kind: Kind
                enum Kind: Int, Codable { case goal = 1, card, substitution }
            }
        }
        """

    static let catalog = """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "GOAL" : { "localizations" : { "en" : { "stringUnit" : { "state" : "translated", "value" : "Goal for %@!" } } } },
            "GOALS_COUNT" : {
              "localizations" : {
                "en" : { "variations" : { "plural" : {
                  "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld goal" } },
                  "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld goals" } }
                } } }
              }
            },
            "SCORE" : { "localizations" : { "en" : { "stringUnit" : { "state" : "translated", "value" : "%1$@ – %2$@" } } } },
            "Kick-off" : { }
          },
          "version" : "1.0"
        }
        """

    static func infoPlist(backgroundModes: [String], extensionPoint: String? = nil) -> String {
        let modes = backgroundModes.map { "<string>\($0)</string>" }.joined()
        let ext = extensionPoint.map { "<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>\($0)</string></dict>" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>CFBundleDevelopmentRegion</key><string>en</string>
            <key>CFBundleDisplayName</key><string>Match</string>
            <key>UIBackgroundModes</key><array>\(modes)</array>\(ext)
            </dict></plist>
            """
    }

    static func entitlements(_ entries: [String: String]) -> String {
        let body = entries.sorted { $0.key < $1.key }.map { "<key>\($0.key)</key>\($0.value)" }.joined()
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>\(body)</dict></plist>
            """
    }
}

extension JSONValue {
    /// The test's own JSON text as a value (a test's literal never fails to parse).
    static func of(_ text: String) -> JSONValue {
        guard let value = try? JSONValue.parse(text) else { fatalError("bad test JSON: \(text)") }
        return value
    }
}
