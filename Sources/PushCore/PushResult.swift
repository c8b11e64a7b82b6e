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
    public let reason: String?
    /// On 410: when APNs last knew the token was valid, in milliseconds since 1970.
    public let timestamp: Int64?
    public let attempts: Int
    /// What the answer means and what to do, in every language.
    public let explanationWords: Words
    /// Why the server could not be reached (outcome `unreachable` only).
    public let unreachableCause: UnreachableCause?
    /// With `--detect-environment`: the environment that accepted the token (nil: not known).
    public var environment: String?
    /// More to say than the explanation (e.g. what the other environment answered).
    public var note: Words?
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

    /// The explanation in this process's language.
    public var explanation: String { explanationWords.description }

    public init(subject: RequestSubject, response: PushResponse, attempts: Int, outcome: Outcome? = nil, note: Words? = nil) {
        self.init(subject: subject, AnswerClassification(response: response, attempts: attempts, outcome: outcome, note: note,
                                                         forChannelAPI: subject.kind != .device))
    }

    /// The result of a last attempt; `exhausted` marks an answer that could have been retried but
    /// was not (retries, Retry-After or time ran out), with why, when there is more to say.
    public init(subject: RequestSubject, outcome: AttemptOutcome, attempts: Int, exhausted: Words?? = nil) {
        self.init(subject: subject, AnswerClassification(outcome, attempts: attempts, exhausted: exhausted, forChannelAPI: subject.kind != .device))
    }

    public init(subject: RequestSubject, failure: TransportFailure, attempts: Int, note: Words? = nil) {
        self.init(subject: subject, AnswerClassification(failure: failure, attempts: attempts, note: note))
    }

    /// A request a stopped run has no answer for; `why` says what stopped it and what came before.
    public init(subject: RequestSubject, stopped mark: StopMark, attempts: Int, why: Words) {
        self.init(subject: subject, AnswerClassification(stopped: mark, attempts: attempts, why: why))
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
        explanationWords = answer.explanation
        unreachableCause = answer.unreachableCause
        stopped = answer.stopped
        inDoubt = answer.inDoubt
        channelAnswer = answer.channelAnswer
    }

    /// Rebuilds a result a journal kept (every field as it was written).
    public init(subject: RequestSubject, position: Int, outcome: Outcome, status: Int?, apnsID: String?, apnsUniqueID: String?,
                reason: String?, timestamp: Int64?, attempts: Int, explanation: Words, stopped: StopMark?, inDoubt: Bool) {
        self.subject = subject
        self.position = position
        self.outcome = outcome
        self.status = status
        self.apnsID = apnsID
        self.apnsUniqueID = apnsUniqueID
        self.reason = reason
        self.timestamp = timestamp
        self.attempts = attempts
        explanationWords = explanation
        unreachableCause = nil
        self.stopped = stopped
        self.inDoubt = inDoubt
        channelAnswer = nil
    }

    public static let acceptedExplanation = Words("accepted by APNs; delivery to the device is up to APNs and the device's state",
                                           es: "aceptada por APNs; la entrega al dispositivo depende de APNs y del estado del dispositivo")
    /// A broadcast's or a channel call's acceptance.
    static let acceptedByChannelAPI = Words("accepted by APNs", es: "aceptada por APNs")

    /// `json` as one compact line, its explanation in `language`.
    public func jsonLine(_ language: Language = .en) -> String {
        var bytes: [UInt8] = []
        appendJSONLine(to: &bytes, language: language)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `json` as one compact line (no newline). The common case (accepted, ids of plain
    /// printable ASCII) is written byte by byte; anything else goes through `JSONValue`, which
    /// escapes what it must.
    public func appendJSONLine(to out: inout [UInt8], language: Language = .en) {
        func plain(_ s: String?) -> Bool {
            guard var s else { return true }
            // Over the contiguous bytes, one table load a byte: through the UTF-8 view's iterator
            // this was 40 instructions a byte, and four comparisons a byte cost 13.
            return s.withUTF8 { bytes in PushResult.plainByte.withUnsafeBufferPointer { plain in bytes.allSatisfy { plain[Int($0)] } } }
        }
        guard subject.kind == .device, outcome == .accepted, status == 200, !detectedEnvironment, !resumed, note == nil,
              plain(apnsID), plain(apnsUniqueID) else {
            out.append(contentsOf: json(language).compact.utf8)
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
        out.append(contentsOf: subject.name.utf8)
        out.append(contentsOf: #"","status":200,"outcome":"accepted","apnsId":"#.utf8)
        field(apnsID)
        out.append(contentsOf: #","apnsUniqueId":"#.utf8)
        field(apnsUniqueID)
        out.append(contentsOf: language == .es ? PushResult.acceptedTailSpanish : PushResult.acceptedTail)
        out.append(contentsOf: String(attempts).utf8)
        out.append(0x7D)
    }

    /// The bytes a JSON string holds as they are: printable ASCII but `"` and a backslash.
    private static let plainByte: [Bool] = (0...255).map { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }

    private static func tail(_ language: Language) -> [UInt8] {
        Array(#","reason":null,"timestamp":null,"explanation":\#(JSONValue.string(acceptedExplanation.text(language)).compact),"attempts":"#.utf8)
    }
    private static let acceptedTail = tail(.en)
    private static let acceptedTailSpanish = tail(.es)

    /// The fields of `--output json` and `jsonl`, the explanation in `language` (English unless
    /// the user chose one: machine output does not follow the locale); `extra` last (what a channel
    /// call's answer said: a channel's settings, the channel list).
    public func json(_ language: Language = .en, extra: [(String, JSONValue)] = []) -> JSONValue {
        var marks: [(String, JSONValue)] = []
        if detectedEnvironment { marks.append(("environment", environment.map(JSONValue.string) ?? .null)) }
        if let stopped { marks.append(("stopped", .string(stopped.rawValue))) }
        if resumed { marks.append(("resumed", .bool(true))) }
        // The id APNs answered with: apns-id for a device, apns-request-id for the broadcast API.
        let id: (key: String, value: String?) = subject.kind == .device ? ("apnsId", apnsID) : ("apnsRequestId", channelAnswer?.requestID)
        return ResultObject.fields(subject: subject.jsonFields, status: status, outcome: outcome,
                                   id: id, uniqueID: apnsUniqueID, reason: reason, timestamp: timestamp,
                                   explanation: explanationWords.text(language) + (note.map { "; " + $0.text(language) } ?? ""),
                                   attempts: attempts, marks: marks + extra)
    }
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
    public var rejectedByReason: [String: Int] = [:]
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
    public var noun = (one: Words("token", es: "token"), many: Words("tokens", es: "tokens"))

    public init() {}

    /// A result that replaces an earlier one of the same token (a second try elsewhere).
    public mutating func replace(_ old: PushResult, with new: PushResult) {
        count(old, sign: -1)
        add(new)
    }

    public mutating func add(_ result: PushResult) { count(result, sign: 1) }

    private mutating func count(_ result: PushResult, sign: Int) {
        count(result.outcome, attempts: result.attempts, reason: result.reason, unreachableCause: result.unreachableCause,
              stopped: result.stopped, sign: sign)
        if result.resumed { resumed += sign }
    }

    mutating func count(_ outcome: PushResult.Outcome, attempts: Int, reason: String?, unreachableCause cause: UnreachableCause?,
                        stopped: StopMark? = nil, sign: Int = 1) {
        tokens += sign
        retried += sign * max(0, attempts - 1)
        switch outcome {
        case .accepted: accepted += sign
        case .rejected:
            rejected += sign
            let name = reason ?? "unknown"
            rejectedByReason[name, default: 0] += sign
            if rejectedByReason[name] == 0 { rejectedByReason[name] = nil }
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
            ("rejectedByReason", .object(rejectedByReason.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) })),
            ("elapsedSeconds", .number((elapsedSeconds * 1000).rounded() / 1000)),
            ("exitStatus", .integer(Int64(exitStatus))),
        ]
        if resumed > 0 { fields.append(("resumed", .integer(Int64(resumed)))) }
        if let stoppedBy {
            fields += [("stopped", .string(stoppedBy.name)), ("notSent", .integer(Int64(notSent))), ("inDoubt", .integer(Int64(inDoubt)))]
        }
        return .object(fields)
    }

    /// The reasons of rejections, most frequent first (then by name).
    public var topReasons: [(name: String, count: Int)] {
        rejectedByReason.map { ($0.key, $0.value) }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
    }

    /// How long the run took, as people read it: "210 ms", "42 s", "3 min 5 s".
    public var elapsedText: String {
        if elapsedSeconds < 10 { return String(Int(elapsedSeconds * 1000)) + " ms" }
        if elapsedSeconds < 600 { return String(Int(elapsedSeconds)) + " s" }
        let seconds = Int(elapsedSeconds)
        return "\(seconds / 60) min \(seconds % 60) s"
    }

    /// One line for people: "3 tokens: 2 accepted, 1 rejected (Unregistered 1) in 210 ms".
    public var line: Words {
        var parts = [Words("\(accepted) accepted", es: "\(accepted) \(accepted == 1 ? "aceptada" : "aceptadas")")]
        if rejected > 0 {
            let reasons = topReasons.map { "\($0.name) \($0.count)" }.joined(separator: ", ")
            parts.append(Words("\(rejected) rejected (\(reasons))", es: "\(rejected) \(rejected == 1 ? "rechazada" : "rechazadas") (\(reasons))"))
        }
        if temporaryFailures > 0 {
            parts.append(Words("\(temporaryFailures) failed temporarily",
                               es: "\(temporaryFailures) con un fallo temporal"))
        }
        if unreachable > 0 {
            parts.append(Words("\(unreachable) not delivered to APNs", es: "\(unreachable) sin llegar a APNs"))
        }
        if notSent > 0 { parts.append(Words("\(notSent) not sent", es: "\(notSent) sin enviar")) }
        if inDoubt > 0 { parts.append(Words("\(inDoubt) in doubt", es: "\(inDoubt) en duda")) }
        if retried > 0 { parts.append(Words.count(retried, Words("retry", es: "reintento"), Words("retries", es: "reintentos"))) }
        if resumed > 0 {
            parts.append(Words("\(resumed) from the journal", es: "\(resumed) del diario"))
        }
        if duplicatesSkipped > 0 {
            parts.append(duplicatesSkipped == 1 ? Words("1 duplicate token skipped", es: "1 token repetido omitido")
                : Words("\(duplicatesSkipped) duplicate tokens skipped", es: "\(duplicatesSkipped) tokens repetidos omitidos"))
        }
        let shardPart = shard.map { Words("shard \($0): ", es: "fragmento \($0): ") } ?? Words(verbatim: "")
        var line = shardPart + Words.count(tokens, noun.one, noun.many) + Words(verbatim: ": ")
            + Words.joined(parts, separator: Words(verbatim: ", "))
            + Words(" in \(elapsedText)", es: " en \(elapsedText)")
        if tokens - resumed >= 100 {
            line = line + Words(" (\(Int(pushesPerSecond)) pushes/s)", es: " (\(Int(pushesPerSecond)) notificaciones/s)")
        }
        if let stoppedBy {
            line = Words("stopped by \(stoppedBy.name): ", es: "detenido por \(stoppedBy.name): ") + line
        }
        return line
    }
}

/// How a request's final outcome reads — accepted, rejected, failed for now, unreachable, stopped —
/// with its status, ids, reason and explanation, whoever the request was for (a device, a channel).
struct AnswerClassification {
    var outcome: PushResult.Outcome
    var status: Int?
    var apnsID: String?
    var apnsUniqueID: String?
    var reason: String?
    /// On 410: when APNs last knew the token was valid, in milliseconds since 1970.
    var timestamp: Int64?
    var attempts: Int
    var explanation: Words
    var unreachableCause: UnreachableCause?
    var stopped: StopMark?
    var inDoubt = false
    /// A channel API's answer beyond its status (a device's answer has nothing more).
    var channelAnswer: ChannelAnswer?

    /// `forChannelAPI`: the answer of a broadcast or a channel call, which keeps what the answer
    /// carried, has no device token to have died (no timestamp), and whose acceptance says no more.
    init(response: PushResponse, attempts: Int, outcome: PushResult.Outcome? = nil, note: Words? = nil, forChannelAPI: Bool = false) {
        status = response.status
        apnsID = response.apnsID
        apnsUniqueID = response.apnsUniqueID
        self.attempts = attempts
        timestamp = response.status == 410 ? response.timestampMilliseconds : nil
        unreachableCause = nil
        stopped = nil
        if let reason = response.reason {
            self.outcome = outcome ?? .rejected
            self.reason = reason.apnsName
            var explanation = reason.explanation
            if let ms = timestamp, reason.meansTokenIsDead {
                let date = UTCDate.format(unixSeconds: ms / 1000)
                explanation = Words("since \(date), ", es: "desde el \(date), ") + explanation
            }
            self.explanation = note.map { explanation + Words(verbatim: "; ") + $0 } ?? explanation
        } else {
            self.outcome = .accepted
            reason = nil
            explanation = PushResult.acceptedExplanation
        }
        if forChannelAPI {
            channelAnswer = ChannelAnswer(response)
            timestamp = nil
            if self.outcome == .accepted { explanation = PushResult.acceptedByChannelAPI }
        }
    }

    init(_ outcome: AttemptOutcome, attempts: Int, exhausted: Words?? = nil, forChannelAPI: Bool = false) {
        switch outcome {
        case let .success(response):
            self.init(response: response, attempts: attempts, outcome: exhausted == nil ? nil : .temporaryFailure, note: exhausted ?? nil,
                      forChannelAPI: forChannelAPI)
        case let .failure(failure):
            self.init(failure: failure, attempts: attempts, note: exhausted ?? nil)
        }
    }

    init(failure: TransportFailure, attempts: Int, note: Words? = nil) {
        status = nil
        apnsID = nil
        apnsUniqueID = nil
        reason = nil
        timestamp = nil
        stopped = nil
        self.attempts = attempts
        let notSent = Words(" (not sent)", es: " (no se envió)")
        let count = attempts == 0 ? notSent
            : attempts > 1 ? Words(" (after \(attempts) attempts)", es: " (tras \(attempts) intentos)") : Words(verbatim: "")
        if case let .unreachable(_, cause) = failure { unreachableCause = cause } else { unreachableCause = nil }
        if case .timedOut = failure { inDoubt = true }
        switch failure {
        case .unreachable:
            outcome = .unreachable
            explanation = failure.words + (attempts == 0 ? notSent : Words(verbatim: ""))
        default:
            outcome = .temporaryFailure
            explanation = failure.words + count + (note.map { Words(verbatim: "; ") + $0 } ?? Words(verbatim: ""))
        }
    }

    init(stopped mark: StopMark, attempts: Int, why: Words) {
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
