/// The one final result of a request that is not for a device: a broadcast to one channel, or
/// a channel management call. Classified exactly as a device's result is.
public struct CallResult: Sendable {
    public let outcome: PushResult.Outcome
    public let status: Int?
    public let reason: String?
    /// What the answer means and what to do, as a code (the catalog's `explanationWords` says it).
    public let explanationCode: ResultExplanation
    public let attempts: Int
    public let apnsUniqueID: String?
    /// `apns-request-id` and `apns-channel-id` as the server answered them.
    public let requestID: String?
    public let channelID: String?
    /// The answer's body (a channel's settings, the channel list), as sent.
    public let body: [UInt8]
    public let unreachableCause: UnreachableCause?
    /// A stopped run's call without an answer: not sent, or sent and not answered.
    public let stopped: StopMark?

    public init(_ outcome: AttemptOutcome, attempts: Int, exhausted: RetryLimit?? = nil) {
        let base = AnswerClassification(outcome, attempts: attempts, exhausted: exhausted)
        self.outcome = base.outcome
        status = base.status
        reason = base.reason
        explanationCode = base.outcome == .accepted ? .callAccepted : base.explanation
        self.attempts = attempts
        apnsUniqueID = base.apnsUniqueID
        unreachableCause = base.unreachableCause
        stopped = nil
        if case let .success(response) = outcome {
            requestID = response.requestID
            channelID = response.channelID
            body = response.body
        } else {
            requestID = nil
            channelID = nil
            body = []
        }
    }

    /// A call a stopped run has no answer for.
    public init(stopped mark: StopMark, attempts: Int, request: StopRequest) {
        let base = AnswerClassification(stopped: mark, attempts: attempts, why: .stopped(mark == .inDoubt ? .inDoubt : .notSent, request: request.name))
        outcome = base.outcome
        status = nil
        reason = nil
        explanationCode = base.explanation
        self.attempts = attempts
        apnsUniqueID = nil
        unreachableCause = nil
        stopped = mark
        requestID = nil
        channelID = nil
        body = []
    }

    // The result object of `--output json`/`jsonl` (`json(_:extra:language:)`) is the catalog's:
    // it holds the explanation in a language.
}

extension BatchSummary {
    /// Counts a broadcast's or a channel call's result like a device's.
    public mutating func add(_ call: CallResult) {
        count(call.outcome, attempts: call.attempts, reason: call.reason, unreachableCause: call.unreachableCause, stopped: call.stopped)
    }
}
