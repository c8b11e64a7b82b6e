import Foundation
import Testing

/// Live Activities, broadcast channels and broadcast sends, end to end against `pushctl mock`
/// over TLS + HTTP/2: what pushctl builds, what it refuses before sending, what the mock answers.
@Suite(.serialized)
struct LiveActivityTests {
    static func lastRequest(_ mock: MockProcess, count: Int) throws -> [String: Any] {
        try #require(try mock.requests(count: count).last)
    }

    static func aps(_ request: [String: Any]) throws -> [String: Any] {
        let body = try #require(request["body"] as? String)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        return try #require(json["aps"] as? [String: Any])
    }

    @Test func theBuilderWritesApplesKeys() throws {
        let dir = try TemporaryDirectory()
        let mock = try MockProcess(dir: dir)
        let attributes = try dir.write("attributes.json", #"{"orderNumber":"A-1042"}"#)
        let before = Int(Date().timeIntervalSince1970)
        let start = try mock.send([
            "--device-token", sampleToken, "--live-activity", "start", "--title", "On its way", "--body", "Track it",
            "--attributes-type", "DeliveryAttributes", "--attributes", "@" + attributes,
            "--content-state", #"{"minutesAway":25}"#, "--input-push-token", "--stale-date", "\(before + 3600)",
        ])
        #expect(start.status == 0, "\(start.stderr)")
        let request = try Self.lastRequest(mock, count: 1)
        let headers = request["headers"] as? [String: Any] ?? [:]
        #expect(headers["apns-push-type"] as? String == "liveactivity")
        #expect(headers["apns-topic"] as? String == "com.example.app.push-type.liveactivity")
        #expect(headers["apns-priority"] as? String == "10")
        let aps = try Self.aps(request)
        #expect(aps["event"] as? String == "start")
        #expect((aps["timestamp"] as? Int).map { $0 >= before && $0 <= before + 60 } == true)
        #expect(aps["attributes-type"] as? String == "DeliveryAttributes")
        #expect((aps["attributes"] as? [String: Any])?["orderNumber"] as? String == "A-1042")
        #expect(aps["input-push-token"] as? Int == 1)
        #expect((aps["alert"] as? [String: Any])?["title"] as? String == "On its way")
        #expect(!start.stderr.contains("hourly budget"), "one update cannot spend the budget: no warning")
        let many = try mock.send([
            "--device-token", sampleToken, "--device-token", otherToken, "--live-activity", "update",
            "--content-state", #"{"minutesAway":20}"#,
        ])
        #expect(many.status == 0 && many.stderr.contains("hourly budget"), "a run of many priority-10 updates is warned about: \(many.stderr)")

        let end = try mock.send([
            "--device-token", sampleToken, "--live-activity", "end", "--priority", "5", "--timestamp", "1767225600",
            "--content-state", "{}", "--dismissal-date", "\(before + 600)",
        ])
        #expect(end.status == 0, "\(end.stderr)")
        let ended = try Self.aps(try Self.lastRequest(mock, count: 4))
        #expect(ended["event"] as? String == "end" && ended["timestamp"] as? Int == 1_767_225_600)
        #expect(ended["dismissal-date"] as? Int == before + 600)
        #expect((try Self.lastRequest(mock, count: 4)["headers"] as? [String: Any])?["apns-priority"] as? String == "5")
    }

    @Test func theLintRefusesWhatADeviceWouldDrop() throws {
        let dir = try TemporaryDirectory()
        let mock = try MockProcess(dir: dir)
        let cases: [(arguments: [String], message: String)] = [
            (["--live-activity", "start", "--content-state", "{}"], "start has no alert"),
            (["--live-activity", "update"], "update has no content-state"),
            (["--live-activity", "update", "--content-state", "{}", "--dismissal-date", "1"], "dismissal-date is only for end"),
            (["--live-activity", "end", "--dismissal-date", "\(Int(Date().timeIntervalSince1970) + 5 * 3600)"], "more than 4 hours ahead"),
            (["--push-type", "liveactivity", "--payload-json", #"{"aps":{"events":"update","timestamp":1,"content-state":{}}}"#], #"did you mean "event""#),
            (
                ["--push-type", "liveactivity", "--payload-json", #"{"aps":{"event":"update","timestamp":1,"content-state":{},"state-date":1}}"#],
                #"did you mean "stale-date""#
            ),
        ]
        for (arguments, message) in cases {
            let result = try mock.send(["--device-token", sampleToken] + arguments)
            #expect(result.status == 65, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("--no-lint"))
        }
        #expect(try mock.requests().isEmpty, "nothing reaches the server")

        // Usage mistakes: flags without --live-activity, builder flags that do not go with it.
        #expect(try mock.send(["--device-token", sampleToken, "--content-state", "{}", "--title", "x"]).status == 64)
        #expect(try mock.send(["--device-token", sampleToken, "--live-activity", "update", "--badge", "1"]).status == 64)
        #expect(try mock.send(["--device-token", sampleToken, "--live-activity", "pause"]).status == 64)
        let notJSON = try mock.send(["--device-token", sampleToken, "--live-activity", "update", "--content-state", "{oops"])
        #expect(notJSON.status == 65 && notJSON.stderr.contains("--content-state is not valid JSON"))

        // Warnings only: the date trap, a stale-date already past.
        let warned = try mock.send([
            "--device-token", sampleToken, "--live-activity", "update", "--priority", "5",
            "--content-state", #"{"arrivalDate":1800000000}"#, "--stale-date", "1000",
        ])
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(warned.stderr.contains("seconds since 2001-01-01") && warned.stderr.contains("821692800"))
        #expect(warned.stderr.contains("stale-date is already past"))

        // --no-lint sends it anyway; the mock answers 200 as APNs does, and logs what a device would drop.
        let forced = try mock.send([
            "--device-token", sampleToken, "--push-type", "liveactivity", "--no-lint",
            "--payload-json", #"{"aps":{"event":"update","timestamp":1}}"#,
        ])
        #expect(forced.status == 0, "\(forced.stderr)")
        let logged = try Self.lastRequest(mock, count: 2)
        #expect((logged["detail"] as? String ?? "").contains("a device would drop this Live Activity"), "\(logged)")

        // Live Activity keys sent as an alert get a hint.
        let hinted = try mock.send(["--device-token", sampleToken, "--payload-json", #"{"aps":{"event":"update","content-state":{}}}"#])
        #expect(hinted.status == 0)
        #expect(hinted.stderr.contains("--push-type liveactivity"))
    }

    @Test func requestsFileLinesAreLintedToo() throws {
        let dir = try TemporaryDirectory()
        let mock = try MockProcess(dir: dir)
        let good =
            #"{"token":"\#(sampleToken)","push-type":"liveactivity","priority":5,"payload":{"aps":{"event":"update","timestamp":1,"content-state":{"s":1}}}}"#
        let bad = #"{"token":"\#(otherToken)","push-type":"liveactivity","payload":{"aps":{"event":"update","timestamp":1}}}"#
        let file = try dir.write("requests.jsonl", good + "\n" + bad + "\n")
        let refused = try mock.send(["--requests-file", file])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("line 2") && refused.stderr.contains("no content-state"), "\(refused.stderr)")
        #expect(try mock.requests().isEmpty)
        let forced = try mock.send(["--requests-file", file, "--no-lint"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try mock.requests(count: 2).count == 2)
    }

    /// `pushctl channel …` and `send --channel-id` with the mock's environment and key.
    static func channel(_ mock: MockProcess, _ arguments: [String]) throws -> CommandResult {
        try CLI.pushctl(
            ["channel"] + arguments + [
                "--endpoint", mock.url, "--cacert", mock.caFile, "--key-file", mock.keyFile,
                "--team-id", "DEF123GHIJ", "--topic", "com.example.app",
            ])
    }

    @Test func channelsAndBroadcasts() throws {
        let dir = try TemporaryDirectory()
        let mock = try MockProcess(dir: dir, extra: ["--channel-limit", "2"])
        let requestID = "8d4f7a8e-52b1-4c3e-9a3f-2f1b6a0c9d11"
        let created = try Self.channel(mock, ["create", "--storage", "none", "--request-id", requestID])
        #expect(created.status == 0, "\(created.stderr)")
        let id = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!id.isEmpty && !id.contains(" "), "create prints the id alone: \(created.stdout)")
        let sent = try Self.lastRequest(mock, count: 1)
        #expect(sent["method"] as? String == "POST" && sent["path"] as? String == "/1/apps/com.example.app/channels")
        #expect(sent["body"] as? String == #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#)
        #expect((sent["headers"] as? [String: Any])?["apns-request-id"] as? String == requestID)

        let latest = try Self.channel(mock, ["create", "--storage", "latest", "--output", "json"])
        let latestJSON = try #require(try JSONSerialization.jsonObject(with: Data(latest.stdout.utf8)) as? [String: Any])
        #expect(latestJSON["status"] as? Int == 201 && latestJSON["messageStoragePolicy"] as? Int == 1)
        // A channel call's result has the shape of a device's: what it was for, the answer, then what it said.
        #expect(ResultShape.shape(latest.stdout) == ["call"] + ResultShape.answer + ["channelId", "storage", "messageStoragePolicy"], "\(latest.stdout)")
        let latestID = try #require(latestJSON["channelId"] as? String)

        // The mock keeps at most --channel-limit channels: CannotCreateChannelConfig.
        let third = try Self.channel(mock, ["create"])
        #expect(third.status == 1 && third.stderr.contains("CannotCreateChannelConfig"))

        let list = try Self.channel(mock, ["list"])
        #expect(Set(list.stdoutLines) == [id, latestID])
        let read = try Self.channel(mock, ["read", id, "--output", "json"])
        let readJSON = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
        #expect(readJSON["storage"] as? String == "none" && readJSON["pushType"] as? String == "LiveActivity")

        // A broadcast: POST /4/broadcasts/apps/<bundle> with the channel's headers.
        let base = [
            "send", "--endpoint", mock.url, "--cacert", mock.caFile, "--key-file", mock.keyFile, "--team-id", "DEF123GHIJ",
            "--topic", "com.example.app",
        ]
        let payload = Repository.payloads.appendingPathComponent("broadcast-update.json").path
        let broadcast = try CLI.pushctl(base + ["--channel-id", id, "--payload", payload, "--priority", "5", "--output", "jsonl"])
        #expect(broadcast.status == 0, "\(broadcast.stderr)")
        #expect(broadcast.stderr.contains("apns-expiration: 0"), "the default is said")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(broadcast.stdoutLines[0].utf8)) as? [String: Any])
        #expect(result["channelId"] as? String == id && result["status"] as? Int == 200)
        #expect(result["apnsRequestId"] is String && result["apnsUniqueId"] is String)
        #expect(ResultShape.shape(broadcast.stdoutLines[0]) == ["channelId"] + ResultShape.answer, "\(broadcast.stdoutLines[0])")
        #expect(broadcast.stdoutLines.count == 2 && broadcast.stdoutLines[1].contains(#""summary":true"#), "then the summary, as a device send's")
        // --output json: one document, results then the summary, as a device send writes it.
        let document = try CLI.pushctl(base + ["--channel-id", id, "--payload", payload, "--priority", "5", "--output", "json"])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(document.stdout.utf8)) as? [String: Any], "\(document.stdout)")
        #expect((parsed["results"] as? [[String: Any]])?.first?["channelId"] as? String == id)
        #expect((parsed["summary"] as? [String: Any])?["accepted"] as? Int == 1)
        let wire = try Self.lastRequest(mock, count: 7)
        #expect(wire["path"] as? String == "/4/broadcasts/apps/com.example.app")
        let headers = wire["headers"] as? [String: Any] ?? [:]
        #expect(headers["apns-channel-id"] as? String == id && headers["apns-push-type"] as? String == "liveactivity")
        #expect(headers["apns-expiration"] as? String == "0" && headers["apns-priority"] as? String == "5")

        // A channel without storage takes apns-expiration 0 only (BadExpirationDate), the other any.
        let stored = try CLI.pushctl(base + ["--channel-id", id, "--payload", payload, "--priority", "5", "--expiration", "1900000000"])
        #expect(stored.status == 1 && stored.stdout.contains("BadExpirationDate"))
        let kept = try CLI.pushctl(base + ["--channel-id", latestID, "--payload", payload, "--priority", "5", "--expiration", "1900000000"])
        #expect(kept.status == 0, "\(kept.stderr)")

        // Refused before sending: a start, a suffixed bundle id, a payload over 5,120 bytes, a bad id.
        let start = try CLI.pushctl(
            base + [
                "--channel-id", id, "--live-activity", "start", "--title", "x", "--content-state", "{}",
                "--attributes-type", "A", "--attributes", "{}",
            ])
        #expect(start.status == 65 && start.stderr.contains("cannot start"))
        var suffixed = base
        suffixed[suffixed.count - 1] = "com.example.app.push-type.liveactivity"
        let suffix = try CLI.pushctl(suffixed + ["--channel-id", id, "--payload", payload])
        #expect(suffix.status == 65 && suffix.stderr.contains("bare bundle id"))
        let big = try CLI.pushctl(
            base + [
                "--channel-id", id, "--live-activity", "update",
                "--content-state", #"{"x":"\#(String(repeating: "a", count: 5200))"}"#,
            ])
        #expect(big.status == 65 && big.stderr.contains("5120"))
        #expect(try CLI.pushctl(base + ["--channel-id", "not base64!", "--payload", payload]).status == 65)
        #expect(try CLI.pushctl(base + ["--channel-id", id, "--device-token", sampleToken, "--payload", payload]).status == 64)

        let deleted = try Self.channel(mock, ["delete", id])
        #expect(deleted.status == 0 && deleted.stderr.contains("deleted channel"))
        let gone = try Self.channel(mock, ["read", id])
        #expect(gone.status == 1 && gone.stderr.contains("ChannelNotRegistered"))
        let goneBroadcast = try CLI.pushctl(base + ["--channel-id", id, "--payload", payload])
        #expect(goneBroadcast.status == 1 && goneBroadcast.stdout.contains("ChannelNotRegistered"))
    }

    @Test func theMocksChannelErrorsAgainstCurl() throws {
        // Requests pushctl would never send, from a client nobody here wrote.
        let dir = try TemporaryDirectory()
        let mock = try MockProcess(dir: dir)
        let jwt = try CLI.pushctl(["jwt", "--key-file", mock.keyFile, "--team-id", "DEF123GHIJ"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        func curl(_ method: String, _ path: String, _ headers: [String] = [], body: String? = nil) throws -> String {
            var arguments = ["-s", "--http2", "--cacert", mock.caFile, "-X", method, "-H", "authorization: bearer \(jwt)", "-w", " %{http_code}"]
            arguments += headers.flatMap { ["-H", $0] }
            if let body { arguments += ["--data-binary", body] }
            return try CLI.run("/usr/bin/env", ["curl"] + arguments + [mock.url + path]).stdout
        }
        #expect(try curl("GET", "/1/apps/com.example.app/channels").contains("MissingChannelId"))
        #expect(try curl("GET", "/1/apps/com.example.app/channels", ["apns-channel-id: !!"]).contains("BadChannelId"))
        #expect(try curl("GET", "/1/apps/com.example.app/channels", ["apns-channel-id: dGVzdA=="]).contains("ChannelNotRegistered"))
        #expect(try curl("POST", "/1/apps/com.example.app/channels", body: "not json").contains("BadRequestPayload"))
        #expect(
            try curl("POST", "/1/apps/com.example.app/channels", body: #"{"message-storage-policy":7,"push-type":"LiveActivity"}"#).contains("BadRequestParams")
        )
        #expect(try curl("POST", "/1/apps/com.example.app.push-type.liveactivity/channels", body: "{}").contains("TopicDisallowed"))
        #expect(try curl("PUT", "/1/apps/com.example.app/channels").contains("MethodNotAllowed"))
        #expect(try curl("GET", "/1/apps/com.example.app/elsewhere").contains("BadPath"))
        let made = try curl("POST", "/1/apps/com.example.app/channels", body: #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#)
        #expect(made.hasSuffix(" 201"))
        let id = try #require(try Self.channelIDs(mock).first)
        #expect(
            try curl(
                "POST", "/4/broadcasts/apps/com.example.app", ["apns-channel-id: \(id)", "apns-priority: 10", "apns-expiration: 0"],
                body: #"{"aps":{}}"#
            ).contains("MissingPushType"))
        #expect(
            try curl(
                "POST", "/4/broadcasts/apps/com.example.app",
                [
                    "apns-channel-id: \(id)", "apns-push-type: alert", "apns-priority: 10",
                    "apns-expiration: 0",
                ], body: #"{"aps":{}}"#
            ).contains("InvalidPushType"))
        // Unauthenticated: the usual 403.
        let noAuth = try CLI.run(
            "/usr/bin/env", ["curl", "-s", "--http2", "--cacert", mock.caFile, "-w", " %{http_code}", mock.url + "/1/apps/com.example.app/all-channels"]
        ).stdout
        #expect(noAuth.contains("MissingProviderToken") && noAuth.hasSuffix(" 403"))
    }

    static func channelIDs(_ mock: MockProcess) throws -> [String] {
        try channel(mock, ["list"]).stdoutLines
    }
}
