import Foundation
import Testing

/// The repository's own folders, found from this file (tests never read anything outside the repository).
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let payloads = root.appendingPathComponent("payloads")
    static func script(_ name: String) -> String { root.appendingPathComponent("Scripts").appendingPathComponent(name).path }
}

/// One file of `payloads/` and how it must arrive at APNs.
struct LibraryPayload: Sendable, CustomTestStringConvertible {
    let file: String
    /// `--push-type` to pass; nil when pushctl infers it.
    let flag: String?
    let pushType: String
    let topic: String
    let priority: String

    var testDescription: String { file }

    static func inferred(_ file: String, _ pushType: String = "alert") -> LibraryPayload {
        LibraryPayload(file: file, flag: nil, pushType: pushType, topic: "com.example.app", priority: pushType == "background" ? "5" : "10")
    }

    static func explicit(_ file: String, _ pushType: String, topicSuffix: String) -> LibraryPayload {
        LibraryPayload(file: file, flag: pushType, pushType: pushType, topic: "com.example.app" + topicSuffix, priority: "10")
    }
}

/// `payloads/`: every case the course and Apple's documentation show, each sent as is through `pushctl mock`.
@Suite struct PayloadLibraryTests {
    /// The cases the library must hold (the same as payloads/README.md's table).
    static let library: [LibraryPayload] = [
        .inferred("alert.json"),
        .inferred("alert-badge-sound-custom.json"),
        .inferred("silent.json", "background"),
        .inferred("silent-prefetch.json", "background"),
        .inferred("localized.json"),
        .inferred("actions.json"),
        .inferred("service-extension.json"),
        .inferred("critical.json"),
        .inferred("thread.json"),
        .explicit("liveactivity-start.json", "liveactivity", topicSuffix: ".push-type.liveactivity"),
        .explicit("liveactivity-update.json", "liveactivity", topicSuffix: ".push-type.liveactivity"),
        .explicit("liveactivity-end.json", "liveactivity", topicSuffix: ".push-type.liveactivity"),
        .explicit("broadcast-update.json", "liveactivity", topicSuffix: ".push-type.liveactivity"),
        .explicit("widgets-content-changed.json", "widgets", topicSuffix: ".push-type.widgets"),
        .inferred("simulator.apns"),
    ]

    func aps(_ file: String) throws -> [String: Any] {
        let data = try Data(contentsOf: Repository.payloads.appendingPathComponent(file))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(file) is not a JSON object")
        return try #require(object["aps"] as? [String: Any], "\(file) has no aps dictionary")
    }

    @Test("the folder holds exactly the listed payloads, and its README names each with its push type")
    func inventory() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Repository.payloads.path)
            .filter { $0.hasSuffix(".json") || $0.hasSuffix(".apns") }
        #expect(Set(files) == Set(Self.library.map(\.file)), "add a new payload to this test's table and to payloads/README.md")
        let readme = try String(contentsOf: Repository.payloads.appendingPathComponent("README.md"), encoding: .utf8)
        for payload in Self.library {
            let row = readme.split(separator: "\n").first { $0.hasPrefix("| `\(payload.file)`") }
            #expect(
                row?.contains(payload.flag.map { "--push-type \($0)" } ?? "\(payload.pushType) (inferred") == true,
                "payloads/README.md: no row for \(payload.file) with its push type")
        }
    }

    @Test("each case the library promises is there, with the keys that make it that case")
    func cases() throws {
        let alert = try aps("alert.json")
        let alertKeys = Set((alert["alert"] as? [String: Any] ?? [:]).keys)
        #expect(alertKeys.isSuperset(of: ["title", "subtitle", "body"]))
        #expect(alert["category"] is String && alert["badge"] is Int)
        #expect(try aps("alert-badge-sound-custom.json")["alert"] is String)
        #expect(try aps("silent.json").keys.sorted() == ["content-available"])
        #expect(try (aps("localized.json")["alert"] as? [String: Any])?["loc-args"] is [String])
        #expect(try aps("actions.json")["category"] is String)
        #expect(try aps("service-extension.json")["mutable-content"] as? Int == 1)
        #expect(try (aps("critical.json")["sound"] as? [String: Any])?["critical"] as? Int == 1)
        #expect(try aps("thread.json")["thread-id"] is String)
        #expect(try aps("liveactivity-update.json")["event"] as? String == "update")
        #expect(try aps("liveactivity-update.json")["content-state"] is [String: Any])
        let start = try aps("liveactivity-start.json")
        #expect(start["event"] as? String == "start" && start["alert"] != nil && start["attributes-type"] is String && start["input-push-token"] as? Int == 1)
        #expect(try aps("liveactivity-end.json")["dismissal-date"] is Int)
        #expect(try aps("broadcast-update.json")["event"] as? String == "update")
        #expect(try aps("widgets-content-changed.json")["content-changed"] as? Bool == true)
        let simulator = try JSONSerialization.jsonObject(with: Data(contentsOf: Repository.payloads.appendingPathComponent("simulator.apns")))
        #expect((simulator as? [String: Any])?["Simulator Target Bundle"] is String)
    }

    @Test(
        "pushctl sends each payload file byte for byte, with the push type, topic and priority it needs",
        arguments: library)
    func sendsAsIs(_ payload: LibraryPayload) throws {
        let dir = try TemporaryDirectory()
        let mock = try MockProcess(dir: dir)
        let path = Repository.payloads.appendingPathComponent(payload.file).path
        let pushType = payload.flag.map { ["--push-type", $0] } ?? []
        let result = try mock.send(["--device-token", sampleToken, "--payload", path] + pushType)
        #expect(result.status == 0, "\(result.stderr)")
        let request = try #require(try mock.requests(count: 1).first)
        #expect(request["body"] as? String == String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self))
        let headers = request["headers"] as? [String: String] ?? [:]
        #expect(headers["apns-push-type"] == payload.pushType)
        #expect(headers["apns-topic"] == payload.topic)
        #expect(headers["apns-priority"] == payload.priority)
    }
}
