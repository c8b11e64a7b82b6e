import Crypto
import Foundation
import NIOCore
import NIOHTTP2
import PushCore
import Testing

@testable import PushMock

/// What the mock's APNs decides, case by case, with no connection: a request, the connection's
/// state and the time in, a decision out (``APNsRules``, ``ConnectionState``, ``APNsResponse``).
@Suite("APNs rules as values")
struct APNsRulesTests {
    /// A server's fault counters, in memory.
    final class Counters: FaultCounters {
        var streams = 0
        var replaced = 0
        var attempts: [DeviceToken: Int] = [:]
        func countStream() -> Int {
            streams += 1
            return streams
        }
        func countReplacedAnswer() -> Int {
            replaced += 1
            return replaced
        }
        func countAttempt(to token: DeviceToken) -> Int {
            attempts[token, default: 0] += 1
            return attempts[token]!
        }
    }

    static let keyPEM = P256.Signing.PrivateKey().pemRepresentation
    static let keyID = "ABC123DEFG"
    static let clock: Int64 = 1_800_000_000

    /// A provider token of the test key, issued at `issuedAt`.
    static func token(issuedAt: Int64 = clock) -> String {
        let input = signingInput(keyID: keyID, team: sampleTeam, issuedAt: issuedAt)
        let key = try! P256.Signing.PrivateKey(pemRepresentation: keyPEM)
        let signature = try! key.signature(for: Data(input.utf8)).rawRepresentation
        return "bearer " + input + "." + Base64URL.encode(Array(signature))
    }

    static func rules(maxConcurrentStreams: Int = 1000, counters: Counters = Counters()) -> APNsRules {
        let mockKey = try! MockProviderKey(keyID: keyID, pem: keyPEM)
        let check = RequestCheck(verifier: ProviderTokenVerifier(keys: [mockKey], teamID: sampleTeam))
        return APNsRules(check: check, maxConcurrentStreams: maxConcurrentStreams, broadcasts: MockBroadcasts(limit: 10), counters: counters)
    }

    static func request(
        stream: Int32 = 1, path: String = "/3/device/\(sampleToken)", authorization: String? = token(), pushType: String = "alert",
        body: String = #"{"aps":{"alert":"Hi"}}"#
    ) -> CompletedRequest {
        var head = RequestHead()
        head.add(name: ":method", value: "POST")
        head.add(name: ":path", value: path)
        if let authorization { head.add(name: "authorization", value: authorization) }
        head.add(name: "apns-topic", value: pushType == "liveactivity" ? sampleTopic + ".push-type.liveactivity" : sampleTopic)
        head.add(name: "apns-push-type", value: pushType)
        return CompletedRequest(streamID: stream, head: head, body: ByteBuffer(string: body), bodyByteCount: body.utf8.count, certificate: nil)
    }

    static func state(_ limits: MockProtocolLimits = MockProtocolLimits()) -> ConnectionState {
        ConnectionState(limits: limits, initialStreamLimit: 1, now: .uptimeNanoseconds(0))
    }

    /// The reason of an answer (nil for 200), or what the decision does instead.
    static func summary(_ decision: APNsRules.Decision) -> String {
        switch decision.action {
        case .ignore: return "ignore"
        case .answer(let reply, let delay, let goAway):
            var text = reply.replacement.map { "replaced \($0.status)" } ?? reply.reason?.apnsName ?? "200"
            if delay > 0 { text += " after \(delay) ms" }
            if let goAway { text += ", GOAWAY \(goAway.reason.apnsName) 0x\(String(goAway.code, radix: 16)) last \(goAway.lastStreamID ?? -1)" }
            return text
        case .reset(let code): return "RST_STREAM \(code.networkCode)"
        case .goAway(let goAway): return "GOAWAY \(goAway.reason.apnsName) last \(goAway.lastStreamID ?? -1)"
        case .close: return "close"
        case .silence: return "silence"
        }
    }

    /// Requests in a row on one connection, with these faults and limits: what each gets.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        var faults = MockFaults()
        var limits = MockProtocolLimits()
        /// The requests, by path (a device token's or not) and authorization.
        var requests: [(path: String, authorization: String?)] = [("/3/device/\(sampleToken)", token())]
        let expected: [String]
        var testDescription: String { name }
    }

    static let shortPath = "/3/device/1234"
    static let goAwayInstead = {
        var faults = MockFaults()
        faults.goAwayInstead = .shutdown
        return faults
    }()

    static let cases: [Case] = [
        Case(name: "a valid push is answered 200", expected: ["200"]),
        Case(name: "a short token is BadDeviceToken", requests: [(shortPath, token())], expected: ["BadDeviceToken"]),
        Case(name: "no authorization is MissingProviderToken", requests: [("/3/device/\(sampleToken)", nil)], expected: ["MissingProviderToken"]),
        Case(
            name: "BadDeviceToken limit: GOAWAY after the answer that reaches it",
            limits: MockProtocolLimits(badDeviceTokenLimit: 2), requests: [(shortPath, token()), (shortPath, token()), (shortPath, token())],
            expected: ["BadDeviceToken", "BadDeviceToken, GOAWAY BadDeviceToken 0x0 last 3", "ignore"]),
        Case(name: "reset streams", faults: MockFaults(resetStreams: true), expected: ["RST_STREAM 2"]),
        Case(
            name: "the first stream refused", faults: MockFaults(refuseFirstStreams: 1),
            requests: Array(repeating: ("/3/device/\(sampleToken)", token()), count: 2), expected: ["RST_STREAM 7", "200"]),
        Case(
            name: "every second stream refused", faults: MockFaults(refuseEveryNthStream: 2),
            requests: Array(repeating: ("/3/device/\(sampleToken)", token()), count: 4), expected: ["200", "RST_STREAM 7", "200", "RST_STREAM 7"]),
        Case(
            name: "closed after one request", faults: MockFaults(closeAfterRequests: 1),
            requests: Array(repeating: ("/3/device/\(sampleToken)", token()), count: 2), expected: ["200", "close"]),
        Case(name: "GOAWAY instead of an answer", faults: goAwayInstead, expected: ["GOAWAY Shutdown last 0"]),
        Case(name: "silent", faults: MockFaults(silent: true), expected: ["silence"]),
        Case(name: "a delay", faults: MockFaults(responseDelayMilliseconds: 250), expected: ["200 after 250 ms"]),
        Case(
            name: "GOAWAY after two requests, with a code", faults: MockFaults(goAwayAfterRequests: 2, goAwayErrorCode: 0xb),
            requests: Array(repeating: ("/3/device/\(sampleToken)", token()), count: 2), expected: ["200", "200, GOAWAY Shutdown 0xb last 3"]),
        Case(
            name: "the answer replaced once", faults: MockFaults(answer: MockFaults.Answer(status: 502), answerCount: 1),
            requests: Array(repeating: ("/3/device/\(sampleToken)", token()), count: 2), expected: ["replaced 502", "200"]),
        Case(
            name: "a token failed with its reason", faults: MockFaults(failTokens: [try! DeviceToken(parsing: sampleToken): .unregistered]),
            expected: ["Unregistered"]),
        Case(
            name: "a token's first attempt fails",
            faults: MockFaults(failFirstAttempts: [try! DeviceToken(parsing: sampleToken): MockFaults.FailFirst(attempts: 1, reason: .tooManyRequests)]),
            requests: Array(repeating: ("/3/device/\(sampleToken)", token()), count: 2), expected: ["TooManyRequests", "200"]),
        Case(
            name: "a token rotated after a minute is TooManyProviderTokenUpdates",
            requests: [("/3/device/\(sampleToken)", token(issuedAt: clock - 120)), ("/3/device/\(sampleToken)", token(issuedAt: clock - 60))],
            expected: ["200", "TooManyProviderTokenUpdates"]),
        Case(
            name: "a token rotated after 20 minutes is taken",
            requests: [("/3/device/\(sampleToken)", token(issuedAt: clock - 1300)), ("/3/device/\(sampleToken)", token(issuedAt: clock - 60))],
            expected: ["200", "200"]),
        Case(name: "a broadcast API request without a token", requests: [("/1/apps/com.example.app/all-channels", nil)], expected: ["MissingProviderToken"]),
    ]

    @Test(arguments: cases)
    func requestsInARow(_ table: Case) {
        let rules = Self.rules()
        var state = Self.state(table.limits)
        var got: [String] = []
        for (index, sent) in table.requests.enumerated() {
            var request = Self.request(stream: Int32(2 * index + 1), path: sent.path, authorization: sent.authorization)
            if sent.path.hasPrefix("/1/") { request.head.method = "GET" }
            let decision = rules.decide(request, faults: table.faults, state: &state, now: Double(Self.clock))
            got.append(Self.summary(decision))
            // As the connection's handler does once it has written them.
            switch decision.action {
            case .answer(_, _, let goAway):
                state.answered(stream: request.streamID)
                if goAway != nil { state.goAwaySent = true }
            case .goAway: state.goAwaySent = true
            default: break
            }
        }
        #expect(got == table.expected)
    }

    @Test func aValidTokenRaisesTheStreamLimitOnceAndARefusedOneNever() {
        let rules = Self.rules(maxConcurrentStreams: 77)
        var state = Self.state()
        let refused = rules.decide(Self.request(authorization: "bearer a.b.c"), faults: MockFaults(), state: &state, now: Double(Self.clock))
        #expect(refused.raiseStreamLimit == nil)
        let first = rules.decide(Self.request(stream: 3), faults: MockFaults(), state: &state, now: Double(Self.clock))
        #expect(first.raiseStreamLimit == 77)
        let second = rules.decide(Self.request(stream: 5), faults: MockFaults(), state: &state, now: Double(Self.clock))
        #expect(second.raiseStreamLimit == nil)
        #expect(state.requests == 3)
    }

    @Test func aTokenRenewedAfterExpiredProviderTokenIsNoRotation() {
        // With a rotation interval longer than a token's life, only the invitation lets a new one in.
        let rules = Self.rules()
        var state = Self.state(MockProtocolLimits(tokenUpdateIntervalSeconds: 7200))
        let old = Self.token(issuedAt: Self.clock - 3000)
        let first = rules.decide(Self.request(authorization: old), faults: MockFaults(), state: &state, now: Double(Self.clock))
        let expired = rules.decide(Self.request(stream: 3, authorization: old), faults: MockFaults(), state: &state, now: Double(Self.clock + 700))
        let renewed = Self.token(issuedAt: Self.clock + 690)
        let third = rules.decide(Self.request(stream: 5, authorization: renewed), faults: MockFaults(), state: &state, now: Double(Self.clock + 700))
        let rotated = Self.token(issuedAt: Self.clock + 695)
        let fourth = rules.decide(Self.request(stream: 7, authorization: rotated), faults: MockFaults(), state: &state, now: Double(Self.clock + 700))
        #expect([first, expired, third, fourth].map(Self.summary) == ["200", "ExpiredProviderToken", "200", "TooManyProviderTokenUpdates"])
    }

    @Test func nothingIsProcessedAfterTheMocksGoAway() {
        var state = Self.state()
        state.goAwaySent = true
        let decision = Self.rules().decide(Self.request(), faults: MockFaults(), state: &state, now: Double(Self.clock))
        #expect(Self.summary(decision) == "ignore")
        #expect(state.requests == 0)
    }

    @Test func anAcceptedLiveActivityPushADeviceWouldDropIsReported() throws {
        var state = Self.state()
        let request = Self.request(pushType: "liveactivity", body: #"{"aps":{"alert":"Hi"}}"#)
        let decision = Self.rules().decide(request, faults: MockFaults(), state: &state, now: Double(Self.clock))
        #expect(Self.summary(decision) == "200")
        let problem = try #require(decision.liveActivityProblem)
        #expect(problem.subject == "/3/device/\(sampleToken)")
        #expect(!problem.text.isEmpty)
    }

    // MARK: - The stream limit and the flood guards, on a clock of our own

    @Test func streamsOverTheAcknowledgedLimitAreRefused() {
        var state = Self.state()
        #expect(state.admitStream() == .take, "before the client's ACK, the limit does not bind yet")
        #expect(state.admitStream() == .take)
        state.streamClosed()
        state.streamClosed()
        state.settingsAcknowledged()
        #expect(state.admitStream() == .take)
        #expect(state.admitStream() == .refuse("SETTINGS allow 1 stream"))
        #expect(state.raiseStreamLimit(to: 3) == 3)
        #expect(state.raiseStreamLimit(to: 3) == nil)
        state.settingsAcknowledged()
        #expect(state.admitStream() == .take)
        #expect(state.admitStream() == .take)
        #expect(state.admitStream() == .refuse("SETTINGS allow 3 streams"))
        state.goAwaySent = true
        state.streamClosed()
        #expect(state.admitStream() == .refuse("after GOAWAY"))
    }

    @Test func aZeroLimitRefusesEvenBeforeTheAcknowledgement() {
        var state = ConnectionState(limits: MockProtocolLimits(), initialStreamLimit: 0, now: .uptimeNanoseconds(0))
        #expect(state.admitStream() == .refuse("SETTINGS allow 0 streams"))
    }

    @Test func aPingPerRequestIsPaidForAndAFloodIsStopped() {
        var state = Self.state(MockProtocolLimits(controlFrameAllowance: 10))
        let start = NIODeadline.uptimeNanoseconds(0)
        // A client that sends a PING and a PRIORITY frame with each of 10,000 requests, all in one second.
        for _ in 0..<10_000 {
            _ = state.admitStream()
            state.streamClosed()
            #expect(state.spend(.controlFrame, now: start) == nil)
            #expect(state.spend(.controlFrame, now: start) == nil)
        }
        // Then control frames alone: the allowance (10) runs out.
        var ended: APNsRules.GoAway?
        var sent = 0
        while ended == nil, sent < 100 {
            ended = state.spend(.controlFrame, now: start)
            sent += 1
        }
        #expect(ended == APNsRules.GoAway(reason: .unknown("TooManyControlFrames"), code: 0xb))
        #expect(sent == 9, "the 8 frames left of the allowance, then the one too many")
    }

    @Test func theControlFrameAllowanceRefillsWithTime() {
        var state = Self.state(MockProtocolLimits(controlFrameAllowance: 100))
        for _ in 0..<100 { #expect(state.spend(.controlFrame, now: .uptimeNanoseconds(0)) == nil) }
        // One second later the allowance is whole again (100 a second, up to the allowance).
        for _ in 0..<100 { #expect(state.spend(.controlFrame, now: .uptimeNanoseconds(1_000_000_000)) == nil) }
        #expect(state.spend(.controlFrame, now: .uptimeNanoseconds(1_000_000_000)) != nil)
    }

    @Test func resetsOfWaitingStreamsAreCountedInAWindow() {
        var state = Self.state(MockProtocolLimits(streamResetLimit: 3))
        for _ in 0..<3 { #expect(state.spend(.resetOfAWaitingStream, now: .uptimeNanoseconds(0)) == nil) }
        // Eleven seconds later the window has moved on.
        let later = NIODeadline.uptimeNanoseconds(11_000_000_000)
        for _ in 0..<3 { #expect(state.spend(.resetOfAWaitingStream, now: later) == nil) }
        #expect(state.spend(.resetOfAWaitingStream, now: later) == APNsRules.GoAway(reason: .unknown("TooManyStreamResets"), code: 0xb))
        var unlimited = Self.state(MockProtocolLimits(streamResetLimit: 0))
        for _ in 0..<10_000 { #expect(unlimited.spend(.resetOfAWaitingStream, now: later) == nil) }
    }

    @Test func theIdleTimeoutAnswersStalledRequestsThenEndsAConnectionWithNothingToDo() {
        func at(_ seconds: UInt64) -> NIODeadline { .uptimeNanoseconds(seconds * 1_000_000_000) }
        var state = Self.state()
        let timeout = TimeAmount.seconds(5)
        state.lastFrame = at(2)
        let streams = [
            ConnectionState.StreamActivity(streamID: 1, answered: false, lastActivity: at(1)),
            ConnectionState.StreamActivity(streamID: 3, answered: false, lastActivity: at(2)),
            ConnectionState.StreamActivity(streamID: 5, answered: true, lastActivity: at(1)),
        ]
        // At 6 s, stream 1 has stalled for 5; stream 3 has not yet; 5 waits for its delayed answer.
        #expect(state.idleCheck(streams, now: at(6) + .milliseconds(1), timeout: timeout) == .init(stalled: [1], goAway: false, next: at(7)))
        // With only stalled streams left, the connection ends with them once its last frame is as old.
        #expect(state.idleCheck(Array(streams.prefix(2)), now: at(8), timeout: timeout) == .init(stalled: [1, 3], goAway: true, next: at(7)))
        // A connection with no stream: ended after the timeout since its last frame, looked at again then.
        #expect(state.idleCheck([], now: at(4), timeout: timeout) == .init(stalled: [], goAway: false, next: at(7)))
        #expect(state.idleCheck([], now: at(8), timeout: timeout).goAway)
        // Only answered streams left: no idleness of the client's, looked at again after a timeout.
        #expect(state.idleCheck([streams[2]], now: at(20), timeout: timeout) == .init(stalled: [], goAway: false, next: at(25)))
    }

    // MARK: - The answer's bytes

    static func response(_ reply: APNsRules.Reply, faults: MockFaults = MockFaults(), apnsID: String? = nil) -> APNsResponse {
        var head = RequestHead()
        if let apnsID { head.add(name: "apns-id", value: apnsID) }
        var identifiers = UUIDGenerator()
        return APNsResponse(reply, request: head, faults: faults, date: "Thu, 01 Jan 2026 00:00:00 GMT", now: 1_800_000_000.5, identifiers: &identifiers)
    }

    static func names(_ response: APNsResponse) -> [String] { response.headers.map(\.name) }

    @Test func a200CarriesTheIdsAndTheDateAndNoBody() {
        let id = "123e4567-e89b-12d3-a456-426614174000"
        let ok = Self.response(APNsRules.Reply(), apnsID: id)
        #expect(ok.status == 200 && ok.body == nil)
        #expect(Self.names(ok) == [":status", "apns-id", "apns-unique-id", "date"])
        #expect(ok.headers.first(name: "apns-id") == id)
        #expect(ok.loggedID == id)
    }

    @Test func a410CarriesItsTimestampInMilliseconds() {
        let gone = Self.response(APNsRules.Reply(reason: .unregistered))
        #expect(gone.status == 410)
        #expect(gone.body.map { String(buffer: $0) } == #"{"reason":"Unregistered","timestamp":1800000000500}"#)
        #expect(Self.names(gone) == [":status", "apns-id", "content-type", "date", "content-length"])
    }

    @Test func retryAfterGoesOnlyOnRefusalsAndPaddingOnEveryBody() {
        let faults = MockFaults(retryAfter: "120", padBodyBytes: 3)
        let ok = Self.response(APNsRules.Reply(), faults: faults)
        #expect(ok.headers.first(name: "retry-after") == nil)
        #expect(ok.body?.readableBytes == 3)
        let refused = Self.response(APNsRules.Reply(reason: .tooManyRequests), faults: faults)
        #expect(refused.headers.first(name: "retry-after") == "120")
        #expect(refused.body.map { String(buffer: $0) } == #"{"reason":"TooManyRequests"}   "#)
        #expect(refused.notes == ["retry-after: 120", "body padded with 3 bytes"])
    }

    @Test func aReplacedAnswerIsBareAndAnInformationalOneGoesFirst() {
        var proxy = APNsRules.Reply()
        proxy.replacement = MockFaults.Answer(status: 502, body: Array(#"{"reason":"BadGateway"}"#.utf8))
        let replaced = Self.response(proxy)
        #expect(Self.names(replaced) == [":status", "content-length"])
        #expect(replaced.loggedReason == "BadGateway" && replaced.loggedID == nil)
        var early = APNsRules.Reply()
        early.replacement = MockFaults.Answer(status: 103)
        let informational = Self.response(early)
        #expect(informational.informational == 103 && informational.status == 200)
        #expect(informational.notes == ["103 sent first"])
    }
}
