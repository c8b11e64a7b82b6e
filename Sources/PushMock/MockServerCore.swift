import Foundation
import NIOConcurrencyHelpers
import PushCore

/// What every connection of one server shares: the checks, the faults and their counters,
/// the journal. Thread-safe; the event loops call it concurrently.
final class MockServerCore: Sendable {
    let check: RequestCheck
    let journal: RequestJournal
    let maxConcurrentStreams: Int
    let initialConcurrentStreams: Int
    let limits: MockProtocolLimits
    let broadcasts: MockBroadcasts
    let onLiveActivityProblem: (@Sendable (String) -> Void)?

    private let faultsBox: NIOLockedValueBox<MockFaults>
    private let counters = NIOLockedValueBox(Counters())
    private let connectionCounter = NIOLockedValueBox(0)

    private struct Counters {
        var streamsSeen = 0
        var attempts: [DeviceToken: Int] = [:]
        var answersReplaced = 0
    }

    init(configuration: MockAPNsConfiguration, journal: RequestJournal) {
        check = RequestCheck(
            verifier: ProviderTokenVerifier(
                keys: configuration.providerKeys, teamID: configuration.teamID, onRefusal: configuration.onTokenRefused),
            environment: configuration.environment)
        self.journal = journal
        maxConcurrentStreams = configuration.maxConcurrentStreams
        initialConcurrentStreams = configuration.initialConcurrentStreams
        limits = configuration.limits
        broadcasts = MockBroadcasts(limit: configuration.channelLimit, environment: configuration.environment)
        onLiveActivityProblem = configuration.onLiveActivityProblem
        faultsBox = NIOLockedValueBox(configuration.faults)
    }

    var faults: MockFaults {
        get { faultsBox.withLockedValue { $0 } }
        set {
            faultsBox.withLockedValue { $0 = newValue }
            counters.withLockedValue { $0 = Counters() }
        }
    }

    func nextConnectionID() -> Int {
        connectionCounter.withLockedValue { $0 += 1; return $0 }
    }

    /// What to do with a request once its body is in, before looking at it.
    enum Gate {
        /// Check it and answer as these faults say (delay, GOAWAY, silence, replaced answers, padding).
        case answer(MockFaults)
        /// RST_STREAM(REFUSED_STREAM).
        case refuse
        /// RST_STREAM(INTERNAL_ERROR).
        case reset
        case dropConnection
    }

    func gate(requestsOnConnection: Int) -> Gate {
        let faults = self.faults
        if let limit = faults.closeAfterRequests, requestsOnConnection >= limit { return .dropConnection }
        if faults.resetStreams { return .reset }
        let seen = counters.withLockedValue { $0.streamsSeen += 1; return $0.streamsSeen }
        if seen <= faults.refuseFirstStreams { return .refuse }
        if let every = faults.refuseEveryNthStream, every > 0, seen % every == 0 { return .refuse }
        return .answer(faults)
    }

    /// The answer that replaces the normal one of a request that passed the checks, while
    /// ``MockFaults/answerCount`` allows (each call counts one request).
    func replacementAnswer(_ faults: MockFaults) -> MockFaults.Answer? {
        guard let answer = faults.answer else { return nil }
        guard let limit = faults.answerCount else { return answer }
        let number = counters.withLockedValue { $0.answersReplaced += 1; return $0.answersReplaced }
        return number <= limit ? answer : nil
    }

    /// The reason a valid request to this token fails with, if a fault says so.
    func simulatedFailure(forDeviceHex hex: Substring) -> RejectionReason? {
        let faults = self.faults
        guard !faults.failTokens.isEmpty || !faults.failFirstAttempts.isEmpty,
            let token = try? DeviceToken(parsing: String(hex))
        else { return nil }
        if let reason = faults.failTokens[token] { return reason }
        guard let rule = faults.failFirstAttempts[token] else { return nil }
        let attempt = counters.withLockedValue { counters -> Int in
            let next = (counters.attempts[token] ?? 0) + 1
            counters.attempts[token] = next
            return next
        }
        return attempt <= rule.attempts ? rule.reason : nil
    }
}
