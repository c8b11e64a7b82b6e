import Foundation
import Testing

/// `pushctl check --app`, end to end: the built pushctl hands over to pushctl-app, which reads a
/// real app folder and says what the phone will do with a payload.
@Suite struct CheckCommandTests {
    let dir = try! TemporaryDirectory()

    func makeApp() throws -> String {
        for folder in ["App/Match/es.lproj", "App/Match/en.lproj"] {
            try FileManager.default.createDirectory(atPath: dir.path(folder), withIntermediateDirectories: true)
        }
        try dir.write(
            "App/Match/MatchAttributes.swift",
            """
            import ActivityKit
            struct MatchAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var home: Int
                    var endsAt: Date
                    var scorer: String?
                    enum CodingKeys: String, CodingKey { case home = "home_score", endsAt, scorer }
                }
                var team: String
            }
            """)
        try dir.write(
            "App/Match/es.lproj/Localizable.strings", "\"GOAL\" = \"¡Gol de %@!\";\n")
        try dir.write(
            "App/Match/en.lproj/Localizable.strings", "\"GOAL\" = \"Goal for %@!\";\n")
        try dir.write(
            "App/Match/Info.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleDevelopmentRegion</key><string>en</string>
            <key>CFBundleDisplayName</key><string>Match</string></dict></plist>
            """)
        return dir.path("App")
    }

    @Test("a Live Activity update that will not decode: the key, the Date both ways, exit 65; the good one: exit 0")
    func findings() throws {
        let app = try makeApp()
        try dir.write("bad.json", #"{"aps":{"event":"update","timestamp":1,"content-state":{"home":1,"endsAt":1764300000}}}"#)
        let bad = try CLI.pushctl(["check", "--app", app, dir.path("bad.json")])
        #expect(bad.status == 65, "\(bad.stderr)")
        #expect(bad.stdout.contains("will fail on the phone: aps.content-state.home_score:"), "\(bad.stdout)")
        #expect(bad.stdout.contains("2056-11-28") && bad.stdout.contains("send 785992800"), "\(bad.stdout)")
        #expect(bad.stdout.split(separator: "\n").allSatisfy { $0.count < 400 })
        let spanish = try CLI.pushctl(["--lang", "es", "check", dir.path("bad.json")], env: ["PUSHCTL_APP": app])
        #expect(spanish.status == 65)
        #expect(spanish.stdout.contains("fallará en el teléfono") && spanish.stdout.contains("envía 785992800"), "\(spanish.stdout)")

        try dir.write(
            "good.json",
            #"{"aps":{"event":"update","timestamp":1,"content-state":{"home_score":1,"endsAt":786000000},"alert":{"loc-key":"GOAL","loc-args":["Betis"]}}}"#)
        let good = try CLI.pushctl(["check", "--app", app, "--locale", "es", dir.path("good.json")])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        #expect(good.stdout.contains("nothing found"))
    }

    @Test("--output json: each finding's severity, field, code and parameters, its words in the language asked for")
    func json() throws {
        let app = try makeApp()
        let result = try CLI.pushctl(
            ["check", "--app", app, "--output", "json", "--lang", "es", "--push-type", "background", "-"],
            stdin: #"{"aps":{"alert":{"loc-key":"GOALS","loc-args":["a"]},"content-available":1}}"#)
        #expect(result.status == 65, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["willFail"] as? Bool == true)
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.map { $0["code"] as? String } == ["background-mode-missing", "loc-key-missing"])
        #expect(findings.map { $0["severity"] as? String } == ["will-fail", "will-look-wrong"])
        #expect((findings[1]["parameters"] as? [String: Any])?["key"] as? String == "GOALS")
        #expect((findings[1]["message"] as? String)?.contains("el teléfono muestra la clave tal cual") == true)
    }

    @Test("with no payload it lists what it found; a missing app or none given is refused with its exit status")
    func listingAndRefusals() throws {
        let app = try makeApp()
        let listing = try CLI.pushctl(["check", "--app", app])
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("name shown: Match"))
        #expect(listing.stdout.contains("Localizable strings (keys): en (1), es (1)"), "\(listing.stdout)")
        #expect(listing.stdout.contains("ContentState: home_score: Int, endsAt: Date, scorer: String?"), "\(listing.stdout)")
        let missing = try CLI.pushctl(["check", "--app", dir.path("nope")])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("--app '\(dir.path("nope"))' does not exist"), "\(missing.stderr)")
        let none = try CLI.pushctl(["check"], env: ["PUSHCTL_APP": ""])
        #expect(none.status == 64)
        #expect(none.stderr.contains("--app PATH (or PUSHCTL_APP)"))
    }
}
