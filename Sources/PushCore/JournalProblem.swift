/// Who holds a journal, as its lock file says.
public struct JournalHolder: Sendable, Equatable {
    public var pid: Int32
    public var host: String
    /// UNIX seconds.
    public var since: Int64

    public init(pid: Int32, host: String, since: Int64) {
        self.pid = pid
        self.host = host
        self.since = since
    }
}

/// How a run differs from the one its journal holds (a resumed run must be the same run).
public enum JournalDifference: Sendable, Equatable {
    /// The notifications' input (the device tokens, or the requests file's lines).
    case input
    case payload
    case topic(was: String?, now: String?)
    case pushType(was: String?, now: String?)
    case destination(was: String, now: String)
    case shard(was: String?, now: String?)
}

/// What went wrong with a run's journal: taking it, reading it back, writing it. Each case has the
/// journal's path as given; the catalog says each and what to do.
public enum JournalProblem: InputProblem {
    /// Another run holds it, and its lock file says who (nil: not written yet).
    case held(journal: String, holder: JournalHolder?, lockFile: String)
    /// A run holds the same file through another path (a hard link).
    case heldThroughAnotherPath(journal: String)
    /// Its lock file could not be made.
    case cannotCreateLock(journal: String, lockFile: String, SystemReason)
    /// The file system refused the lock (of the lock file, or of the journal itself).
    case cannotLock(journal: String, lockFile: String, SystemReason)
    /// The journal could not be opened to lock it (a symbolic link is not followed).
    case cannotOpen(journal: String, SystemReason)
    /// The journal could not be created for writing.
    case cannotCreate(journal: String, SystemReason)
    /// Not every result could be written (they are in the output).
    case cannotWrite(journal: String, SystemReason)
    /// Its first line names no run: not a pushctl journal.
    case notAJournal(journal: String)
    /// An empty file where a journal was expected.
    case empty(journal: String)
    /// A line before the last that is not a result pushctl wrote.
    case damaged(journal: String, line: Int)
    /// A new run was given a journal that already holds one (and no resume).
    case alreadyHoldsARun(journal: String)
    /// Resuming with a run that is not the journal's.
    case ofAnotherRun(journal: String, differences: [JournalDifference])

    /// The kind of problem: another run holding it is temporary, a file that cannot be made or
    /// written is output, a file that is not a journal is bad data, the wrong journal is usage.
    public var kind: InputError.Kind {
        switch self {
        case .held, .heldThroughAnotherPath: return .temporaryFailure
        case .cannotCreateLock, .cannotLock, .cannotOpen, .cannotCreate, .cannotWrite: return .cannotCreateOutput
        case .notAJournal, .empty, .damaged: return .badData
        case .alreadyHoldsARun, .ofAnotherRun: return .usage
        }
    }
}

extension InputError {
    /// A journal problem, of the kind it is.
    public init(_ problem: JournalProblem) { self.init(problem, kind: problem.kind) }
}
