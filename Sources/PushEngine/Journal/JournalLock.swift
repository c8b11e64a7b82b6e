public import PushCore
import PushFiles
import PushSystem

/// One run per journal: a run holds its journal from before it reads it until its last result is
/// written, and a second run on the same journal is refused at once (a temporary failure: try
/// again when the first has ended), naming who holds it, and sends nothing.
///
/// Two advisory locks (flock) are taken. The first is on `<journal>.lock` beside the journal (the
/// journal's real path, symbolic links resolved), which also holds who took it: process id, host
/// and since when, as one JSON line (a journal holds results and nothing else). The second is on the
/// journal file itself (made empty, 0600, when missing; never through a symbolic link): a lock
/// belongs to the file, so a hard link or any other path to the same journal is the same lock, and
/// a second run through it is refused too.
///
/// After a crash the kernel has already let the lock go; the next run takes it and writes itself
/// over the stale holder. A run that ends removes the file while it still holds the lock; a run
/// that locked the file just as it was removed finds the path gone or new, and starts again.
///
/// Limits: the lock is seen by every process on one machine; across machines only where the file
/// system passes locks to its server (NFSv4; NFSv3 with lockd; not a `nolock` or `local_lock`
/// mount). In Kubernetes an Indexed Job with `podReplacementPolicy: Failed` never runs two pods of
/// one index at once, whatever the file system does.
public final class JournalLock {
    /// The lock file.
    public let path: String
    private var fd: Descriptor
    /// The journal itself, open and locked while the run holds it.
    private var journalFD: Descriptor = -1

    /// Takes the lock of the journal at `journal`; throws `.temporaryFailure` when another run holds
    /// it (saying who), `.cannotCreateOutput` when the lock file cannot be made or locked.
    public init(journal: String) throws(InputError) {
        path = JournalLock.lockPath(for: journal)
        // Each round loses only to a run that removed the file between our open and our lock.
        for _ in 0..<8 {
            let fd = FileLocks.openLockFile(path)
            guard fd >= 0 else { throw InputError(JournalProblem.cannotCreateLock(journal: journal, lockFile: path, SystemError.code(Errno.current))) }
            switch FileLocks.tryExclusive(fd) {
            case .held:
                let holder = JournalHolder(reading: fd)
                Descriptors.close(fd)
                throw InputError(JournalProblem.held(journal: journal, holder: holder, lockFile: path))
            case .failed(let code):
                Descriptors.close(fd)
                throw InputError(JournalProblem.cannotLock(journal: journal, lockFile: path, SystemError.code(code)))
            case .acquired:
                guard let onDisk = FileSystem.linkStatus(path), let mine = FileSystem.status(of: fd), onDisk.isSameFile(as: mine) else {
                    Descriptors.close(fd)
                    continue
                }
                self.fd = fd
                let me = JournalHolder(pid: CurrentProcess.id, host: CurrentProcess.hostName ?? "", since: WallClock.now())
                // Best effort: who holds it is for the message of a run refused, not for the lock.
                if FileLocks.empty(fd) { _ = FileOutput.writeAll(fd, Array((me.json.compact + "\n").utf8)) }
                try lockJournalItself(journal)
                return
            }
        }
        throw InputError(JournalProblem.held(journal: journal, holder: nil, lockFile: path))
    }

    deinit { release() }

    /// The journal file's own lock, taken once its lock file is held: a run that reached the same
    /// file by another path (a hard link) holds it. Made private (0600) when missing; a symbolic
    /// link at the journal's path is refused, not followed.
    private func lockJournalItself(_ journal: String) throws(InputError) {
        let opened = FileLocks.openLockFile(journal, mode: 0o600)
        guard opened >= 0 else {
            let code = Errno.current
            release()
            throw InputError(JournalProblem.cannotOpen(journal: journal, SystemError.code(code)))
        }
        switch FileLocks.tryExclusive(opened) {
        case .acquired:
            // A journal made before (0644 by an older pushctl, or by hand) is made private too.
            _ = FileSystem.setPermissions(of: opened, 0o600)
            journalFD = opened
        case .held:
            Descriptors.close(opened)
            release()
            throw InputError(JournalProblem.heldThroughAnotherPath(journal: journal))
        case .failed(let code):
            Descriptors.close(opened)
            release()
            throw InputError(JournalProblem.cannotLock(journal: journal, lockFile: journal, SystemError.code(code)))
        }
    }

    /// Removes the lock file, then lets both locks go (at the end of a run; deinit does it too).
    public func release() {
        if journalFD >= 0 {
            FileLocks.unlock(journalFD)
            Descriptors.close(journalFD)
            journalFD = -1
        }
        guard fd >= 0 else { return }
        FileSystem.remove(path)
        FileLocks.unlock(fd)
        Descriptors.close(fd)
        fd = -1
    }

    /// `<journal>.lock`, beside the journal's real path: two paths to one journal (a link, `./`)
    /// lock one file. A journal not yet made is named by its folder's real path.
    static func lockPath(for journal: String) -> String {
        if let real = FileSystem.resolved(journal) { return real + ".lock" }
        let (folder, name) = OutputFiles.parts(of: journal)
        guard let real = FileSystem.resolved(folder) else { return journal + ".lock" }
        return (real.hasSuffix("/") ? real : real + "/") + name + ".lock"
    }
}

extension JournalHolder {
    var json: JSONValue {
        .object([("pid", .integer(Int64(pid))), ("host", .string(host)), ("since", .integer(since)), ("sinceUTC", .string(UTCDate.format(unixSeconds: since)))])
    }
}

extension JournalHolder {
    /// The first line of the lock file `fd` is open on (at most 4 KiB); nil when it says nothing usable.
    init?(reading fd: Descriptor) {
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = bytes.withUnsafeMutableBytes { Descriptors.read(fd, into: $0.baseAddress!, count: $0.count, at: 0) }
        guard n > 0 else { return nil }
        let line = bytes[..<n].prefix { $0 != 0x0A }
        guard let json = try? JSONValue.parse(Array(line)), let pid = json["pid"]?.integerValue, (1...Int64(Int32.max)).contains(pid),
            let since = json["since"]?.integerValue
        else { return nil }
        self.init(pid: Int32(pid), host: OutsideText.display(json["host"]?.stringValue ?? "", limit: 100), since: since)
    }
}
