public import PushCore
import PushCrypto
import PushFiles
import PushSystem
import PushWords

/// What a run is, for a journal to tell its own run from another: digests of its input and
/// payload, and the headers and destination they go with. A resumed run must be the same run.
public struct RunIdentity: Sendable, Equatable {
    /// SHA-256 of the notifications' input (the device tokens, or the requests file's lines).
    public var input: String
    /// SHA-256 of the payload (nil for a requests file: each line carries its own).
    public var payload: String?
    public var topic: String?
    public var pushType: String?
    /// Where the notifications go (a base URL).
    public var destination: String
    /// The shard sent (`K/N`), if one.
    public var shard: String?

    public init(input: String, payload: String?, topic: String?, pushType: String?, destination: String, shard: String?) {
        self.input = input
        self.payload = payload
        self.topic = topic
        self.pushType = pushType
        self.destination = destination
        self.shard = shard
    }

    var json: JSONValue {
        func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        return .object([
            ("input", .string(input)), ("payload", optional(payload)), ("topic", optional(topic)),
            ("pushType", optional(pushType)), ("destination", .string(destination)), ("shard", optional(shard)),
        ])
    }

    init?(_ json: JSONValue) {
        guard let input = json["input"]?.stringValue, let destination = json["destination"]?.stringValue else { return nil }
        self.init(
            input: input, payload: json["payload"]?.stringValue, topic: json["topic"]?.stringValue,
            pushType: json["pushType"]?.stringValue, destination: destination, shard: json["shard"]?.stringValue)
    }

    /// What differs from `other` (empty when nothing does).
    func differences(from other: RunIdentity) -> [JournalDifference] {
        var out: [JournalDifference] = []
        if input != other.input { out.append(.input) }
        if payload != other.payload { out.append(.payload) }
        if topic != other.topic { out.append(.topic(was: other.topic, now: topic)) }
        if pushType != other.pushType { out.append(.pushType(was: other.pushType, now: pushType)) }
        if destination != other.destination { out.append(.destination(was: other.destination, now: destination)) }
        if shard != other.shard { out.append(.shard(was: other.shard, now: shard)) }
        return out
    }
}

/// `--journal`: every final result of a run, as it arrives, in a file that survives the process.
///
/// JSON Lines: a first line naming the run (`RunIdentity`), then one line per final result, shaped
/// like a `--output jsonl` result with its place in the list (`index`). Each batch of results is
/// written (write(2)) before the run waits again, so a SIGKILL loses nothing the kernel already
/// has; fsync at most once a second and at the end, so a power cut loses at most a second.
public final class JournalWriter: ResultObserver {
    public let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var lastSync = MonotonicClock.seconds()
    /// Why the journal stopped taking lines (errno), if it did.
    public private(set) var failure: Int32?

    /// Opens `path` for appending; `identity` and the run's id (`NotificationIDs`) are written
    /// first when the journal is new.
    public init(path: String, identity: RunIdentity, runID: String, isNew: Bool, findings: [JSONValue] = []) throws(InputError) {
        self.path = path
        fd = Descriptors.openForWriting(path, .appending)
        guard fd >= 0 else { throw InputError(JournalProblem.cannotCreate(journal: path, SystemError.code(Errno.current))) }
        if isNew {
            var members: [(String, JSONValue)] = [("journal", .string("pushctl")), ("version", .integer(1)), ("run", identity.json), ("id", .string(runID))]
            // What the phone will do (send --app), as known when the run began.
            if !findings.isEmpty { members.append(("findings", .array(findings))) }
            let header = JSONValue.object(members)
            buffer.append(contentsOf: header.compact.utf8)
            buffer.append(0x0A)
            pause()
            sync()
        }
    }

    deinit {
        finish()
        Descriptors.close(fd)
    }

    public func record(_ result: PushResult) {
        guard !result.resumed else { return }  // already in the journal
        var json = result.json(.en)
        if case .object(let fields) = json {
            json = .object([("index", .integer(Int64(result.position)))] + fields + (result.inDoubt && result.stopped == nil ? [("inDoubt", .bool(true))] : []))
        }
        buffer.append(contentsOf: json.compact.utf8)
        buffer.append(0x0A)
        if buffer.count > 64 * 1024 { pause() }
    }

    /// Before the run waits: what was recorded goes to the kernel; once a second, to the disk.
    public func pause() {
        guard !buffer.isEmpty, failure == nil else { return }
        if FileOutput.writeAll(fd, buffer) < buffer.count { failure = Errno.current }
        buffer.removeAll(keepingCapacity: true)
        let now = MonotonicClock.seconds()
        if now - lastSync >= 1 { sync(at: now) }
    }

    /// Everything to the disk (at the end, and on a stop).
    public func finish() {
        pause()
        sync()
    }

    private func sync(at now: Double = MonotonicClock.seconds()) {
        lastSync = now
        // A file system that cannot sync (EINVAL: a pipe, /dev/null; EROFS) loses nothing here.
        if !Descriptors.sync(fd), Errno.current != Errno.invalidArgument, Errno.current != Errno.readOnlyFileSystem {
            failure = failure ?? Errno.current
        }
    }

    /// An error when not every result could be written.
    public var error: InputError? { failure.map { InputError(JournalProblem.cannotWrite(journal: path, SystemError.code($0))) } }
}

extension CheckedLineFile {
    /// Every line, each followed by a newline, into `stream`.
    func digest(into stream: SHA256Stream) {
        var reader = lines()
        while let line = try? reader.nextLine(name: displayName) {
            stream.update(line)
            stream.update([0x0A])
        }
    }
}

/// What an earlier run's journal holds, read back for `--resume`.
public struct JournalReplay {
    /// The last result journaled for each place in the list.
    public private(set) var results: [Int: PushResult] = [:]
    public let identity: RunIdentity
    /// The run's id (what its notifications' apns-id and collapse id derive from); nil in a journal
    /// written before runs had one.
    public let runID: String?

    /// Lines past this are not a journal's: no result line comes near it.
    static let lineLimit = 64 * 1024

    /// Reads `path`; a truncated last line (a crash mid-write) is tolerated, any other damage is
    /// refused with its line number.
    public init(path: String) throws(InputError) {
        let shown = OutsideText.display(path, limit: 200)
        let file = try CheckedLineFile(path, what: .journal, lineLimit: JournalReplay.lineLimit) { _ throws(InputError) in }
        var reader = file.lines()
        var identity: RunIdentity?
        var runID: String?
        var results: [Int: PushResult] = [:]
        var pendingError: InputError?
        while let line = try reader.nextLine(name: shown) {
            if let error = pendingError { throw error }  // damage before the last line
            let number = reader.lineNumber
            if line.allSatisfy(\.isASCIIWhitespace) { continue }
            guard let json = try? JSONValue.parse(Array(line)) else {
                pendingError = InputError(JournalProblem.damaged(journal: path, line: number))
                continue
            }
            if identity == nil {
                guard json["journal"]?.stringValue == "pushctl", let run = json["run"].flatMap(RunIdentity.init) else {
                    throw InputError(JournalProblem.notAJournal(journal: path))
                }
                identity = run
                runID = json["id"]?.stringValue.flatMap { $0.isEmpty || $0.utf8.count > 200 ? nil : $0 }
                continue
            }
            guard let result = JournalReplay.result(json) else {
                pendingError = InputError(JournalProblem.damaged(journal: path, line: number))
                continue
            }
            results[result.position] = result
        }
        guard let identity else { throw InputError(JournalProblem.empty(journal: path)) }
        self.identity = identity
        self.runID = runID
        self.results = results
    }

    /// A journal's result line back into a result (nil if it is not one).
    static func result(_ json: JSONValue) -> PushResult? {
        guard let index = json["index"]?.integerValue, index >= 0, index < Int64(Int32.max) else { return nil }
        return result(json, position: Int(index))
    }

    /// A device's result object — a journal's line, a `--output jsonl` line — back into a result,
    /// every field as it was written (nil if it is not one). Its outcome is what its status says
    /// (APNs' word over what the file claims); no status and no stop mark is a temporary failure,
    /// or APNs not reached when the object says so.
    static func result(_ json: JSONValue, position: Int) -> PushResult? {
        guard let hex = json["token"]?.stringValue, let token = try? DeviceToken(parsing: hex),
            let attempts = json["attempts"]?.integerValue, attempts >= 0, attempts < 1_000
        else { return nil }
        let status = json["status"]?.integerValue.flatMap { (100...599).contains($0) ? Int($0) : nil }
        let stopped = json["stopped"]?.stringValue.flatMap(StopMark.init(rawValue:))
        // What another process wrote is display text, as APNs' own answers are (`RejectionReason`).
        let reason = json["reason"]?.stringValue.map(RejectionReason.init(apnsName:))
        let outcome: PushResult.Outcome
        var explanation = ResultExplanation.recorded(OutsideText.display(json["explanation"]?.stringValue ?? "", limit: 600))
        if stopped != nil {
            outcome = .stopped
        } else if let status, (200..<300).contains(status) {
            outcome = .accepted
            explanation = .accepted
        } else if let status, status != 429, status < 500 {
            // APNs' final word (what retries cannot change); its explanation said again in this run's language.
            outcome = .rejected
            if let reason, RejectionReason.allKnown.contains(reason) {
                explanation = .answered(reason, lastValid: nil, limit: nil)
            }
        } else if status == nil, json["outcome"]?.stringValue == PushResult.Outcome.unreachable.rawValue {
            outcome = .unreachable
        } else {
            // 429/5xx after the retries, or no answer at all: APNs did not take it.
            outcome = .temporaryFailure
        }
        var result = PushResult(
            subject: .device(token), position: position, outcome: outcome, status: status,
            apnsID: json["apnsId"]?.stringValue.map { OutsideText.display($0, limit: 64) },
            apnsUniqueID: json["apnsUniqueId"]?.stringValue.map { OutsideText.display($0, limit: 64) }, reason: reason,
            timestamp: OutsideNumber.unixMilliseconds(json["timestamp"]), attempts: Int(attempts),
            explanation: explanation, stopped: stopped,
            inDoubt: stopped == .inDoubt || json["inDoubt"] == .bool(true))
        result.resumed = true
        return result
    }
}
