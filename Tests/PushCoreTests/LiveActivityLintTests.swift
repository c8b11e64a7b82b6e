import PushWords
import Testing

@testable import PushCore

/// Every rule of the Live Activity lint, one case each: the mistakes APNs answers 200 to and a
/// device then drops.
struct LiveActivityLintTests {
    static let now: Int64 = 1_800_000_000

    static func findings(_ aps: String, priority: Priority = .considerate) throws -> [LiveActivityFinding] {
        LiveActivityLint.findings(try JSONValue.parse(#"{"aps":\#(aps)}"#), priority: priority, now: now)
    }
    static func errors(_ aps: String) throws -> [String] { try findings(aps).filter(\.isError).map(\.rule) }
    static func warnings(_ aps: String, priority: Priority = .considerate) throws -> [String] {
        try findings(aps, priority: priority).filter { !$0.isError }.map(\.rule)
    }

    static let update = #"{"event":"update","timestamp":1800000000,"content-state":{"score":1}}"#

    @Test func aCorrectUpdatePasses() throws {
        #expect(try Self.findings(Self.update).isEmpty)
        let start = #"{"event":"start","timestamp":1,"content-state":{},"alert":{"title":"t"},"attributes-type":"A","attributes":{},"input-push-token":1}"#
        #expect(try Self.errors(start).isEmpty)
        #expect(try Self.errors(#"{"event":"end","timestamp":1,"dismissal-date":1800003600}"#).isEmpty)
    }

    @Test(arguments: [
        (#"{"timestamp":1,"content-state":{}}"#, "event"),
        (#"{"event":"stop","timestamp":1,"content-state":{}}"#, "event"),
        (#"{"event":1,"timestamp":1,"content-state":{}}"#, "event"),
        (#"{"event":"update","content-state":{}}"#, "timestamp"),
        (#"{"event":"update","timestamp":"1800000000","content-state":{}}"#, "timestamp"),
        (#"{"event":"update","timestamp":1.5,"content-state":{}}"#, "timestamp"),
        (#"{"event":"update","timestamp":1}"#, "content-state"),
        (#"{"event":"update","timestamp":1,"content-state":[1]}"#, "content-state"),
        (#"{"event":"start","timestamp":1,"content-state":{},"attributes-type":"A","attributes":{}}"#, "start-alert"),
        (#"{"event":"start","timestamp":1,"content-state":{},"alert":"x","attributes":{}}"#, "start-attributes"),
        (#"{"event":"start","timestamp":1,"content-state":{},"alert":"x","attributes-type":"A"}"#, "start-attributes"),
        (#"{"event":"update","timestamp":1,"content-state":{},"input-push-token":1}"#, "start-only"),
        (#"{"event":"update","timestamp":1,"content-state":{},"input-push-channel":"abc="}"#, "start-only"),
        (#"{"event":"update","timestamp":1,"content-state":{},"dismissal-date":1}"#, "dismissal-date"),
        (#"{"event":"end","timestamp":1,"dismissal-date":1800014401}"#, "dismissal-date"),
        (#"{"event":"end","timestamp":1,"dismissal-date":"soon"}"#, "dismissal-date"),
        (#"{"event":"update","timestamp":1,"content-state":{},"stale-date":"x"}"#, "stale-date"),
        (#"{"event":"update","timestamp":1,"content-state":{},"relevance-score":"high"}"#, "relevance-score"),
        (#"{"events":"update","event":"update","timestamp":1,"content-state":{}}"#, "known-keys"),
        (#"{"event":"update","timestamp":1,"content-state":{},"state-date":1}"#, "known-keys"),
        (#"{"event":"update","timestamp":1,"content-state":{},"stale_date":1}"#, "known-keys"),
        (#"{"event":"update","timestamp":1,"content_state":{},"content-state":{}}"#, "known-keys"),
        (#"{"event":"update","timestamp":1,"contentState":{},"content-state":{}}"#, "known-keys"),
        (#"{"event":"update","timestamp":1,"content-state":{},"target-content-identifier":"x"}"#, "known-keys"),
    ])
    func refusals(_ aps: String, _ rule: String) throws {
        let all = try Self.findings(aps)
        #expect(all.filter(\.isError).map(\.rule).contains(rule), "\(aps): \(all.map(\.text))")
    }

    @Test func misspellingsSayWhatWasMeant() throws {
        let finding = try #require(try Self.findings(#"{"event":"update","timestamp":1,"content-state":{},"state-date":1}"#).first { $0.rule == "known-keys" })
        #expect(finding.message.en.contains(#"did you mean "stale-date""#) && finding.message.es.contains(#"¿querías decir "stale-date"?"#))
    }

    @Test func warnings() throws {
        #expect(try Self.warnings(#"{"event":"update","timestamp":1,"content-state":{},"stale-date":1700000000}"#) == ["stale-date"])
        #expect(try Self.warnings(#"{"event":"update","timestamp":1,"content-state":{"eta":{"arrivalDate":1800000000}}}"#) == ["content-state-date"])
        #expect(try Self.warnings(#"{"event":"update","timestamp":1,"content-state":{"updatedAt":1800000000.5}}"#) == ["content-state-date"])
        // Seconds since 2001 (what the decoder wants), and numbers under other names, pass.
        #expect(try Self.warnings(#"{"event":"update","timestamp":1,"content-state":{"endDate":821692800,"score":1800000000}}"#).isEmpty)
        #expect(try Self.warnings(Self.update, priority: .immediate) == ["priority"])
        #expect(try Self.warnings(#"{"event":"update","timestamp":1,"content-state":{},"mood":"x"}"#) == ["unknown-key"])
        let date = try #require(try Self.findings(#"{"event":"update","timestamp":1,"content-state":{"endDate":1800000000}}"#).first)
        #expect(date.fix.en.contains("821692800") && date.fix.es.contains("821692800"))
    }

    @Test func theTemplateRefusesUnlessToldNotTo() throws {
        let payload = Payload(json: try JSONValue.parse(#"{"aps":{"event":"update","timestamp":1}}"#))
        var spec = PushSpec(topic: "com.example.app", pushType: .liveactivity)
        #expect(throws: InputError.self) { try PushTemplate(spec, payload: payload) }
        spec.lint = false
        #expect(try PushTemplate(spec, payload: payload).topic == "com.example.app.push-type.liveactivity")
        // Live Activity keys sent as an alert: a hint, not a refusal.
        let alert = try PushTemplate(PushSpec(topic: "com.example.app"), payload: payload)
        #expect(alert.warnings(sending: 1).contains { $0.words.en.contains("apns-push-type liveactivity (or aps.event update)") })
    }

    @Test func theBuilderWritesApplesKeys() throws {
        var b = LiveActivityBuilder(event: .start)
        b.contentState = .object([("score", .integer(1))])
        b.attributesType = "Match"
        b.attributes = .object([])
        b.title = "Kick-off"
        b.inputPushToken = true
        b.staleDate = 1_800_003_600
        b.relevanceScore = 50
        let json = b.build(now: Self.now).json
        #expect(json["aps"]?["timestamp"] == .integer(Self.now))
        #expect(json["aps"]?["event"] == .string("start"))
        #expect(json["aps"]?["input-push-token"] == .integer(1))
        #expect(json["aps"]?["relevance-score"] == .integer(50))
        #expect(LiveActivityLint.findings(json, priority: .considerate, now: Self.now).filter(\.isError).isEmpty)
    }

    @Test func broadcasts() throws {
        let update = Payload(json: try JSONValue.parse(#"{"aps":\#(Self.update)}"#))
        let template = try BroadcastTemplate(PushSpec(topic: "com.example.app"), payload: update, requestID: nil)
        #expect(template.expiration == 0 && template.expirationDefaulted)
        let request = template.request(channelID: "dGVzdA==")
        #expect(request.path == "/4/broadcasts/apps/com.example.app")
        #expect(request.shape.headerLines.contains("apns-channel-id: dGVzdA=="))
        #expect(request.shape.headerLines.contains("apns-expiration: 0"))
        #expect(request.shape.headerLines.contains("apns-push-type: liveactivity"))
        #expect(throws: InputError.self) { try BroadcastTemplate(PushSpec(topic: "com.example.app.push-type.liveactivity"), payload: update, requestID: nil) }
        let start = Payload(
            json: try JSONValue.parse(#"{"aps":{"event":"start","timestamp":1,"content-state":{},"alert":"x","attributes-type":"A","attributes":{}}}"#))
        #expect(throws: InputError.self) { try BroadcastTemplate(PushSpec(topic: "com.example.app"), payload: start, requestID: nil) }
        let big = Payload(
            json: .object([
                (
                    "aps",
                    .object([
                        ("event", .string("update")), ("timestamp", .integer(1)),
                        ("content-state", .object([("x", .string(String(repeating: "a", count: 5200)))])),
                    ])
                )
            ]))
        #expect(throws: InputError.self) { try BroadcastTemplate(PushSpec(topic: "com.example.app"), payload: big, requestID: nil) }
        #expect(throws: InputError.self) { try BroadcastAPI.channelID("not a channel!", name: "--channel-id") }
    }
}

/// The core names what to change in APNs' words; only a program that reads settings names them
/// its own way (pushctl's FlagNames, tested end to end).
struct SettingNameTests {
    @Test("a fix names APNs' field, not a flag, until a program names its settings")
    func plainNames() throws {
        let start = try LiveActivityLintTests.findings(#"{"event":"start","timestamp":1,"content-state":{},"attributes-type":"A","attributes":{}}"#)
        let fix = try #require(start.first { $0.rule == "start-alert" }).fix
        #expect(fix.text(.en) == #"a push-to-start without an alert never shows; add alert.title/alert.body ("alert")"#)
        #expect(Setting.allCases.allSatisfy { !$0.description.hasPrefix("--") })
    }
}

extension SettingNameTests {
    @Test("the hourly-budget warning is for runs that send several updates, not one")
    func budgetWarningCountsTheRun() throws {
        let update = try Payload(bytes: Array(#"{"aps":{"event":"update","timestamp":1,"content-state":{"s":1}}}"#.utf8), source: "update.json")
        let template = try PushTemplate(PushSpec(topic: "com.example.app", pushType: .liveactivity, priority: .immediate), payload: update)
        let budget = LiveActivityLint.budgetWarning.en
        #expect(!template.warnings(sending: 1).contains { $0.words.en.contains(budget) })
        #expect(template.warnings(sending: 2).contains { $0.words.en.contains(budget) })
    }
}
