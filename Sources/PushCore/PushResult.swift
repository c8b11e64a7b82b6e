/// The one final result a device token gets.
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
    }

    public let token: DeviceToken
    public let outcome: Outcome
    public let status: Int?
    public let apnsID: String?
    public let apnsUniqueID: String?
    public let reason: String?
    /// On 410: when APNs last knew the token was valid, in milliseconds since 1970.
    public let timestamp: Int64?
    public let attempts: Int
    public let explanation: String
    /// Why the server could not be reached (outcome `unreachable` only).
    public let unreachableCause: UnreachableCause?
    /// With `--detect-environment`: the environment that accepted the token (nil: not known).
    public var environment: String?
    /// More to say than the explanation (e.g. what the other environment answered).
    public var note: String?

    public init(token: DeviceToken, response: PushResponse, attempts: Int, outcome: Outcome? = nil, note: String? = nil) {
        self.init(token: token, AnswerClassification(response: response, attempts: attempts, outcome: outcome, note: note))
    }

    /// The result of a last attempt; `exhausted` marks an answer that could have been retried but
    /// was not (retries, Retry-After or time ran out), with why, when there is more to say.
    public init(token: DeviceToken, outcome: Result<PushResponse, TransportFailure>, attempts: Int, exhausted: String?? = nil) {
        self.init(token: token, AnswerClassification(outcome, attempts: attempts, exhausted: exhausted))
    }

    public init(token: DeviceToken, failure: TransportFailure, attempts: Int, note: String? = nil) {
        self.init(token: token, AnswerClassification(failure: failure, attempts: attempts, note: note))
    }

    init(token: DeviceToken, _ answer: AnswerClassification) {
        self.token = token
        outcome = answer.outcome
        status = answer.status
        apnsID = answer.apnsID
        apnsUniqueID = answer.apnsUniqueID
        reason = answer.reason
        timestamp = answer.timestamp
        attempts = answer.attempts
        explanation = answer.explanation
        unreachableCause = answer.unreachableCause
    }

    static let acceptedExplanation = "accepted by APNs; delivery to the device is up to APNs and the device's state"
    static let acceptedExplanationJSON = JSONValue.string(acceptedExplanation).compact

    /// `json` as one compact line.
    public var jsonLine: String {
        var bytes: [UInt8] = []
        appendJSONLine(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `json` as one compact line (no newline). The common case (accepted, ids of plain
    /// printable ASCII) is written byte by byte; anything else goes through `JSONValue`, which
    /// escapes what it must.
    public func appendJSONLine(to out: inout [UInt8]) {
        func plain(_ s: String?) -> Bool {
            s?.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C } ?? true
        }
        guard outcome == .accepted, status == 200, !detectedEnvironment, note == nil, plain(apnsID), plain(apnsUniqueID) else {
            out.append(contentsOf: json.compact.utf8)
            return
        }
        func field(_ s: String?) {
            if let s {
                out.append(0x22)
                out.append(contentsOf: s.utf8)
                out.append(0x22)
            } else {
                out.append(contentsOf: "null".utf8)
            }
        }
        out.append(contentsOf: #"{"token":""#.utf8)
        out.append(contentsOf: token.hex.utf8)
        out.append(contentsOf: #"","status":200,"apnsId":"#.utf8)
        field(apnsID)
        out.append(contentsOf: #","apnsUniqueId":"#.utf8)
        field(apnsUniqueID)
        out.append(contentsOf: PushResult.acceptedTail)
        out.append(contentsOf: String(attempts).utf8)
        out.append(0x7D)
    }

    private static let acceptedTail = Array(#","reason":null,"timestamp":null,"explanation":\#(acceptedExplanationJSON),"attempts":"#.utf8)

    /// The fields of `--output json` and `jsonl`.
    public var json: JSONValue {
        func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        return .object([
            ("token", .string(token.hex)),
            ("status", status.map { .integer(Int64($0)) } ?? .null),
            ("apnsId", optional(apnsID)),
            ("apnsUniqueId", optional(apnsUniqueID)),
            ("reason", optional(reason)),
            ("timestamp", timestamp.map(JSONValue.integer) ?? .null),
            ("explanation", .string(note.map { explanation + "; " + $0 } ?? explanation)),
            ("attempts", .integer(Int64(attempts))),
        ] + (detectedEnvironment ? [("environment", optional(environment))] : []))
    }

    /// Set for every result of a run that detects environments, so each carries the field.
    public var detectedEnvironment = false
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
    /// Attempts beyond each token's first.
    public var retried = 0
    public var rejectedByReason: [String: Int] = [:]
    public var elapsedSeconds: Double = 0
    /// Device tokens given more than once: each was sent once, its repeats skipped.
    public var duplicatesSkipped = 0
    /// Set when the run stopped for a problem of the input, not the network (a key that could
    /// not sign): the caller reports it as such.
    public var abortedBy: InputError?
    /// Why the server could not be reached, when it could not.
    public var unreachableCause: UnreachableCause?
    /// The part of the list this run sent, when it sent one part.
    public var shard: Shard?
    /// What the summary line counts: tokens, or channels for a broadcast.
    public var noun = (one: "token", many: "tokens")

    public init() {}

    /// A result that replaces an earlier one of the same token (a second try elsewhere).
    public mutating func replace(_ old: PushResult, with new: PushResult) {
        tokens -= 1
        retried -= max(0, old.attempts - 1)
        switch old.outcome {
        case .accepted: accepted -= 1
        case .rejected:
            rejected -= 1
            let name = old.reason ?? "unknown"
            rejectedByReason[name, default: 1] -= 1
            if rejectedByReason[name] == 0 { rejectedByReason[name] = nil }
        case .temporaryFailure: temporaryFailures -= 1
        case .unreachable: unreachable -= 1
        }
        add(new)
    }

    mutating func add(_ result: PushResult) {
        count(result.outcome, attempts: result.attempts, reason: result.reason, unreachableCause: result.unreachableCause)
    }

    mutating func count(_ outcome: PushResult.Outcome, attempts: Int, reason: String?, unreachableCause cause: UnreachableCause?) {
        tokens += 1
        retried += max(0, attempts - 1)
        switch outcome {
        case .accepted: accepted += 1
        case .rejected:
            rejected += 1
            rejectedByReason[reason ?? "unknown", default: 0] += 1
        case .temporaryFailure: temporaryFailures += 1
        case .unreachable:
            unreachable += 1
            unreachableCause = unreachableCause ?? cause
        }
    }

    /// What the run adds up to, worst first: APNs could not be reached, else retries ran out,
    /// else APNs rejected some, else all accepted. A run that did not finish outranks one that did.
    public var outcome: BatchOutcome {
        if unreachable > 0 { return .unreachable }
        if temporaryFailures > 0 { return .temporaryFailure }
        if rejected > 0 { return .rejected }
        return .accepted
    }

    public var pushesPerSecond: Double { elapsedSeconds > 0 ? Double(tokens) / elapsedSeconds : 0 }

    /// The summary object of `json` and `jsonl` output; `exitStatus` is the caller's (the command
    /// line's exit status for this run).
    public func json(exitStatus: Int32) -> JSONValue {
        .object([
            ("summary", .bool(true)),
            ("tokens", .integer(Int64(tokens))),
            ("accepted", .integer(Int64(accepted))),
            ("rejected", .integer(Int64(rejected))),
            ("temporaryFailures", .integer(Int64(temporaryFailures))),
            ("unreachable", .integer(Int64(unreachable))),
            ("retried", .integer(Int64(retried))),
            ("duplicatesSkipped", .integer(Int64(duplicatesSkipped))),
            ("shard", shard.map { .string($0.description) } ?? .null),
            ("rejectedByReason", .object(rejectedByReason.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) })),
            ("elapsedSeconds", .number((elapsedSeconds * 1000).rounded() / 1000)),
            ("exitStatus", .integer(Int64(exitStatus))),
        ])
    }

    /// One line for people: "3 tokens: 2 accepted, 1 rejected (Unregistered 1) in 210 ms".
    public var line: String {
        var parts = ["\(accepted) accepted"]
        if rejected > 0 {
            let reasons = rejectedByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            parts.append("\(rejected) rejected (\(reasons))")
        }
        if temporaryFailures > 0 { parts.append("\(temporaryFailures) failed temporarily") }
        if unreachable > 0 { parts.append("\(unreachable) not delivered to APNs") }
        if retried > 0 { parts.append("\(retried) retries") }
        if duplicatesSkipped > 0 { parts.append("\(duplicatesSkipped) duplicate \(duplicatesSkipped == 1 ? "token" : "tokens") skipped") }
        let time = elapsedSeconds < 10 ? String(Int(elapsedSeconds * 1000)) + " ms" : String(Int(elapsedSeconds)) + " s"
        var line = (shard.map { "shard \($0): " } ?? "") + "\(tokens) \(tokens == 1 ? noun.one : noun.many): " + parts.joined(separator: ", ") + " in \(time)"
        if tokens >= 100 { line += " (\(Int(pushesPerSecond)) pushes/s)" }
        return line
    }
}

/// How a request's final outcome reads — accepted, rejected, failed for now, unreachable — with
/// its status, ids, reason and explanation, whoever the request was for (a device, a channel).
struct AnswerClassification {
    var outcome: PushResult.Outcome
    var status: Int?
    var apnsID: String?
    var apnsUniqueID: String?
    var reason: String?
    /// On 410: when APNs last knew the token was valid, in milliseconds since 1970.
    var timestamp: Int64?
    var attempts: Int
    var explanation: String
    var unreachableCause: UnreachableCause?

    init(response: PushResponse, attempts: Int, outcome: PushResult.Outcome? = nil, note: String? = nil) {
        status = response.status
        apnsID = response.apnsID
        apnsUniqueID = response.apnsUniqueID
        self.attempts = attempts
        timestamp = response.status == 410 ? response.timestampMilliseconds : nil
        unreachableCause = nil
        if let reason = response.reason {
            self.outcome = outcome ?? .rejected
            self.reason = reason.apnsName
            var explanation = reason.explanation
            if let ms = timestamp, reason.meansTokenIsDead {
                explanation = "since \(UTCDate.format(unixSeconds: ms / 1000)), " + explanation
            }
            self.explanation = note.map { explanation + "; " + $0 } ?? explanation
        } else {
            self.outcome = .accepted
            reason = nil
            explanation = PushResult.acceptedExplanation
        }
    }

    init(_ outcome: Result<PushResponse, TransportFailure>, attempts: Int, exhausted: String?? = nil) {
        switch outcome {
        case let .success(response):
            self.init(response: response, attempts: attempts, outcome: exhausted == nil ? nil : .temporaryFailure, note: exhausted ?? nil)
        case let .failure(failure):
            self.init(failure: failure, attempts: attempts, note: exhausted ?? nil)
        }
    }

    init(failure: TransportFailure, attempts: Int, note: String? = nil) {
        status = nil
        apnsID = nil
        apnsUniqueID = nil
        reason = nil
        timestamp = nil
        self.attempts = attempts
        let count = attempts == 0 ? " (not sent)" : attempts > 1 ? " (after \(attempts) attempts)" : ""
        if case let .unreachable(_, cause) = failure { unreachableCause = cause } else { unreachableCause = nil }
        switch failure {
        case .unreachable:
            outcome = .unreachable
            explanation = failure.description + (attempts == 0 ? " (not sent)" : "")
        default:
            outcome = .temporaryFailure
            explanation = failure.description + count + (note.map { "; " + $0 } ?? "")
        }
    }
}
