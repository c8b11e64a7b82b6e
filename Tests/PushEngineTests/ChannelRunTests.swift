import PushCore
import PushEngine
import PushFiles
import PushTestSupport
import PushWords
import Testing

/// Broadcasts and channel calls are requests of the same run as device pushes: retried, renewed
/// and stopped by the same rules, one result each, in the shape every result has.
@Suite struct ChannelRunTests {
    static func call(_ call: BroadcastAPI.ChannelCall) -> NotificationSource {
        .channelCall(call, try! BroadcastAPI.channelRequest(call, bundleID: "com.example.app", requestID: nil))
    }

    static let channels = ["YWFh", "YmJi", "Y2Nj"]

    /// What a renderer writes for `results` in `format`, then the summary.
    static func rendered(_ results: [PushResult], _ format: ResultFormat, summary: BatchSummary = BatchSummary()) -> String {
        final class Captured: OutputSink {
            var bytes: [UInt8] = []
            func write(_ bytes: [UInt8]) { self.bytes += bytes }
        }
        let sink = Captured()
        let renderer = ResultRenderer(format: format, sink: sink)
        results.forEach(renderer.render)
        renderer.finish(summary, exitStatus: 0)
        return String(decoding: sink.bytes, as: UTF8.self)
    }

    @Test("channel create: one result, the new channel's id kept, written as a call's result always was")
    func create() throws {
        let engine = Engine()
        engine.transport(Engine.channels).script["create"] = [.success(.channel(201, channelID: "Y2hhbm5lbA=="))]
        let (results, summary) = try engine.run(Engine.plan(Self.call(.create(.latest)), to: Engine.channels))
        let result = try #require(results.first)
        #expect(results.count == 1 && summary.accepted == 1)
        #expect(engine.made == ["https://api-manage-broadcast.sandbox.push.apple.com:2195"])
        let sent = try #require(engine.transport(Engine.channels).started.first)
        #expect(sent.request.shape.method == .post && sent.request.path == "/1/apps/com.example.app/channels")
        #expect(sent.request.shape.body?.bytes == Array(#"{"message-storage-policy":1,"push-type":"LiveActivity"}"#.utf8))
        #expect(result.subject == .channelCall(.create(.latest)) && result.channelAnswer?.channelID == "Y2hhbm5lbA==")
        #expect(
            result.json(.en, extra: [("channelId", .string("Y2hhbm5lbA=="))]).compact
                == #"{"call":"create","status":201,"outcome":"accepted","apnsRequestId":"req-1","apnsUniqueId":null,"reason":null,"timestamp":null,"explanation":"accepted by APNs","attempts":1,"channelId":"Y2hhbm5lbA=="}"#
        )
        #expect(ResultRenderer.line(for: result, style: TextResultStyle(language: .en)) == "✓ channel create  201  apns-request-id req-1")
    }

    @Test("channel list, read and delete: each answered once, its body kept as sent")
    func listReadDelete() throws {
        let engine = Engine()
        let calls: [(BroadcastAPI.ChannelCall, PushResponse, HTTPMethod, String)] = [
            (.list, .channel(200, body: #"{"channels":["YWFh","YmJi"]}"#), .get, "/1/apps/com.example.app/all-channels"),
            (
                .read(channelID: "YWFh"), .channel(200, body: #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#), .get,
                "/1/apps/com.example.app/channels"
            ),
            (.delete(channelID: "YWFh"), .channel(204), .delete, "/1/apps/com.example.app/channels"),
        ]
        for (call, answer, method, path) in calls {
            engine.transport(Engine.channels).script[call.label] = [.success(answer)]
            let (results, _) = try engine.run(Engine.plan(Self.call(call), to: Engine.channels))
            #expect(results.count == 1 && results.first?.outcome == .accepted && results.first?.status == answer.status, "\(call)")
            #expect(results.first?.channelAnswer?.body == answer.body, "\(call)")
            let sent = try #require(engine.transport(Engine.channels).started.last)
            #expect(sent.request.shape.method == method && sent.request.path == path, "\(call)")
            if case .read(let id) = call { #expect(sent.request.shape.headerLines.contains("apns-channel-id: \(id)")) }
        }
        #expect(engine.transport(Engine.channels).started.count == 3)
    }

    @Test("a channel call answered 503 is sent again after the back-off; refused, it is final and says why")
    func callRetriedOrRefused() throws {
        let engine = Engine()
        engine.transport(Engine.channels).script["list"] = [
            .success(.channel(503, body: #"{"reason":"ServiceUnavailable"}"#)), .success(.channel(200, body: #"{"channels":[]}"#)),
        ]
        let (listed, _) = try engine.run(Engine.plan(Self.call(.list), to: Engine.channels))
        #expect(listed.first?.outcome == .accepted && listed.first?.attempts == 2)
        #expect(engine.transport(Engine.channels).startTimes == [0, 0.375])

        engine.transport(Engine.channels).script["create"] = [.success(.channel(400, body: #"{"reason":"CannotCreateChannelConfig"}"#))]
        let (refused, summary) = try engine.run(Engine.plan(Self.call(.create(.none)), to: Engine.channels))
        let result = try #require(refused.first)
        #expect(result.outcome == .rejected && result.reason?.apnsName == "CannotCreateChannelConfig" && result.attempts == 1)
        #expect(summary.outcome == .rejected)
        #expect(
            result.json().compact.hasPrefix(
                #"{"call":"create","status":400,"outcome":"rejected","apnsRequestId":"req-1","apnsUniqueId":null,"reason":"CannotCreateChannelConfig","timestamp":null,"explanation":""#
            ))
        #expect(ResultRenderer.line(for: result, style: TextResultStyle(language: .en)).hasPrefix("✗ channel create  400 CannotCreateChannelConfig: "))
    }

    @Test("a channel call refused with ExpiredProviderToken: the token is signed again once, and the call sent again with it")
    func callRenewsToken() throws {
        let engine = Engine()
        engine.transport(Engine.channels).script["read YWFh"] = [
            .success(.channel(403, body: #"{"reason":"ExpiredProviderToken"}"#)), .success(.channel(200, body: "{}")),
        ]
        let authorization = CountingAuthorization()
        let (results, _) = try engine.run(Engine.plan(Self.call(.read(channelID: "YWFh")), to: Engine.channels, authorization: authorization))
        #expect(results.first?.outcome == .accepted && results.first?.attempts == 2)
        #expect(authorization.generation == 2)
        #expect(engine.transport(Engine.channels).started.map(\.authorization) == ["bearer token-1", "bearer token-2"])
    }

    @Test("a broadcast to several channels: one request and one result each, in the list's order, counted as channels")
    func broadcast() throws {
        let engine = Engine()
        let (results, summary) = try engine.run(Engine.plan(.broadcast(Engine.broadcast, channels: Self.channels)))
        #expect(results.map(\.subject) == Self.channels.map(RequestSubject.channel))
        #expect(results.map(\.position) == [0, 1, 2])
        let sent = engine.transport().started
        #expect(sent.map(\.request.path) == Array(repeating: "/4/broadcasts/apps/com.example.app", count: 3))
        #expect(sent.map { $0.request.shape.headerLines.first } == Self.channels.map { "apns-channel-id: \($0)" })
        #expect(sent.allSatisfy { $0.request.shape.headerLines.contains("apns-push-type: liveactivity") && $0.token == nil })
        #expect(summary.accepted == 3 && summary.line.en.hasPrefix("3 channels: 3 accepted in "))
    }

    @Test("a broadcast's results are written as they always were: jsonl objects led by channelId, text lines that name the channel")
    func broadcastOutput() throws {
        let engine = Engine()
        engine.transport().script["YmJi"] = [.success(.channel(400, body: #"{"reason":"ChannelNotRegistered"}"#))]
        engine.transport().script["YWFh"] = [.success(.channel(200, requestID: "3f2a"))]
        let (results, summary) = try engine.run(Engine.plan(.broadcast(Engine.broadcast, channels: Array(Self.channels.prefix(2)))))
        #expect(summary.outcome == .rejected && results.map(\.attempts) == [1, 1], "ChannelNotRegistered is not sent again")
        let lines = Self.rendered(results, .jsonl, summary: summary).split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == #"{"channelId":"YWFh","status":200,"outcome":"accepted","apnsRequestId":"3f2a","apnsUniqueId":null,"reason":null,"timestamp":null,"explanation":"accepted by APNs","attempts":1}"#
        )
        #expect(
            lines.count == 3
                && lines[1].hasPrefix(
                    #"{"channelId":"YmJi","status":400,"outcome":"rejected","apnsRequestId":"req-1","apnsUniqueId":null,"reason":"ChannelNotRegistered","timestamp":null,"explanation":"#
                ))
        #expect(lines[2].hasPrefix(#"{"summary":true,"tokens":2,"accepted":1,"rejected":1,"#))
        let text = Self.rendered(results, .text).split(separator: "\n").map(String.init)
        #expect(text.first == "✓ channel YWFh  200  apns-request-id 3f2a")
        #expect(text.last?.hasPrefix("✗ channel YmJi  400 ChannelNotRegistered: ") == true)
    }
}

/// A stop (a signal) through `SendRun`: no new request, a grace for those in flight, one result each.
@Suite struct StoppedSendRunTests {
    @Test("a stop before the first send: nothing is sent, every notification is not-sent")
    func stopBeforeFirstSend() throws {
        let engine = Engine()
        let stop = TestStop()
        stop.signal(.interrupt)
        let tokens = (0..<5).map(Engine.token)
        let (results, summary) = try engine.run(Engine.plan(Engine.devices(tokens)), stop: stop)
        #expect(engine.transport().started.isEmpty)
        #expect(results.count == 5 && results.allSatisfy { $0.stopped == .notSent && $0.attempts == 0 })
        #expect(results.first?.explanationWords.text(.en) == "not sent: the run was stopped (SIGINT) before it")
        #expect(summary.notSent == 5 && summary.stoppedBy == StopRequest(signal: .interrupt, count: 1))
    }

    @Test("a stop with requests in flight: they get the grace on the run's clock, then are in doubt; the unsent are not-sent")
    func inDoubtAfterGrace() throws {
        let engine = Engine()
        engine.capacity = 2
        let tokens = (0..<5).map(Engine.token)
        engine.transport().silent = Set(tokens.prefix(2).map(\.hex))
        let stop = TestStop()
        var stoppedAt: Double?
        engine.transport().onPoll = {
            if stoppedAt == nil {
                stoppedAt = engine.clock.now
                stop.signal()
            }
        }
        let (results, summary) = try engine.run(Engine.plan(Engine.devices(tokens)), stop: stop, grace: 5)
        #expect(summary.inDoubt == 2 && summary.notSent == 3)
        #expect(results.filter { $0.stopped == .inDoubt }.compactMap(\.token) == Array(tokens.prefix(2)))
        #expect(results.filter { $0.stopped == .inDoubt }.allSatisfy { $0.inDoubt })
        let waited = engine.clock.now - (stoppedAt ?? 0)
        #expect(waited >= 5 && waited <= 6, "the grace, and not much more: \(waited) s")
    }

    @Test("a second stop ends the grace at once")
    func secondStop() throws {
        let engine = Engine()
        let token = Engine.token(1)
        engine.transport().silent = [token.hex]
        let stop = TestStop()
        engine.transport().onPoll = {
            if stop.stopRequest == nil {
                stop.signal(.interrupt)
                stop.signal(.interrupt)
            }
        }
        let (results, summary) = try engine.run(Engine.plan(Engine.devices([token])), stop: stop, grace: 5)
        #expect(results.first?.stopped == .inDoubt)
        #expect(engine.clock.now < 2, "no grace after the second signal: \(engine.clock.now) s")
        #expect(engine.transport().polls == 1)
        #expect(summary.stoppedBy?.count == 2)
    }

    @Test("a stop mid-broadcast: the channels answered keep their answers, the rest are not sent")
    func stopMidBroadcast() throws {
        let engine = Engine()
        engine.capacity = 1
        let stop = TestStop()
        engine.transport().onPoll = { if stop.stopRequest == nil { stop.signal() } }
        let (results, summary) = try engine.run(Engine.plan(.broadcast(Engine.broadcast, channels: ChannelRunTests.channels)), stop: stop)
        #expect(results.map(\.outcome) == [.accepted, .stopped, .stopped])
        #expect(engine.transport().started.count == 1)
        #expect(summary.notSent == 2 && summary.line.en.hasPrefix("stopped by SIGTERM: 3 channels: 1 accepted, 2 not sent"))
    }

    @Test("a stop while a channel call waits to be sent again: not sent again, safe to send again, in a call's result shape")
    func stopDuringCallBackOff() throws {
        let engine = Engine()
        engine.transport(Engine.channels).script["list"] = [.success(.channel(503, body: #"{"reason":"ServiceUnavailable"}"#))]
        let stop = TestStop()
        engine.transport(Engine.channels).onPoll = { if engine.transport(Engine.channels).polls == 2 { stop.signal() } }
        let (results, _) = try engine.run(Engine.plan(ChannelRunTests.call(.list), to: Engine.channels), stop: stop)
        let result = try #require(results.first)
        #expect(result.stopped == .notSent && result.attempts == 1)
        #expect(result.explanationWords.text(.en).hasPrefix("not accepted, and not sent again"))
        #expect(result.json().compact.hasPrefix(#"{"call":"list","status":null,"outcome":"stopped","apnsRequestId":null,"#))
        #expect(result.json().compact.hasSuffix(#""attempts":1,"stopped":"not-sent"}"#))
    }
}
