import ChildProcess
import PushTestSupport
import PushWords
import Testing

@testable import PushCore

@Suite struct PushDispatcherTests {
    static let template = try! PushTemplate(PushSpec(topic: "com.example.app"), payload: Payload(bytes: Array(#"{"aps":{"alert":"x"}}"#.utf8), source: "test"))

    func token(_ n: Int) -> DeviceToken {
        let hex = String(n, radix: 16)
        return try! DeviceToken(parsing: String(repeating: "0", count: 64 - hex.count) + hex)
    }

    func run(
        _ transport: ScriptedTransport, tokens: [DeviceToken], retries: Int = 3,
        auth: CountingAuthorization = CountingAuthorization()
    ) -> ([PushResult], BatchSummary) {
        let clock = FakeClock()
        let dispatcher = PushDispatcher(
            transport: transport, authorization: auth, policy: RetryPolicy(maxRetries: retries, baseDelay: 0.01),
            clock: clock.read, random: { 0.5 })
        var results: [PushResult] = []
        let summary = dispatcher.run(PushDispatcherTests.template, to: tokens) { results.append($0) }
        return (results, summary)
    }

    @Test("every token gets exactly one result, in any mix of answers")
    func oneResultEach() {
        let transport = ScriptedTransport()
        let tokens = (0..<50).map(token)
        for (i, t) in tokens.enumerated() {
            switch i % 5 {
            case 0: transport.script[t.hex] = [.success(.rejected(410, "Unregistered", extra: ",\"timestamp\":1700000000000"))]
            case 1: transport.script[t.hex] = [.success(.rejected(503, "ServiceUnavailable")), .success(.ok)]
            case 2: transport.script[t.hex] = [.failure(.connectionLost("GOAWAY")), .success(.ok)]
            case 3: transport.script[t.hex] = [.success(.rejected(500, "InternalServerError"))]
            default: break
            }
        }
        let (results, summary) = run(transport, tokens: tokens)
        #expect(results.count == 50)
        #expect(Set(results.map(\.token)).count == 50)
        #expect(summary.accepted == 30)
        #expect(summary.rejected == 10)
        #expect(summary.temporaryFailures == 10)
        #expect(summary.rejectedByReason == [.apns(.unregistered): 10])
        #expect(summary.outcome == .temporaryFailure)
        let retried = results.first { $0.token == tokens[1] }
        #expect(retried?.attempts == 2)
        #expect(results.first { $0.token == tokens[3] }?.attempts == 4)  // 1 + 3 retries
        #expect(results.first { $0.token == tokens[0] }?.timestamp == 1_700_000_000_000)
    }

    @Test("400, 403 (other than expired), 410 and 413 are never retried")
    func neverRetried() {
        for (status, reason) in [(400, "BadDeviceToken"), (403, "InvalidProviderToken"), (410, "Unregistered"), (413, "PayloadTooLarge")] {
            let transport = ScriptedTransport()
            let t = token(1)
            transport.script[t.hex] = [.success(.rejected(status, reason)), .success(.ok)]
            let (results, summary) = run(transport, tokens: [t])
            #expect(results.map(\.attempts) == [1], "\(reason)")
            #expect(summary.outcome == .rejected)
        }
    }

    @Test("ExpiredProviderToken: re-sign once, then retry with the new token")
    func expiredToken() {
        let transport = ScriptedTransport()
        let t = token(1)
        transport.script[t.hex] = [.success(.rejected(403, "ExpiredProviderToken")), .success(.ok)]
        let auth = CountingAuthorization()
        let (results, summary) = run(transport, tokens: [t], auth: auth)
        #expect(summary.outcome == .accepted)
        #expect(results.first?.attempts == 2)
        #expect(transport.started.map(\.authorization) == ["bearer token-1", "bearer token-2"])
    }

    @Test("ExpiredProviderToken for several requests in flight: one re-sign, and every one goes again with the new token")
    func expiredTokenInFlight() {
        let transport = ScriptedTransport()
        let tokens = (0..<4).map(token)
        for t in tokens { transport.script[t.hex] = [.success(.rejected(403, "ExpiredProviderToken")), .success(.ok)] }
        let auth = CountingAuthorization()
        let (results, summary) = run(transport, tokens: tokens, auth: auth)
        #expect(summary.outcome == .accepted)
        #expect(summary.accepted == 4)
        #expect(results.map(\.attempts) == [2, 2, 2, 2])
        #expect(auth.generation == 2, "signed once more, not once per request")
        #expect(transport.started.suffix(4).allSatisfy { $0.authorization == "bearer token-2" })
    }

    @Test("a token that expires again after the re-sign is final")
    func expiredTwice() {
        let transport = ScriptedTransport()
        let t = token(1)
        transport.script[t.hex] = [.success(.rejected(403, "ExpiredProviderToken"))]
        let auth = CountingAuthorization()
        let (results, summary) = run(transport, tokens: [t], auth: auth)
        #expect(results.map(\.attempts) == [2])
        #expect(auth.generation == 2)
        #expect(summary.outcome == .rejected)
    }

    @Test("unreachable: no further sends, and every remaining token still gets a result (exit 69)")
    func unreachable() {
        let transport = ScriptedTransport()
        transport.capacity = 2
        let tokens = (0..<10).map(token)
        for t in tokens { transport.script[t.hex] = [.failure(.unreachable("connection refused"))] }
        let (results, summary) = run(transport, tokens: tokens)
        #expect(results.count == 10)
        #expect(transport.started.count == 2)
        #expect(summary.unreachable == 10)
        #expect(summary.outcome == .unreachable)
    }

    @Test("the transport is never given more than it has room for")
    func capacity() {
        let transport = ScriptedTransport()
        transport.capacity = 3
        let (results, _) = run(transport, tokens: (0..<20).map(token))
        #expect(results.count == 20)
        #expect(transport.started.count == 20)
        #expect(transport.peakInFlight == 3, "never more than the transport has room for, and kept full")
    }

    @Test("back-off grows exponentially, is capped, and a longer Retry-After wins")
    func backoff() {
        let policy = RetryPolicy(maxRetries: 5, baseDelay: 1, maxDelay: 8)
        #expect(policy.delay(beforeAttempt: 2, retryAfter: nil, random: 1) == 1)
        #expect(policy.delay(beforeAttempt: 3, retryAfter: nil, random: 1) == 2)
        #expect(policy.delay(beforeAttempt: 6, retryAfter: nil, random: 1) == 8)
        #expect(policy.delay(beforeAttempt: 2, retryAfter: nil, random: 0) == 0.5)
        #expect(policy.delay(beforeAttempt: 2, retryAfter: 6, random: 1) == 6)
    }

    @Test("the retry decision, case by case")
    func decisions() {
        let policy = RetryPolicy(maxRetries: 2, baseDelay: 1, maxDelay: 30, timeBudget: 100)
        func decide(
            _ outcome: AttemptOutcome, attempts: Int = 1, elapsed: Double = 0,
            replaced: Bool = false, mayRenew: Bool = false
        ) -> RetryDecision {
            policy.decide(outcome, attempts: attempts, elapsed: elapsed, tokenReplaced: replaced, mayRenew: mayRenew, random: 1)
        }
        let unavailable = PushResponse.rejected(503, "ServiceUnavailable")
        #expect(decide(.success(.ok)) == .final)
        #expect(decide(.success(.rejected(410, "Unregistered"))) == .final)
        #expect(decide(.success(.rejected(400, "BadDeviceToken"))) == .final)
        #expect(decide(.success(unavailable)) == .again(after: 1))
        #expect(decide(.success(unavailable), attempts: 3) == .exhausted(nil), "--retries 2: the third answer is final")
        // No APNs reason (a proxy's 503, a load balancer's 429): decided by status.
        let bare503 = PushResponse(status: 503, apnsID: nil, apnsUniqueID: nil, body: Array("<html>busy</html>".utf8))
        #expect(decide(.success(bare503)) == .again(after: 1))
        #expect(decide(.success(PushResponse(status: 429, apnsID: nil, apnsUniqueID: nil, body: []))) == .again(after: 1))
        #expect(decide(.success(PushResponse(status: 400, apnsID: nil, apnsUniqueID: nil, body: []))) == .final)
        // Retry-After: honoured up to the back-off ceiling, past it the token is given up.
        let later = PushResponse(status: 429, apnsID: nil, apnsUniqueID: nil, retryAfterSeconds: 20, body: Array(#"{"reason":"TooManyRequests"}"#.utf8))
        #expect(decide(.success(later)) == .again(after: 20))
        let days = PushResponse(status: 429, apnsID: nil, apnsUniqueID: nil, retryAfterSeconds: 999_999, body: Array(#"{"reason":"TooManyRequests"}"#.utf8))
        guard case .exhausted(let why?) = decide(.success(days)) else {
            Issue.record("Retry-After 999999 must give up")
            return
        }
        #expect(why == .retryAfterTooLong(seconds: 999_999, longest: 30) && why.words.en.contains("999999"))
        // Provider tokens.
        let expired = PushResponse.rejected(403, "ExpiredProviderToken")
        #expect(decide(.success(expired), mayRenew: true) == .renewToken)
        #expect(decide(.success(expired), mayRenew: false) == .final)
        #expect(decide(.success(expired), replaced: true) == .againWithCurrentToken)
        let invalid = PushResponse.rejected(403, "InvalidProviderToken")
        #expect(decide(.success(invalid)) == .final)
        #expect(decide(.success(invalid), mayRenew: true) == .renewToken, "a cached token refused as invalid is re-signed once")
        // Transport failures.
        #expect(decide(.failure(.unreachable("x"))) == .final)
        #expect(decide(.failure(.timedOut("x")), attempts: 3) == .exhausted(nil))
        #expect(decide(.failure(.connectionLost("x")), attempts: 3) == .again(after: 4), "lost connections get 5 more")
        #expect(decide(.failure(.connectionLost("x")), attempts: 8) == .exhausted(nil))
        // The time budget counts every retry, lost connections included.
        guard case .exhausted(_?) = decide(.failure(.connectionLost("x")), attempts: 3, elapsed: 97) else {
            Issue.record("past the time budget a lost request is not sent again")
            return
        }
    }

    @Test("a key that cannot sign mid-batch stops the run as an input problem, not a network one; every token still gets one result")
    func signingFailure() {
        final class BreakingSigner: AuthorizationSource {
            var calls = 0
            func authorization() throws -> String? {
                calls += 1
                if calls > 5 { throw InputError("the key file changed and no longer parses") }
                return "bearer ok"
            }
            func renew() throws {}
        }
        let transport = ScriptedTransport()
        let dispatcher = PushDispatcher(
            transport: transport, authorization: BreakingSigner(), policy: RetryPolicy(maxRetries: 3, baseDelay: 0.01),
            clock: FakeClock().read, random: { 0.5 })
        var results: [PushResult] = []
        let summary = dispatcher.run(PushDispatcherTests.template, to: (0..<30).map(token)) { results.append($0) }
        #expect(results.count == 30)
        #expect(transport.started.count < 6, "nothing started after the signing failure")
        #expect(summary.abortedBy?.message(.en) == "the key file changed and no longer parses")
        #expect(results.filter { $0.outcome == .accepted }.count == transport.started.count)
        #expect(results.filter { $0.explanationWords.text(.en).contains("not sent") }.count == 30 - transport.started.count)
    }

    @Test("'takes no requests' stops the run only if the server never answered; after answers it is a lost request, retried")
    func refusedAfterAnswers() {
        let refused = AttemptOutcome.failure(.refused("tried 5 times"))
        let transport = ScriptedTransport()
        transport.capacity = 1
        transport.script[token(1).hex] = [refused, .success(.ok)]
        let (results, summary) = run(transport, tokens: [token(0), token(1), token(2)])
        #expect(results.count == 3)
        #expect(summary.outcome == .accepted, "retried, then accepted")

        let dead = ScriptedTransport()
        dead.capacity = 1
        for n in 0..<3 { dead.script[token(n).hex] = [refused] }
        let (deadResults, deadSummary) = run(dead, tokens: (0..<3).map(token))
        #expect(deadResults.count == 3)
        #expect(dead.started.count == 1, "a server that never answered: stopped at once")
        #expect(deadSummary.outcome == .temporaryFailure)
    }

    @Test("a server that stops answering: the run stops trying after two timeouts' silence, every token still gets one result")
    func deadServer() {
        let transport = ScriptedTransport()
        for n in 0..<40 { transport.script[token(n).hex] = [.failure(.timedOut("no answer"))] }
        let clock = FakeClock()
        let dispatcher = PushDispatcher(
            transport: transport, authorization: CountingAuthorization(),
            policy: RetryPolicy(maxRetries: 3, baseDelay: 0.01, deadServerAfter: 2),
            clock: clock.read, random: { 0.5 })
        var results: [PushResult] = []
        let summary = dispatcher.run(PushDispatcherTests.template, to: (0..<40).map(token)) { results.append($0) }
        #expect(results.count == 40)
        #expect(Set(results.map(\.token)).count == 40)
        #expect(summary.outcome == .temporaryFailure)
        #expect(transport.started.count < 40 * 4, "not every token tried to the end: \(transport.started.count) attempts")
        #expect(results.contains { $0.explanationWords.text(.en).contains("answered nothing") })
    }
}

@Suite struct StoppedRunTests {
    func token(_ n: Int) -> DeviceToken { PushDispatcherTests().token(n) }

    /// Runs `tokens` through `transport`, with a stop that `arrive` triggers; returns results and summary.
    func run(_ transport: ScriptedTransport, tokens: [DeviceToken], stop: TestStop, grace: Double = 5) -> ([PushResult], BatchSummary) {
        let dispatcher = PushDispatcher(
            transport: transport, authorization: CountingAuthorization(),
            policy: RetryPolicy(maxRetries: 3, baseDelay: 0.01), clock: FakeClock().read,
            random: { 0.5 }, stopRequests: stop, grace: grace)
        var results: [PushResult] = []
        let summary = dispatcher.run(PushDispatcherTests.template, to: tokens) { results.append($0) }
        return (results, summary)
    }

    @Test("a stop mid-run: nothing new starts, answered ones keep their answers, the never-sent are not-sent; one result each")
    func stopMidRun() {
        let transport = ScriptedTransport()
        transport.capacity = 4
        let stop = TestStop()
        transport.onPoll = { if transport.polls == 3 { stop.signal() } }
        let tokens = (0..<40).map(token)
        let (results, summary) = run(transport, tokens: tokens, stop: stop)
        #expect(results.count == 40)
        #expect(Set(results.map(\.token)).count == 40)
        let sent = Set(transport.started.map { $0.token! })
        #expect(sent.count == 12, "three fills of four, then nothing new")
        #expect(results.filter { $0.stopped == .notSent }.compactMap(\.token).allSatisfy { !sent.contains($0) }, "a token that was sent is never not-sent")
        #expect(summary.accepted == 12)
        #expect(summary.notSent == 28)
        #expect(summary.inDoubt == 0)
        #expect(summary.stoppedBy == StopRequest(signal: .terminate, count: 1))
        #expect(results.filter { $0.stopped != nil }.allSatisfy { $0.status == nil && $0.outcome == .stopped })
    }

    @Test("requests in flight past the grace are in doubt; a second signal ends the grace at once")
    func inDoubtAfterGrace() {
        for signals in [1, 2] {
            let transport = ScriptedTransport()
            transport.capacity = 3
            let tokens = (0..<10).map(token)
            transport.silent = [tokens[1].hex, tokens[2].hex]
            let stop = TestStop()
            transport.onPoll = {
                if transport.polls == 1 { for _ in 0..<signals { stop.signal(.interrupt) } }
            }
            let (results, summary) = run(transport, tokens: tokens, stop: stop, grace: 2)
            #expect(results.count == 10)
            #expect(summary.inDoubt == 2, "the two never answered")
            #expect(results.filter { $0.stopped == .inDoubt }.map(\.token) == [tokens[1], tokens[2]])
            #expect(summary.accepted == 1)
            #expect(summary.notSent == 7)
            // With one signal the grace (2 s on a clock that moves 0.25 s a read) takes several polls; with two, none.
            if signals == 2 { #expect(transport.polls <= 2, "\(transport.polls) polls after a second signal") } else { #expect(transport.polls > 3) }
        }
    }

    @Test("a stop with retries waiting: answered-and-retryable is not-sent; a timed-out last attempt is in doubt")
    func waitingRetries() {
        let transport = ScriptedTransport()
        transport.capacity = 2
        let tokens = (0..<2).map(token)
        transport.script[tokens[0].hex] = [.success(.rejected(503, "ServiceUnavailable"))]
        transport.script[tokens[1].hex] = [.failure(.timedOut("no answer"))]
        let stop = TestStop()
        transport.onPoll = { if transport.polls == 2 { stop.signal() } }
        let (results, _) = run(transport, tokens: tokens, stop: stop)
        #expect(results.count == 2)
        #expect(results.first { $0.token == tokens[0] }?.stopped == .notSent)
        #expect(results.first { $0.token == tokens[1] }?.stopped == .inDoubt)
        #expect(results.allSatisfy { $0.attempts >= 1 })
    }

    @Test("results carry their place in the list")
    func positions() {
        let transport = ScriptedTransport()
        let tokens = (0..<9).map(token)
        let notifications = tokens.enumerated().map { index, token in
            var notification = PushDispatcherTests.template.notification(to: token)
            notification.position = index
            return RunRequest(notification)
        }
        let dispatcher = PushDispatcher(transport: transport, authorization: CountingAuthorization(), clock: FakeClock().read)
        var results: [PushResult] = []
        _ = dispatcher.run(notifications) { results.append($0) }
        #expect(results.map(\.position).sorted() == Array(0..<9))
        #expect(results.allSatisfy { tokens[$0.position] == $0.token })
    }
}

@Suite struct RunRuleTests {
    @Test(
        "the dead-server breaker: silent for the limit after a failure, or not",
        arguments: [
            (limit: 2.0 as Double?, lastAnswer: 0.0, now: 1.9, gaveUp: false),
            (limit: 2.0, lastAnswer: 0.0, now: 2.0, gaveUp: true),
            (limit: 2.0, lastAnswer: 5.0, now: 6.0, gaveUp: false),
            (limit: nil, lastAnswer: 0.0, now: 1000.0, gaveUp: false),
        ])
    func breaker(limit: Double?, lastAnswer: Double, now: Double, gaveUp: Bool) {
        var breaker = DeadServerBreaker(limit: limit, started: 0)
        breaker.answered(at: lastAnswer)
        let verdict = breaker.verdict(after: .timedOut("x"), at: now)
        #expect((verdict != nil) == gaveUp)
        if let verdict { #expect(verdict.words.en.contains("answered nothing for \(Int(now - lastAnswer)) s")) }
    }

    @Test(
        "the GOAWAY answer: asked once, only before any answer, only for a reason retrying cannot cure",
        arguments: [
            (reason: "TopicDisallowed" as String?, answeredAny: false, substituted: true),
            (reason: "TopicDisallowed", answeredAny: true, substituted: false),
            (reason: "ServiceUnavailable", answeredAny: false, substituted: false),
            (reason: nil, answeredAny: false, substituted: false),
        ])
    func goAway(reason: String?, answeredAny: Bool, substituted: Bool) {
        var goAway = GoAwayAnswer()
        var asked = 0
        for _ in 0..<3 {
            let answer = goAway.substitute(answeredAny: answeredAny) {
                asked += 1
                return reason
            }
            #expect((answer != nil) == substituted)
            if let answer { #expect(answer.reason == RejectionReason(apnsName: reason!)) }
        }
        #expect(asked == (answeredAny ? 0 : 1), "the transport is asked at most once")
    }

    @Test("token renewal: once after ExpiredProviderToken, once after InvalidProviderToken for a cached token only")
    func renewal() {
        var renewal = TokenRenewal()
        #expect(renewal.mayRenew(for: .expiredProviderToken, usesCachedToken: false))
        #expect(!renewal.mayRenew(for: .invalidProviderToken, usesCachedToken: false))
        #expect(renewal.mayRenew(for: .invalidProviderToken, usesCachedToken: true))
        #expect(!renewal.mayRenew(for: .badDeviceToken, usesCachedToken: true))
        #expect(!renewal.mayRenew(for: nil, usesCachedToken: true))
        renewal.renewing(for: .expiredProviderToken)
        #expect(!renewal.mayRenew(for: .expiredProviderToken, usesCachedToken: false))
        #expect(renewal.mayRenew(for: .invalidProviderToken, usesCachedToken: true))
        renewal.renewing(for: .invalidProviderToken)
        #expect(!renewal.mayRenew(for: .invalidProviderToken, usesCachedToken: true))
    }

    @Test("the retry queue hands back the earliest due first, and what was put first at once")
    func queue() {
        var queue = RetryQueue<String>()
        queue.add("b", due: 2)
        queue.add("a", due: 1)
        queue.add("c", due: 2)
        queue.addFirst("now")
        #expect(queue.popDue(at: 0) == "now")
        #expect(queue.popDue(at: 0) == nil)
        #expect(queue.popDue(at: 2) == "a")
        #expect(queue.popDue(at: 2) == "b")
        #expect(queue.drain() == ["c"])
        #expect(queue.isEmpty)
    }

    @Test(
        "the table of attempts in flight behaves as a dictionary by id (fixed seed): ids never repeat, an id that came back finds nothing, a drain hands back what is left in the order it went in"
    )
    func attemptTable() {
        var random = SplitMix64(seed: 0xA77E_2026)
        var table = AttemptTable<Int>()
        var model: [Int: Int] = [:]
        var issued: [Int] = []
        var seen = Set<Int>()
        for step in 0..<20_000 {
            if model.isEmpty || random.chance(55) {
                let id = table.insert(step)
                #expect(seen.insert(id).inserted, "id \(id) given twice")
                #expect(id > (issued.last ?? 0), "ids grow in the order attempts start")
                issued.append(id)
                model[id] = step
            } else {
                // Any id given so far: one in flight, or one already taken out (a late answer).
                let id = random.pick(issued)
                #expect(table.remove(id: id) == model.removeValue(forKey: id))
            }
            #expect(table.count == model.count)
        }
        #expect(table.remove(id: 0) == nil && table.remove(id: -1) == nil && table.remove(id: Int.max) == nil)
        #expect(table.drain() == model.sorted { $0.key < $1.key }.map(\.value))
        #expect(table.isEmpty && table.remove(id: issued.last!) == nil)
        let after = table.insert(-1)
        #expect(after > issued.last!, "ids keep growing after a drain")
    }
}

@Suite struct PushTemplateTests {
    func template(_ payload: String, _ spec: PushSpec = PushSpec(topic: "com.example.app")) throws -> PushTemplate {
        try PushTemplate(spec, payload: Payload(bytes: Array(payload.utf8), source: "test"))
    }

    @Test("push type inference: only content-available 1 is background")
    func inference() throws {
        #expect(try template(#"{"aps":{"content-available":1}}"#).pushType == .background)
        #expect(try template(#"{"aps":{"content-available":1}}"#).priority == .considerate)
        #expect(try template(#"{"aps":{"content-available":1,"badge":1}}"#).pushType == .alert)
        #expect(try template(#"{"aps":{"content-available":0}}"#).pushType == .alert)
        #expect(try template(#"{"aps":{"alert":"x"}}"#).priority == .immediate)
    }

    @Test("headers come out lower-case in a fixed order, with the topic suffix")
    func headers() throws {
        let t = try template(
            "{\"aps\":{}}",
            PushSpec(
                topic: "a.b", pushType: .voip, priority: .considerate, collapseID: "c", expiration: 0,
                apnsID: "123E4567-E89B-12D3-A456-426614174000"))
        #expect(
            t.headers.map { "\($0.0): \($0.1)" } == [
                "apns-push-type: voip", "apns-topic: a.b.voip", "apns-priority: 5", "apns-collapse-id: c",
                "apns-expiration: 0", "apns-id: 123e4567-e89b-12d3-a456-426614174000",
            ])
    }

    @Test("what a person wrote becomes the spec's types, or says what was wrong; a library's typed values meet the same rules")
    func givenFields() throws {
        #expect(try PushSpec.pushType(given: "voip", name: "--push-type") == .voip)
        let typo = try #require(throws: InputError.self) { try PushSpec.pushType(given: "alrt", name: "--push-type") }
        #expect(typo.problem(HeaderProblem.self) == .unknownPushType(name: "--push-type", shown: "alrt", meant: .alert))
        #expect(try PushSpec.priority(given: "5", name: "--priority") == .considerate)
        #expect(try PushSpec.priority(given: 1, name: "priority") == .low)
        #expect(throws: InputError.self) { try PushSpec.priority(given: "7", name: "--priority") }
        #expect(try PushSpec.expiration(given: "0", name: "--expiration") == 0)
        let date = try #require(throws: InputError.self) { try PushSpec.expiration(given: "2026-12-01", name: "--expiration") }
        #expect(date.hintWords?.en.contains("1796083200") == true)
        #expect(throws: InputError.self) { try template(#"{"aps":{}}"#, PushSpec(topic: "a.b", expiration: -1)) }
        #expect(throws: InputError.self) { try template(#"{"aps":{"content-available":1}}"#, PushSpec(topic: "a.b", priority: .immediate)) }
    }

    @Test("size is exact: 4096 bytes pass, 4097 are 1 over; VoIP allows 5120")
    func size() throws {
        func payload(_ n: Int) -> String {
            let shell = #"{"aps":{},"p":""}"#
            return #"{"aps":{},"p":""# + String(repeating: "x", count: n - shell.utf8.count) + #""}"#
        }
        _ = try template(payload(4096))
        let over = try #require(throws: InputError.self) { try template(payload(4097)) }
        #expect(over.words.en == "the payload is 4097 bytes, 1 over APNs' limit of 4096 bytes for alert pushes")
        #expect(over.words.es == "la carga útil ocupa 4097 bytes, 1 más que el límite de APNs de 4096 bytes para las notificaciones alert")
        #expect(over.hintWords?.en == "shorten it (only voip pushes may have 5120 bytes)")
        _ = try template(payload(5120), PushSpec(topic: "a", pushType: .voip))
        #expect(throws: InputError.self) { try template(payload(5121), PushSpec(topic: "a", pushType: .voip)) }
    }

    @Test("a missing aps dictionary is a warning, not a refusal")
    func missingAPS() throws {
        #expect(try template(#"{"custom":1}"#).warnings(sending: 1).first == .noAps)
    }

    @Test("the builder makes Apple's keys, and custom keys beside aps")
    func builder() throws {
        var b = PayloadBuilder()
        b.title = "T"
        b.body = "B"
        b.badge = 0
        b.threadID = "t1"
        b.mutableContent = true
        b.interruptionLevel = "time-sensitive"
        b.custom = [#"order={"id":42}"#, "note=plain text"]
        #expect(
            try b.build().json.compact
                == #"{"aps":{"alert":{"title":"T","body":"B"},"badge":0,"thread-id":"t1","mutable-content":1,"interruption-level":"time-sensitive"},"order":{"id":42},"note":"plain text"}"#
        )
    }
}

@Suite struct PushResultTests {
    let token = try! DeviceToken(parsing: String(repeating: "ab", count: 32))

    @Test("the fast jsonl line is the same bytes as the general encoder, and falls back for anything else")
    func jsonLine() {
        let accepted = PushResult(
            subject: .device(token),
            response: PushResponse(
                status: 200, apnsID: "8F3B0C2E-1D2A-4B5C-9D8E-7F6A5B4C3D2E",
                apnsUniqueID: nil, body: []), attempts: 2)
        #expect(accepted.jsonLine() == accepted.json().compact)
        let odd = PushResult(subject: .device(token), response: PushResponse(status: 200, apnsID: "quote\"d", apnsUniqueID: "u", body: []), attempts: 1)
        #expect(odd.jsonLine() == odd.json().compact)
        #expect(odd.jsonLine().contains(#""apnsId":"quote\"d""#))
        for (id, unique) in [("a/b c", "ü"), ("tab\there", nil), ("back\\slash", "{}")] {
            let other = PushResult(subject: .device(token), response: PushResponse(status: 200, apnsID: id, apnsUniqueID: unique, body: []), attempts: 12)
            #expect(other.jsonLine() == other.json().compact, "\(id)")
        }
        let rejected = PushResult(subject: .device(token), response: .rejected(410, "Unregistered", extra: ",\"timestamp\":1700000000000"), attempts: 1)
        #expect(rejected.jsonLine() == rejected.json().compact)
        #expect(rejected.jsonLine().contains(#""timestamp":1700000000000"#))
    }

    @Test("device tokens parse the same on the fast path and the careful one")
    func tokens() throws {
        #expect(try DeviceToken(parsing: "<AB cd\t01 EF>").hex == "abcd01ef")
        #expect(try DeviceToken(parsingUTF8: ArraySlice("  ab CD ".utf8)).hex == "abcd")
        #expect(try DeviceToken(parsing: "ab\u{00A0}cd").hex == "abcd")  // a no-break space from a web page
        #expect(throws: InputError.self) { try DeviceToken(parsingUTF8: ArraySlice("abc".utf8)) }
    }
}
