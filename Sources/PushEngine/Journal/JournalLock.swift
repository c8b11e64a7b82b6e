public import PushCore
import PushFiles
import PushSystem
public import PushWords

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
            guard fd >= 0 else { throw JournalLock.cannotLock(journal, lockFile: path, errno: Errno.current, opening: true) }
            switch FileLocks.tryExclusive(fd) {
            case .held:
                let holder = JournalHolder(reading: fd)
                Descriptors.close(fd)
                throw JournalLock.held(journal, by: holder, lockFile: path)
            case .failed(let code):
                Descriptors.close(fd)
                throw JournalLock.cannotLock(journal, lockFile: path, errno: code)
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
        throw JournalLock.held(journal, by: nil, lockFile: path)
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
            let why = SystemError.reason(code)
            let shown = OutsideText.display(journal, limit: 200)
            throw InputError(
                Words("cannot open the journal '\(shown)': \(why.en)", es: "no se puede abrir el diario '\(shown)': \(why.es)"),
                hint: Words(
                    "give the path of a journal file in a folder you can write (pushctl writes through no symbolic link)",
                    es: "indica la ruta de un archivo de diario en una carpeta donde puedas escribir (pushctl no escribe a través de enlaces simbólicos)"),
                kind: .cannotCreateOutput)
        }
        switch FileLocks.tryExclusive(opened) {
        case .acquired:
            // A journal made before (0644 by an older pushctl, or by hand) is made private too.
            _ = FileSystem.setPermissions(of: opened, 0o600)
            journalFD = opened
        case .held:
            Descriptors.close(opened)
            release()
            throw JournalLock.held(journal, by: nil, lockFile: path, throughAnotherPath: true)
        case .failed(let code):
            Descriptors.close(opened)
            release()
            throw JournalLock.cannotLock(journal, lockFile: journal, errno: code)
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
        let (folder, name) = ReplacedFile.parts(of: journal)
        guard let real = FileSystem.resolved(folder) else { return journal + ".lock" }
        return (real.hasSuffix("/") ? real : real + "/") + name + ".lock"
    }

    static func held(_ journal: String, by holder: JournalHolder?, lockFile: String, throughAnotherPath: Bool = false) -> InputError {
        let shown = OutsideText.display(journal, limit: 200)
        let unknown =
            throughAnotherPath
            ? Words("through another path to the same file, such as a hard link", es: "por otra ruta al mismo archivo, como un enlace duro")
            : Words("who holds it is not written yet", es: "aún no consta quién lo tiene")
        let who = holder.map(\.words) ?? unknown
        let problem =
            Words("the journal '\(shown)' is held by another run (", es: "el diario '\(shown)' lo tiene otro envío (")
            + who + Words("); one run per journal, and nothing was sent", es: "); un envío por diario, y no se envió nada")
        if throughAnotherPath {
            return InputError(
                problem,
                hint: Words(
                    "try again when that run has ended (exit 75: a temporary failure), or give this run a journal of its own",
                    es: "vuelve a intentarlo cuando ese envío termine (salida 75: un fallo temporal), o da a este envío un diario propio"),
                kind: .temporaryFailure)
        }
        return InputError(
            problem,
            hint: Words(
                "try again when that run has ended (exit 75: a temporary failure), or give this run another journal; a holder on another machine that has gone leaves no lock behind unless the file system keeps locks on one machine only (NFS with nolock): then remove '\(OutsideText.display(lockFile, limit: 200))'",
                es:
                    "vuelve a intentarlo cuando ese envío termine (salida 75: un fallo temporal), o da a este envío otro diario; quien lo tenía en otra máquina y ya no está no deja el bloqueo, salvo que el sistema de archivos guarde los bloqueos en una sola máquina (NFS con nolock): entonces borra '\(OutsideText.display(lockFile, limit: 200))'"
            ),
            kind: .temporaryFailure)
    }

    /// The lock file could not be made (`opening`), or the file system refused the lock.
    static func cannotLock(_ journal: String, lockFile: String, errno: Int32, opening: Bool = false) -> InputError {
        let why = SystemError.reason(errno)
        let shown = OutsideText.display(lockFile, limit: 200)
        let journalShown = OutsideText.display(journal, limit: 200)
        let what =
            opening
            ? Words(
                "cannot create the journal '\(journalShown)' (its lock '\(shown)'): \(why.en)",
                es: "no se puede crear el diario '\(journalShown)' (su bloqueo '\(shown)'): \(why.es)")
            : Words(
                "cannot lock the journal '\(journalShown)' ('\(shown)'): \(why.en)",
                es: "no se puede bloquear el diario '\(journalShown)' ('\(shown)'): \(why.es)")
        return InputError(
            what,
            hint: Words(
                "give a journal path in a folder you can write, on a file system that keeps locks (a local disk)",
                es: "indica una ruta de diario en una carpeta donde puedas escribir, en un sistema de archivos que admita bloqueos (un disco local)"),
            kind: .cannotCreateOutput)
    }
}

/// Who holds a journal, as its lock file says.
public struct JournalHolder: Sendable, Equatable {
    public var pid: Int32
    public var host: String
    /// UNIX seconds.
    public var since: Int64

    var json: JSONValue {
        .object([("pid", .integer(Int64(pid))), ("host", .string(host)), ("since", .integer(since)), ("sinceUTC", .string(UTCDate.format(unixSeconds: since)))])
    }

    /// "pid 1234 on ci-runner-7, since 2026-11-27 17:00:03 UTC"
    public var words: Words {
        let date = UTCDate.format(unixSeconds: since)
        let on = host.isEmpty ? "" : " on \(host)"
        let en = host.isEmpty ? "" : " en \(host)"
        return Words("pid \(pid)\(on), since \(date)", es: "pid \(pid)\(en), desde \(date)")
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
