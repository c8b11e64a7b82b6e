import Foundation
import Testing

/// `send --simulator-file` and `--simulator`: the same notification, checked the same way, for the
/// iOS Simulator; no key, no device token, nothing sent to APNs.
@Suite struct SimulatorTests {
    let dir = try! TemporaryDirectory()

    @Test("--simulator-file writes an .apns file: the app under \"Simulator Target Bundle\", then the payload; no key needed")
    func file() throws {
        let path = dir.path("alert.apns")
        let result = try CLI.pushctl([
            "send", "--topic", "com.example.app", "--title", "Hola", "--body", "Desde pushctl", "--badge", "2",
            "--simulator-file", path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("xcrun simctl push booted com.example.app"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect(object["Simulator Target Bundle"] as? String == "com.example.app")
        let aps = try #require(object["aps"] as? [String: Any])
        #expect(aps["badge"] as? Int == 2)
        #expect((aps["alert"] as? [String: Any])?["title"] as? String == "Hola")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("{\n  \"Simulator Target Bundle\""), "the target first, as Apple's samples write it")
    }

    @Test("a push type's suffix is not part of the Simulator's target; a payload file goes in as it is")
    func liveActivityAndPayloadFile() throws {
        let path = dir.path("la.apns")
        let result = try CLI.pushctl([
            "send", "--topic", "com.example.app", "--live-activity", "update", "--content-state", #"{"score":3}"#,
            "--priority", "5", "--simulator-file", path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect(object["Simulator Target Bundle"] as? String == "com.example.app")
        #expect(((object["aps"] as? [String: Any])?["content-state"] as? [String: Any])?["score"] as? Int == 3)

        let payload = try dir.write("payload.json", #"{"aps":{"content-available":1},"id":7}"#)
        let background = dir.path("bg.apns")
        #expect(try CLI.pushctl(["send", "--topic", "com.example.app", "--payload", payload, "--simulator-file", background]).status == 0)
        let bg = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: background))) as? [String: Any])
        #expect(bg["id"] as? Int == 7)
    }

    @Test("the same checks as a real send: too big is 65 and no file; a Live Activity the device drops is refused; no topic is 64")
    func checks() throws {
        let big = dir.path("big.apns")
        let tooBig = try CLI.pushctl(["send", "--topic", "com.example.app", "--body", String(repeating: "x", count: 5000), "--simulator-file", big])
        #expect(tooBig.status == 65)
        #expect(tooBig.stderr.contains("over"), "\(tooBig.stderr)")
        #expect(!FileManager.default.fileExists(atPath: big))
        let dropped = try CLI.pushctl(["send", "--topic", "com.example.app", "--live-activity", "update", "--simulator-file", dir.path("la.apns")])
        #expect(dropped.status == 65, "no content-state: \(dropped.stderr)")
        let noTopic = try CLI.pushctl(["send", "--title", "x", "--simulator-file", dir.path("t.apns")])
        #expect(noTopic.status == 64)
        #expect(noTopic.stderr.contains("--topic"))
        let batch = try CLI.pushctl(["send", "--topic", "a.b", "--title", "x", "--tokens-file", "/dev/null", "--simulator-file", dir.path("u.apns")])
        #expect(batch.status == 64)
    }

    @Test("--simulator runs `xcrun simctl push DEVICE BUNDLE FILE` (a stand-in xcrun records what it was given); without xcrun, 69 with the reason")
    func simctl() throws {
        let bin = dir.path("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let record = dir.path("xcrun-args.txt")
        try dir.write("bin/xcrun", "#!/bin/sh\nprintf '%s\\n' \"$@\" > \(record)\ncp \"$5\" \(dir.path("pushed.apns"))\n", mode: 0o755)
        let path = "\(bin):/usr/bin:/bin"
        let pushed = try CLI.pushctl(["send", "--topic", "com.example.app", "--title", "Hi", "--simulator", "booted"], env: ["PATH": path])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let arguments = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(Array(arguments.prefix(4)) == ["simctl", "push", "booted", "com.example.app"])
        #expect(arguments.last?.hasSuffix(".apns") == true)
        #expect(!FileManager.default.fileExists(atPath: arguments.last!), "the temporary file is gone after the push")
        let content = try String(contentsOfFile: dir.path("pushed.apns"), encoding: .utf8)
        #expect(content.contains("\"Simulator Target Bundle\" : \"com.example.app\"") || content.contains("\"Simulator Target Bundle\": \"com.example.app\""))

        let dry = try CLI.pushctl(["send", "--topic", "com.example.app", "--title", "Hi", "--simulator", "ABCD-1234", "--dry-run"], env: ["PATH": path])
        #expect(dry.status == 0)
        #expect(dry.stdout.hasPrefix("xcrun simctl push ABCD-1234 com.example.app "))

        let missing = try CLI.pushctl(["send", "--topic", "com.example.app", "--title", "Hi", "--simulator", "booted"], env: ["PATH": "/nonexistent"])
        #expect(missing.status == 69)
        #expect(missing.stderr.contains("xcrun"))
        let failing = dir.path("fail")
        try FileManager.default.createDirectory(atPath: failing, withIntermediateDirectories: true)
        try dir.write("fail/xcrun", "#!/bin/sh\nexit 148\n", mode: 0o755)
        let notBooted = try CLI.pushctl(["send", "--topic", "com.example.app", "--title", "Hi", "--simulator", "booted"], env: ["PATH": failing])
        #expect(notBooted.status == 69)
        #expect(notBooted.stderr.contains("booted"))
    }
}
