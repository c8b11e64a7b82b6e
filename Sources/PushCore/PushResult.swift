/// The one final result of a request of a run: a notification to a device, a broadcast to a
/// channel, a channel management call.
public struct PushResult: Sendable {
    public enum Outcome: String, Sendable {
        /// 200: APNs took it.
        case accepted
        /// APNs said no, finally (exit 1).
        case rejected
        /// 429/5xx/timeouts/lost connections outlasted the retries (exit 75).
        case temporaryFailure = "temporary-failure"
        /// APNs could not be reached at all (exit 69).
        case unreachable
        /// The run was stopped (a signal) before this one had an answer: `stopped` says whether APNs
        /// may have it.
        case stopped
    }

    /// What the request was for: a device, a broadcast's channel, a channel call.
    public let subject: RequestSubject
    /// Its place in the run's list (0 for the first notification), for a journal and a resumed run.
    public var position: Int
    public let outcome: Outcome
    public let status: Int?
    public let apnsID: String?
    public let apnsUniqueID: String?
    /// Why APNs said no (nil: it gave no reason, or took it).
    public let reason: RejectionReason?
    /// On 410: when APNs last knew the token was valid, in milliseconds since 1970.
    public let timestamp: Int64?
    public let attempts: Int
    /// What the answer means and what to do, as a code (the catalog's `explanationWords` says it).
    public let explanationCode: ResultExplanation
    /// Why the server could not be reached (outcome `unreachable` only).
    public let unreachableCause: UnreachableCause?
    /// With `--detect-environment`: the environment that accepted the token (nil: not known).
    public var environment: APNsEnvironment?
    /// More to say than the explanation (e.g. what the other environment answered): a module
    /// above the core says it (the catalog's `note`).
    public var noteCode: (any ResultNote)?
    /// Outcome `stopped`: never sent (or safe to send again), or sent and not answered.
    public let stopped: StopMark?
    /// Reported from an earlier run's journal, not sent by this one.
    public var resumed = false
    /// APNs may have it though no answer said so: sent and unanswered at a stop, or its last
    /// attempt timed out. A resumed run sends it again only if asked to.
    public let inDoubt: Bool
    /// Set for every result of a run that detects environments, so each carries the field.
    public var detectedEnvironment = false
    /// A broadcast's or a channel call's answer beyond its status (nil for a device's).
    public let channelAnswer: ChannelAnswer?

    /// The device, for a device's result (nil for a broadcast's channel or a channel call).
    public var token: DeviceToken? { subject.token }

    public init(subject: RequestSubject, response: PushResponse, attempts: Int, outcome: Outcome? = nil, limit: RetryLimit? = nil) {
        self.init(
            subject: subject,
            AnswerClassification(
                response: response, attempts: attempts, outcome: outcome, limit: limit,
                forChannelAPI: subject.kind != .device))
    }

    /// The result of a last attempt; `exhausted` marks an answer that could have been retried but
    /// was not (retries, Retry-After or time ran out), with why, when there is more to say.
    public init(subject: RequestSubject, outcome: AttemptOutcome, attempts: Int, exhausted: RetryLimit?? = nil) {
        self.init(subject: subject, AnswerClassification(outcome, attempts: attempts, exhausted: exhausted, forChannelAPI: subject.kind != .device))
    }

    public init(subject: RequestSubject, failure: TransportFailure, attempts: Int, limit: RetryLimit? = nil) {
        self.init(subject: subject, AnswerClassification(failure: failure, attempts: attempts, limit: limit))
    }

    /// A request a stopped run has no answer for; `note` says what came before, `request` what stopped it.
    public init(subject: RequestSubject, stopped mark: StopMark, attempts: Int, note: StopNote, request: StopRequest) {
        self.init(subject: subject, AnswerClassification(stopped: mark, attempts: attempts, why: .stopped(note, request: request.name)))
    }

    /// Consumes `answer`: its strings move into the result, not copied (a copy is a retain each).
    init(subject: RequestSubject, _ answer: consuming AnswerClassification) {
        self.subject = subject
        position = 0
        outcome = answer.outcome
        status = answer.status
        apnsID = answer.apnsID
        apnsUniqueID = answer.apnsUniqueID
        reason = answer.reason
        timestamp = answer.timestamp
        attempts = answer.attempts
        explanationCode = answer.explanation
        unreachableCause = answer.unreachableCause
        stopped = answer.stopped
        inDoubt = answer.inDoubt
        channelAnswer = answer.channelAnswer
    }

    /// Rebuilds a result a journal kept (every field as it was written).
    public init(
        subject: RequestSubject, position: Int, outcome: Outcome, status: Int?, apnsID: String?, apnsUniqueID: String?,
        reason: RejectionReason?, timestamp: Int64?, attempts: Int, explanation: ResultExplanation, stopped: StopMark?, inDoubt: Bool
    ) {
        self.subject = subject
        self.position = position
        self.outcome = outcome
        self.status = status
        self.apnsID = apnsID
        self.apnsUniqueID = apnsUniqueID
        self.reason = reason
        self.timestamp = timestamp
        self.attempts = attempts
        explanationCode = explanation
        unreachableCause = nil
        self.stopped = stopped
        self.inDoubt = inDoubt
        channelAnswer = nil
    }

    // The result as a line of `--output json`/`jsonl` (`json(_:extra:)`, `appendJSONLine`) and its
    // explanation in words are the catalog's: each needs the explanation in a language.
}

/// What a result's explanation says, as a code: what the answer means and what to do. The
/// catalog (PushWords) says it; a library caller can branch on it.
public enum ResultExplanation: Sendable, Equatable {
    /// APNs took it (200).
    case accepted
    /// APNs took a call that is not for a device (a broadcast, a channel call).
    case callAccepted
    /// APNs answered `reason`. `lastValid`: for a dead token, when APNs last knew it valid
    /// (milliseconds since 1970); `limit`: why it was not retried, when it could have been.
    case answered(RejectionReason, lastValid: Int64?, limit: RetryLimit?)
    /// No answer: the transport's failure, after `attempts` (0: not sent); `limit` as above.
    case failed(TransportFailure, attempts: Int, limit: RetryLimit?)
    /// A stopped run holds no answer for it: `note` says what came before, `request` names what stopped it.
    case stopped(StopNote, request: String)
    /// As a journal recorded it, in words (a result from an earlier run, shown as it was written).
    case recorded(String)
}

/// What a broadcast's or a channel call's answer carried beyond its status and reason.
public struct ChannelAnswer: Sendable {
    /// `apns-request-id` and `apns-channel-id` as the server answered them.
    public let requestID: String?
    public let channelID: String?
    /// The answer's body (a channel's settings, the channel list), as sent.
    public let body: [UInt8]

    init(_ response: PushResponse) {
        requestID = response.requestID
        channelID = response.channelID
        body = response.body
    }
}

/// A note a module above the core adds to a result (the engine's word on environment detection,
/// a likely cause): carried with the result, never read by the core. A class, so that a result
/// holding one stays a plain value (a reference), moved per push without its metadata.
public protocol ResultNote: AnyObject, Sendable {}

/// What the summary line counts: device tokens, or channels for a broadcast.
public enum SummaryNoun: Sendable, Equatable, CaseIterable {
    case token, channel
}

/// How a run ended, worst first.
public enum BatchOutcome: Sendable, Equatable {
    /// Every notification accepted.
    case accepted
    /// APNs rejected at least one, finally.
    case rejected
    /// Retries, Retry-After or time ran out for at least one.
    case temporaryFailure
    /// APNs could not be reached.
    case unreachable
}

/// What a run adds up to.
public struct BatchSummary: Sendable {
    public var tokens = 0
    public var accepted = 0
    public var rejected = 0
    public var temporaryFailures = 0
    public var unreachable = 0
    /// A stopped run's notifications without an answer: never sent (or safe to send again), and
    /// sent but not answered.
    public var notSent = 0
    public var inDoubt = 0
    /// Results reported from an earlier run's journal (counted in the totals above too).
    public var resumed = 0
    /// Attempts beyond each token's first.
    public var retried = 0
    /// The rejections by why: APNs' reason, or pushctl's refusal of a line of a followed input.
    public var rejectedByReason: [RejectionCause: Int] = [:]
    public var elapsedSeconds: Double = 0
    /// With environment detection: tokens the other environment accepted.
    public var movedToOtherEnvironment = 0
    /// Device tokens given more than once: each was sent once, its repeats skipped.
    public var duplicatesSkipped = 0
    /// Set when the run stopped for a problem of the input, not the network (a key that could
    /// not sign): the caller reports it as such.
    public var abortedBy: InputError?
    /// Set when the run was asked to stop (a signal) before its list was done.
    public var stoppedBy: StopRequest?
    /// Why the server could not be reached, when it could not.
    public var unreachableCause: UnreachableCause?
    /// The part of the list this run sent, when it sent one part.
    public var shard: Shard?
    /// What the summary line counts: tokens, or channels for a broadcast.
    public var noun = SummaryNoun.token
    /// What the phone will do with the notification (`send --app`): each finding's machine form.
    public var findings: [JSONValue] = []

    public init() {}

    /// A result that replaces an earlier one of the same token (a second try elsewhere).
    public mutating func replace(_ old: PushResult, with new: PushResult) {
        count(old, sign: -1)
        add(new)
    }

    public mutating func add(_ result: PushResult) { count(result, sign: 1) }

    private mutating func count(_ result: PushResult, sign: Int) {
        count(
            result.outcome, attempts: result.attempts, reason: result.reason, unreachableCause: result.unreachableCause,
            stopped: result.stopped, sign: sign)
        if result.resumed { resumed += sign }
    }

    mutating func count(
        _ outcome: PushResult.Outcome, attempts: Int, reason: RejectionReason?, unreachableCause cause: UnreachableCause?,
        stopped: StopMark? = nil, sign: Int = 1
    ) {
        tokens += sign
        retried += sign * max(0, attempts - 1)
        switch outcome {
        case .accepted: accepted += sign
        case .rejected:
            rejected += sign
            let cause = RejectionCause(reason: reason, attempts: attempts)
            rejectedByReason[cause, default: 0] += sign
            if rejectedByReason[cause] == 0 { rejectedByReason[cause] = nil }
        case .temporaryFailure: temporaryFailures += sign
        case .unreachable:
            unreachable += sign
            if sign > 0 { unreachableCause = unreachableCause ?? cause }
        case .stopped:
            if stopped == .inDoubt { inDoubt += sign } else { notSent += sign }
        }
    }

    /// What the run adds up to, worst first: APNs could not be reached, else retries ran out,
    /// else APNs rejected some, else all accepted. A run that did not finish outranks one that did.
    /// (A stopped run's exit status is its signal's: the caller checks `stoppedBy` first.)
    public var outcome: BatchOutcome {
        if unreachable > 0 { return .unreachable }
        if temporaryFailures > 0 { return .temporaryFailure }
        if rejected > 0 { return .rejected }
        return .accepted
    }

    public var pushesPerSecond: Double { elapsedSeconds > 0 ? Double(tokens - resumed) / elapsedSeconds : 0 }

    /// The summary object of `json` and `jsonl` output; `exitStatus` is the caller's (the command
    /// line's exit status for this run).
    public func json(exitStatus: Int32) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("summary", .bool(true)),
            ("tokens", .integer(Int64(tokens))),
            ("accepted", .integer(Int64(accepted))),
            ("rejected", .integer(Int64(rejected))),
            ("temporaryFailures", .integer(Int64(temporaryFailures))),
            ("unreachable", .integer(Int64(unreachable))),
            ("retried", .integer(Int64(retried))),
            ("duplicatesSkipped", .integer(Int64(duplicatesSkipped))),
            ("shard", shard.map { .string($0.description) } ?? .null),
            ("rejectedByReason", .object(rejectedByReason.map { ($0.key.name, $0.value) }.sorted { $0.0 < $1.0 }.map { ($0.0, .integer(Int64($0.1))) })),
            ("elapsedSeconds", .number((elapsedSeconds * 1000).rounded() / 1000)),
            ("exitStatus", .integer(Int64(exitStatus))),
        ]
        if resumed > 0 { fields.append(("resumed", .integer(Int64(resumed)))) }
        if !findings.isEmpty { fields.append(("findings", .array(findings))) }
        if let stoppedBy {
            fields += [("stopped", .string(stoppedBy.name)), ("notSent", .integer(Int64(notSent))), ("inDoubt", .integer(Int64(inDoubt)))]
        }
        return .object(fields)
    }

    /// The reasons of rejections, most frequent first (then by name).
    public var topReasons: [(cause: RejectionCause, count: Int)] {
        rejectedByReason.map { ($0.key, $0.value) }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0.name < $1.0.name }
    }

    /// How many were rejected for `reason`.
    public func rejected(for reason: RejectionReason) -> Int { rejectedByReason[.apns(reason), default: 0] }

    /// How long the run took, as people read it: "210 ms", "42 s", "3 min 5 s".
    public var elapsedText: String {
        if elapsedSeconds < 10 { return String(Int(elapsedSeconds * 1000)) + " ms" }
        if elapsedSeconds < 600 { return String(Int(elapsedSeconds)) + " s" }
        let seconds = Int(elapsedSeconds)
        return "\(seconds / 60) min \(seconds % 60) s"
    }

    // One line for people ("3 tokens: 2 accepted, 1 rejected (Unregistered 1) in 210 ms") is the
    // catalog's `line`.
}

/// How a request's final outcome reads — accepted, rejected, failed for now, unreachable, stopped —
/// with its status, ids, reason and explanation, whoever the request was for (a device, a channel).
struct AnswerClassification {
    var outcome: PushResult.Outcome
    var status: Int?
    var apnsID: String?
    var apnsUniqueID: String?
    var reason: RejectionReason?
    /// On 410: when APNs last knew the token was valid, in milliseconds since 1970.
    var timestamp: Int64?
    var attempts: Int
    var explanation: ResultExplanation
    var unreachableCause: UnreachableCause?
    var stopped: StopMark?
    var inDoubt = false
    /// A channel API's answer beyond its status (a device's answer has nothing more).
    var channelAnswer: ChannelAnswer?

    /// `forChannelAPI`: the answer of a broadcast or a channel call, which keeps what the answer
    /// carried, has no device token to have died (no timestamp), and whose acceptance says no more.
    init(response: PushResponse, attempts: Int, outcome: PushResult.Outcome? = nil, limit: RetryLimit? = nil, forChannelAPI: Bool = false) {
        status = response.status
        apnsID = response.apnsID
        apnsUniqueID = response.apnsUniqueID
        self.attempts = attempts
        timestamp = response.status == 410 ? response.timestampMilliseconds : nil
        unreachableCause = nil
        stopped = nil
        if let reason = response.reason {
            self.outcome = outcome ?? .rejected
            self.reason = reason
            explanation = .answered(reason, lastValid: reason.meansTokenIsDead ? timestamp : nil, limit: limit)
        } else {
            self.outcome = .accepted
            reason = nil
            explanation = .accepted
        }
        if forChannelAPI {
            channelAnswer = ChannelAnswer(response)
            timestamp = nil
            if self.outcome == .accepted { explanation = .callAccepted }
        }
    }

    init(_ outcome: AttemptOutcome, attempts: Int, exhausted: RetryLimit?? = nil, forChannelAPI: Bool = false) {
        switch outcome {
        case .success(let response):
            self.init(
                response: response, attempts: attempts, outcome: exhausted == nil ? nil : .temporaryFailure, limit: exhausted ?? nil,
                forChannelAPI: forChannelAPI)
        case .failure(let failure):
            self.init(failure: failure, attempts: attempts, limit: exhausted ?? nil)
        }
    }

    init(failure: TransportFailure, attempts: Int, limit: RetryLimit? = nil) {
        status = nil
        apnsID = nil
        apnsUniqueID = nil
        reason = nil
        timestamp = nil
        stopped = nil
        self.attempts = attempts
        if case .unreachable(_, let cause) = failure { unreachableCause = cause } else { unreachableCause = nil }
        if case .timedOut = failure { inDoubt = true }
        switch failure {
        case .unreachable:
            outcome = .unreachable
            explanation = .failed(failure, attempts: attempts, limit: nil)
        default:
            outcome = .temporaryFailure
            explanation = .failed(failure, attempts: attempts, limit: limit)
        }
    }

    init(stopped mark: StopMark, attempts: Int, why: ResultExplanation) {
        outcome = .stopped
        status = nil
        apnsID = nil
        apnsUniqueID = nil
        reason = nil
        timestamp = nil
        unreachableCause = nil
        stopped = mark
        inDoubt = mark == .inDoubt
        self.attempts = attempts
        explanation = why
    }
}
