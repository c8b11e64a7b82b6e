public import PushCore
import PushFiles
import PushSystem
public import PushWords

/// What the runs of a fleet add up to (`pushctl report`): the journals (`--journal`) or JSON Lines
/// results (`--output jsonl`) of N shards, read into one account.
///
/// - **Every device token once.** A token with results in several files (a journal and the
///   results of one run, a run and its resumed run) counts once, by its best result: accepted
///   over rejected (APNs' final word) over what is left to retry (a temporary failure, APNs not
///   reached, a stopped run's). Between two results of one rank the later read wins (a journal's
///   later line is its resumed run's), except that of two 410s the earlier APNs time is kept.
/// - **The same file twice counts once** (the same device and inode, whatever the path).
/// - **Bounded and forgiving:** files are streamed a line at a time; a line over 64 KiB, or one
///   that is neither a result nor a journal's first line nor a summary, is counted and skipped
///   (its number kept for the first few), never fatal. A file that cannot be read is (66).
/// - **Shards:** when the files name shards of one count N (a journal's run, a results file's
///   summary), the shards none of them covers are named: their tokens were never sent.
public struct RunReport {
    /// What one file held.
    public struct FileAccount: Sendable {
        public enum Kind: String, Sendable { case journal, results }
        /// As given.
        public let path: String
        public internal(set) var kind = Kind.results
        /// The device results read.
        public internal(set) var results = 0
        /// Lines that were none of a result, a journal's first line or a summary.
        public internal(set) var skipped = 0
        /// The first few of those, by line number.
        public internal(set) var skippedLines: [Int] = []
        /// The shard its run sent (`K/N`), as its journal or its summary says.
        public internal(set) var shard: Shard?
        /// A journal's run.
        public internal(set) var run: RunIdentity?
    }

    /// A token APNs called dead (410): delete it only if it was registered before `timestamp`.
    public struct UnregisteredToken: Sendable, Equatable {
        public let token: String
        public let reason: String
        /// When APNs last knew it valid, milliseconds since 1970 (nil: the answer had none).
        public let timestamp: Int64?
    }

    /// A token to send again later, and why (`temporary-failure`, `unreachable`, `stopped`).
    public struct RetryToken: Sendable, Equatable {
        public let token: String
        public let outcome: PushResult.Outcome
        /// Sent and not answered: APNs may have it.
        public let inDoubt: Bool
    }

    public private(set) var files: [FileAccount] = []
    /// Paths naming a file already read (the same file given again): read once.
    public private(set) var repeated: [String] = []
    /// Every token once, by its best result.
    public private(set) var summary = BatchSummary()
    /// Sorted by token.
    public private(set) var unregistered: [UnregisteredToken] = []
    /// Sorted by token.
    public private(set) var retryLater: [RetryToken] = []
    /// N, when the files name shards of one count.
    public private(set) var shardCount: Int?
    /// The shards of N that no file covers.
    public private(set) var missingShards: [Int] = []
    /// Shards of different counts were named (2/3 and 1/4): which are missing cannot be told.
    public private(set) var mixedShardCounts = false
    /// Journals of different runs (tokens, payload, topic, push type or destination differ).
    public private(set) var mixedRuns = false

    /// Lines past this are passed over: no result comes near it.
    static let lineLimit = JournalReplay.lineLimit
    /// How many skipped lines a file names.
    static let namedSkips = 5

    /// Reads `paths` in order; throws for a file that cannot be read, and when none holds a result.
    public init(reading paths: [String]) throws(InputError) {
        var table = BestResults()
        var seen: [(device: UInt64, inode: UInt64)] = []
        for path in paths {
            let fd = try InputFiles.open(path, what: .journalOrResultsFile)
            defer { Descriptors.close(fd) }
            // A file or a pipe ends; a device (/dev/zero, a terminal) may never: refused, not read.
            if let kind = FileSystem.status(of: fd)?.kind, kind != .regular, kind != .fifo {
                throw InputError(OutputProblem.notAResultsFile(path: path), kind: .missingInput)
            }
            if let status = FileSystem.status(of: fd) {
                if seen.contains(where: { $0.device == status.device && $0.inode == status.inode }) {
                    repeated.append(path)
                    continue
                }
                seen.append((status.device, status.inode))
            }
            files.append(try RunReport.read(fd, path: path, into: &table))
        }
        guard table.count > 0 else {
            throw InputError(OutputProblem.noDeviceResults(paths: paths))
        }
        table.add(to: &self)
        checkShards()
        let runs = files.compactMap(\.run).map { run -> RunIdentity in
            var same = run
            same.shard = nil
            return same
        }
        mixedRuns = runs.contains { $0 != runs[0] }
    }

    /// Reads one open file, line by line, its results into `table`.
    static func read(_ fd: Descriptor, path: String, into table: inout BestResults) throws(InputError) -> FileAccount {
        var account = FileAccount(path: path)
        let shown = OutsideText.display(path, limit: 200)
        var reader = LineReader(fd: fd, offset: nil, copyTo: nil, lineLimit: lineLimit)
        reader.skipsOverlongLines = true
        var first = true
        while let line = try reader.nextLine(name: shown) {
            guard !reader.lastLineWasOverlong else {
                account.skip(reader.lineNumber)
                continue
            }
            if line.allSatisfy(\.isASCIIWhitespace) { continue }
            defer { first = false }
            guard let json = try? JSONValue.parse(Array(line)) else {
                account.skip(reader.lineNumber)
                continue
            }
            if first, json["journal"]?.stringValue == "pushctl", let run = json["run"].flatMap(RunIdentity.init) {
                account.kind = .journal
                account.run = run
                account.shard = run.shard.flatMap { try? Shard(parsing: $0) }
            } else if json["summary"] == .bool(true) {
                account.shard = json["shard"]?.stringValue.flatMap { try? Shard(parsing: $0) } ?? account.shard
            } else if let result = JournalReplay.result(json, position: 0) {
                account.results += 1
                table.merge(result)
            } else {
                account.skip(reader.lineNumber)
            }
        }
        return account
    }

    /// The shards of one count that no file covers.
    private mutating func checkShards() {
        let shards = files.compactMap(\.shard)
        let counts = Set(shards.map(\.count))
        guard let count = counts.first else { return }
        guard counts.count == 1 else {
            mixedShardCounts = true
            return
        }
        shardCount = count
        let present = Set(shards.map(\.index))
        missingShards = (1...count).filter { !present.contains($0) }
    }

    /// What the whole comes to, worst first: something left to send (a token to retry, a shard no
    /// file covers), else APNs rejected some, else all accepted. The same order as a run's
    /// (`BatchSummary.outcome`), where APNs not reached is one more thing left to send.
    public var outcome: BatchOutcome {
        if !retryLater.isEmpty || !missingShards.isEmpty { return .temporaryFailure }
        return summary.outcome
    }

    /// The tokens APNs called dead, as a tokens file `send --tokens-file` reads back: a comment
    /// first, then one token a line, each with APNs' time in a comment.
    public func unregisteredFile(_ language: Language) -> String {
        let n = unregistered.count
        var lines = [
            "# "
                + Words(
                    "pushctl report: \(n) \(n == 1 ? "token" : "tokens") APNs called dead (410). Delete one only if your app registered it before the time given (APNs' timestamp): a token registered again since is alive.",
                    es:
                        "pushctl report: \(n) \(n == 1 ? "token" : "tokens") que APNs dio por muertos (410). Borra uno solo si tu app lo registró antes de la hora indicada (la marca de tiempo de APNs): un token registrado de nuevo después sigue vivo."
                ).text(language)
        ]
        for dead in unregistered {
            let when = dead.timestamp.map { "\(UTCDate.format(unixSeconds: $0 / 1000)) (\($0))" } ?? "-"
            lines.append("\(dead.token)  # \(dead.reason) \(when)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The tokens to send again later, as a tokens file: a comment first, each with why.
    public func retryFile(_ language: Language) -> String {
        let n = retryLater.count
        var lines = [
            "# "
                + Words(
                    "pushctl report: \(n) \(n == 1 ? "token" : "tokens") to send again later (temporary failures, APNs not reached, stopped runs; in-doubt ones APNs may have).",
                    es:
                        "pushctl report: \(n) \(n == 1 ? "token" : "tokens") para volver a enviar más tarde (fallos temporales, sin llegar a APNs, envíos detenidos; puede que APNs ya tenga los que están en duda)."
                ).text(language)
        ]
        for retry in retryLater {
            lines.append("\(retry.token)  # \(retry.outcome.rawValue)\(retry.inDoubt ? " in-doubt" : "")")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `--output json`: the whole in one document; `exitStatus` is the caller's.
    public func json(exitStatus: Int32) -> JSONValue {
        var whole = summary.json(exitStatus: exitStatus)
        guard case .object(var fields) = whole else { return whole }
        fields.removeAll { ["summary", "elapsedSeconds", "duplicatesSkipped", "shard", "exitStatus", "stopped", "notSent", "inDoubt"].contains($0.0) }
        fields += [("notSent", .integer(Int64(summary.notSent))), ("inDoubt", .integer(Int64(summary.inDoubt)))]
        let fileObjects: [JSONValue] = files.map { file in
            .object([
                ("path", .string(file.path)), ("kind", .string(file.kind.rawValue)), ("shard", file.shard.map { .string($0.description) } ?? .null),
                ("results", .integer(Int64(file.results))), ("skipped", .integer(Int64(file.skipped))),
                ("skippedLines", .array(file.skippedLines.map { .integer(Int64($0)) })),
            ])
        }
        let dead: [JSONValue] = unregistered.map { token in
            .object([
                ("token", .string(token.token)), ("reason", .string(token.reason)), ("timestamp", token.timestamp.map(JSONValue.integer) ?? .null),
                ("since", token.timestamp.map { .string(UTCDate.format(unixSeconds: $0 / 1000)) } ?? .null),
            ])
        }
        let retry: [JSONValue] = retryLater.map { token in
            .object([("token", .string(token.token)), ("outcome", .string(token.outcome.rawValue)), ("inDoubt", .bool(token.inDoubt))])
        }
        let shards: JSONValue = .object([
            ("count", shardCount.map { .integer(Int64($0)) } ?? .null),
            ("missing", .array(missingShards.map { .integer(Int64($0)) })), ("mixedCounts", .bool(mixedShardCounts)),
        ])
        whole = .object(
            [("report", .bool(true))] + fields + [
                ("files", .array(fileObjects)), ("repeatedFiles", .array(repeated.map(JSONValue.string))), ("shards", shards),
                ("mixedRuns", .bool(mixedRuns)), ("unregistered", .array(dead)), ("retryLater", .array(retry)), ("exitStatus", .integer(Int64(exitStatus))),
            ])
        return whole
    }

    mutating func finish(summary: BatchSummary, unregistered: [UnregisteredToken], retryLater: [RetryToken]) {
        self.summary = summary
        self.unregistered = unregistered
        self.retryLater = retryLater
    }
}

extension RunReport.FileAccount {
    mutating func skip(_ line: Int) {
        skipped += 1
        if skippedLines.count < RunReport.namedSkips { skippedLines.append(line) }
    }
}

/// Each token's best result so far, kept small: a fleet's report may hold millions.
struct BestResults {
    struct Entry {
        var outcome: PushResult.Outcome
        var status: Int?
        var reason: RejectionReason?
        var timestamp: Int64?
        var attempts: Int
        var stopped: StopMark?
        var inDoubt: Bool

        init(_ result: PushResult) {
            outcome = result.outcome
            status = result.status
            reason = result.reason
            timestamp = result.timestamp
            attempts = result.attempts
            stopped = result.stopped
            inDoubt = result.inDoubt
        }

        /// Accepted over rejected over everything left to send again.
        var rank: Int {
            switch outcome {
            case .accepted: 2
            case .rejected: 1
            default: 0
            }
        }

        /// Which of two results of one token stands (`self` was read first).
        func better(_ later: Entry) -> Entry {
            if later.rank != rank { return later.rank > rank ? later : self }
            // Two 410s: the earlier of APNs' times, so that fewer registrations look older than it.
            if status == 410, later.status == 410, let mine = timestamp, let theirs = later.timestamp, mine < theirs { return self }
            return later
        }
    }

    private var table: [String: Entry] = [:]
    var count: Int { table.count }

    mutating func merge(_ result: PushResult) {
        // Read from journals and device results: a device's, keyed by its token.
        guard let key = result.token?.hex else { return }
        let entry = Entry(result)
        if let old = table[key] { table[key] = old.better(entry) } else { table[key] = entry }
    }

    /// The summary, the dead tokens and the ones to retry, into `report`.
    func add(to report: inout RunReport) {
        var summary = BatchSummary()
        var dead: [RunReport.UnregisteredToken] = []
        var retry: [RunReport.RetryToken] = []
        for (hex, entry) in table {
            guard let token = try? DeviceToken(parsing: hex) else { continue }
            summary.add(
                PushResult(
                    subject: .device(token), position: 0, outcome: entry.outcome, status: entry.status, apnsID: nil, apnsUniqueID: nil,
                    reason: entry.reason, timestamp: entry.timestamp, attempts: entry.attempts, explanation: .recorded(""),
                    stopped: entry.stopped, inDoubt: entry.inDoubt))
            switch entry.outcome {
            case .accepted: break
            case .rejected:
                if entry.status == 410 { dead.append(.init(token: hex, reason: entry.reason?.apnsName ?? "Unregistered", timestamp: entry.timestamp)) }
            case .temporaryFailure, .unreachable, .stopped:
                retry.append(.init(token: hex, outcome: entry.outcome, inDoubt: entry.inDoubt))
            }
        }
        report.finish(summary: summary, unregistered: dead.sorted { $0.token < $1.token }, retryLater: retry.sorted { $0.token < $1.token })
    }
}
