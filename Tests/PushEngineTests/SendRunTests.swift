import PushCore
import PushEngine
import PushTestSupport
import PushWords
import Testing

/// `SendRun` in process, on a scripted transport and a clock that moves only when the run waits:
/// what APNs answers, and what the run makes of it.
@Suite struct SendRunTests {
    @Test("accepted: one result with APNs' ids; one transport, made for the destination; the request carried the provider token")
    func accepted() throws {
        let engine = Engine()
        let token = Engine.token(1)
        let (results, summary) = try engine.run(Engine.plan(Engine.devices([token])))
        #expect(results.count == 1)
        #expect(results.first?.outcome == .accepted && results.first?.status == 200 && results.first?.apnsID == "id")
        #expect(results.first?.attempts == 1 && results.first?.token == token)
        #expect(summary.accepted == 1 && summary.outcome == .accepted && summary.tokens == 1)
        #expect(engine.made == ["https://api.sandbox.push.apple.com"])
        let sent = engine.transport().started
        #expect(sent.map(\.authorization) == ["bearer token-1"])
        #expect(sent.map(\.request.path) == ["/3/device/" + token.hex])
    }

    @Test("rejected: 410 Unregistered is final, with APNs' timestamp; 400 BadDeviceToken is never sent again")
    func rejected() throws {
        let engine = Engine()
        let gone = Engine.token(1)
        let bad = Engine.token(2)
        engine.transport().script[gone.hex] = [.success(.rejected(410, "Unregistered", extra: #","timestamp":1700000000000"#)), .success(.ok)]
        engine.transport().script[bad.hex] = [.success(.rejected(400, "BadDeviceToken")), .success(.ok)]
        let (results, summary) = try engine.run(Engine.plan(Engine.devices([gone, bad])))
        let dead = try #require(results.first { $0.token == gone })
        #expect(dead.outcome == .rejected && dead.status == 410 && dead.reason?.apnsName == "Unregistered" && dead.timestamp == 1_700_000_000_000)
        #expect(results.map(\.attempts) == [1, 1])
        #expect(engine.transport().started.count == 2)
        #expect(summary.rejectedByReason == [.apns(.unregistered): 1, .apns(.badDeviceToken): 1] && summary.outcome == .rejected)
    }

    @Test("5xx is retried after a back-off, then accepted; retries run out at --retries (a temporary failure)")
    func serverErrors() throws {
        let engine = Engine()
        let once = Engine.token(1)
        let always = Engine.token(2)
        engine.transport().script[once.hex] = [.success(.rejected(503, "ServiceUnavailable")), .success(.ok)]
        engine.transport().script[always.hex] = [.success(.rejected(500, "InternalServerError"))]
        let (results, summary) = try engine.run(Engine.plan(Engine.devices([once, always])))
        #expect(results.first { $0.token == once }?.outcome == .accepted)
        #expect(results.first { $0.token == once }?.attempts == 2)
        let failed = try #require(results.first { $0.token == always })
        #expect(failed.outcome == .temporaryFailure && failed.attempts == 4 && failed.reason?.apnsName == "InternalServerError")
        #expect(summary.retried == 4 && summary.outcome == .temporaryFailure)
        // The back-off waited on the run's clock (0.5 s with jitter at 0.5: 0.375 s), not on a real one.
        let starts = zip(engine.transport().started, engine.transport().startTimes).filter { $0.0.token == once }.map(\.1)
        #expect(starts == [0, 0.375])
    }

    @Test("429 with Retry-After: sent again no sooner than the server asked; a Retry-After past 30 s gives up at once (75)")
    func retryAfter() throws {
        let engine = Engine()
        let later = Engine.token(1)
        let much = Engine.token(2)
        engine.transport().script[later.hex] = [.success(.rejected(429, "TooManyRequests", retryAfter: 7)), .success(.ok)]
        engine.transport().script[much.hex] = [.success(.rejected(429, "TooManyRequests", retryAfter: 3600))]
        let (results, summary) = try engine.run(Engine.plan(Engine.devices([later, much])))
        let starts = zip(engine.transport().started, engine.transport().startTimes).filter { $0.0.token == later }.map(\.1)
        #expect(starts == [0, 7])
        #expect(results.first { $0.token == later }?.outcome == .accepted)
        let gaveUp = try #require(results.first { $0.token == much })
        #expect(gaveUp.outcome == .temporaryFailure && gaveUp.attempts == 1)
        #expect(gaveUp.explanationWords.text(.en).contains("Retry-After"))
        #expect(summary.outcome == .temporaryFailure)
    }

    @Test("timeouts are retried up to --retries, then a temporary failure that APNs may have (in doubt)")
    func timeouts() throws {
        let engine = Engine()
        let token = Engine.token(1)
        engine.transport().latency = 10
        engine.transport().script[token.hex] = [.failure(.timedOut("no answer in 10 s"))]
        let policy = RetryPolicy(maxRetries: 2, baseDelay: 0.5, maxDelay: 30)
        let (results, _) = try engine.run(Engine.plan(Engine.devices([token]), policy: policy))
        let result = try #require(results.first)
        #expect(result.outcome == .temporaryFailure && result.attempts == 3 && result.inDoubt)
        #expect(engine.clock.now >= 30, "three attempts of 10 s each on the run's clock")
    }

    @Test("a server that answers nothing: after two timeouts' silence the run gives up on everything not answered")
    func deadServer() throws {
        let engine = Engine()
        engine.transport().latency = 10
        let tokens = (0..<6).map(Engine.token)
        for token in tokens { engine.transport().script[token.hex] = [.failure(.timedOut("no answer"))] }
        let (results, summary) = try engine.run(Engine.plan(Engine.devices(tokens)))
        #expect(results.count == 6)
        #expect(summary.temporaryFailures == 6)
        #expect(engine.transport().started.count < 6 * 4, "not every token tried to the end")
        #expect(results.contains { $0.explanationWords.text(.en).contains("answered nothing") })
    }

    @Test("a request lost with its connection was not processed: sent again, with 5 more tries than --retries gives answers")
    func lostConnection() throws {
        let engine = Engine()
        let once = Engine.token(1)
        let always = Engine.token(2)
        let busy = Engine.token(3)
        engine.transport().script[once.hex] = [.failure(.connectionLost("GOAWAY")), .success(.ok)]
        engine.transport().script[always.hex] = [.failure(.connectionLost("stream reset"))]
        engine.transport().script[busy.hex] = [.success(.rejected(503, "ServiceUnavailable"))]
        let policy = RetryPolicy(maxRetries: 1, baseDelay: 0.5, maxDelay: 30)
        let (results, _) = try engine.run(Engine.plan(Engine.devices([once, always, busy]), policy: policy))
        let resent = try #require(results.first { $0.token == once })
        #expect(resent.outcome == .accepted && resent.attempts == 2)
        let lost = try #require(results.first { $0.token == always })
        #expect(lost.outcome == .temporaryFailure && lost.attempts == 2 + RetryPolicy.extraRetriesForLostConnections)
        #expect(!lost.inDoubt, "never processed: safe to send again")
        let answered = try #require(results.first { $0.token == busy })
        #expect(answered.outcome == .temporaryFailure && answered.attempts == 2, "an answer APNs gave gets --retries only")
    }

    @Test("GOAWAY before any answer, with a reason retrying cannot cure: every request gets it as its answer, once, nothing sent again")
    func goAway() throws {
        let engine = Engine()
        engine.capacity = 2
        let tokens = (0..<5).map(Engine.token)
        for token in tokens { engine.transport().script[token.hex] = [.failure(.connectionLost("GOAWAY"))] }
        engine.transport().goAway = "TopicDisallowed"
        let (results, summary) = try engine.run(Engine.plan(Engine.devices(tokens)))
        #expect(results.count == 5 && results.allSatisfy { $0.reason?.apnsName == "TopicDisallowed" && $0.attempts == 1 })
        #expect(engine.transport().started.count == 5)
        #expect(engine.transport().goAwayAsked == 1)
        #expect(summary.outcome == .rejected)
    }

    @Test("ExpiredProviderToken: signed again once for all the requests in flight, each sent again with the new token; expired again is final")
    func expiredProviderToken() throws {
        let engine = Engine()
        let tokens = (0..<3).map(Engine.token)
        for token in tokens { engine.transport().script[token.hex] = [.success(.rejected(403, "ExpiredProviderToken")), .success(.ok)] }
        let authorization = CountingAuthorization()
        let (results, summary) = try engine.run(Engine.plan(Engine.devices(tokens), authorization: authorization))
        #expect(summary.accepted == 3 && results.map(\.attempts) == [2, 2, 2])
        #expect(authorization.generation == 2, "one new token, not one per request")
        #expect(engine.transport().started.suffix(3).allSatisfy { $0.authorization == "bearer token-2" })

        let again = Engine()
        again.transport().script[tokens[0].hex] = [.success(.rejected(403, "ExpiredProviderToken"))]
        let renewedOnce = CountingAuthorization()
        let (expired, _) = try again.run(Engine.plan(Engine.devices([tokens[0]]), authorization: renewedOnce))
        #expect(expired.first?.outcome == .rejected && expired.first?.attempts == 2)
        #expect(renewedOnce.generation == 2)
    }

    @Test("unreachable: nothing more is sent, every notification still gets its result, and the cause is kept (69)")
    func unreachable() throws {
        let engine = Engine()
        engine.capacity = 2
        let tokens = (0..<7).map(Engine.token)
        for token in tokens { engine.transport().script[token.hex] = [.failure(.unreachable("could not resolve", cause: .dns))] }
        let (results, summary) = try engine.run(Engine.plan(Engine.devices(tokens)))
        #expect(results.count == 7 && summary.unreachable == 7)
        #expect(engine.transport().started.count == 2)
        #expect(summary.unreachableCause == .dns && summary.outcome == .unreachable)
        #expect(results.filter { $0.attempts == 0 }.allSatisfy { $0.explanationWords.text(.en).hasSuffix("(not sent)") })
    }

    @Test("a transport that cannot be made: the run throws before any result, and nothing is recorded")
    func noTransport() throws {
        let engine = Engine()
        engine.unavailable = InputError(Words("libcurl could not start", es: "libcurl no pudo arrancar"), kind: .unavailable)
        let error = try #require(throws: InputError.self) { try engine.run(Engine.plan(Engine.devices([Engine.token(1)]))) }
        #expect(error.kind == .unavailable)
        #expect(engine.made.count == 1)
    }

    @Test("the plan's likely cause joins the explanation of each result with that reason, and only those")
    func likelyCauses() throws {
        let engine = Engine()
        let refused = Engine.token(1)
        let fine = Engine.token(2)
        engine.transport().script[refused.hex] = [.success(.rejected(403, "InvalidProviderToken"))]
        var plan = Engine.plan(Engine.devices([refused, fine]))
        plan.likelyCauses[.invalidProviderToken] = Words("the key id contradicts the file name", es: "el key id contradice el nombre del archivo")
        let (results, _) = try engine.run(plan)
        #expect(results.first { $0.token == refused }?.note?.en == "the key id contradicts the file name")
        #expect(results.first { $0.token == fine }?.note == nil)
    }
}
