public import PushCore
import PushSystem

/// Reading what the user points at, with one set of messages: missing or unreadable →
/// `.missingInput`, present but unusable → `.badData`.
public enum InputFiles {
    /// Files pushctl reads whole (keys, payloads, tokens given inline) are small.
    public static let sizeLimit = 1 << 20

    /// Opens a file for reading, or says why not: missing, a directory, or unreadable.
    public static func open(_ path: String, what: FileRole) throws(InputError) -> Int32 {
        guard let info = FileSystem.status(path) else {
            throw InputError(FileProblem.notFound(what, path: path, SystemError.code(Errno.current)))
        }
        if info.kind == .directory { throw InputError(FileProblem.directory(what, path: path)) }
        let fd = Descriptors.openForReading(path)
        guard fd >= 0 else { throw InputError(FileProblem.cannotOpen(what, path: path, SystemError.code(Errno.current))) }
        return fd
    }

    /// Reads a whole (small) file, or standard input for `-`.
    public static func read(_ path: String, what: FileRole) throws(InputError) -> [UInt8] {
        if path == "-" { return try read(fd: Descriptors.standardInput, path: path, what: what) }
        let fd = try open(path, what: what)
        defer { Descriptors.close(fd) }
        return try read(fd: fd, path: path, what: what)
    }

    /// Reads at most `sizeLimit` bytes (one more tells it is too large), into a buffer sized by
    /// what the file says it holds: a 600-byte key costs no megabyte of zeroed memory.
    private static func read(fd: Int32, path: String, what: FileRole) throws(InputError) -> [UInt8] {
        let info = FileSystem.status(of: fd)
        let announced = info?.kind == .regular ? Int(info?.size ?? 0) : 0
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(max(announced, 0), sizeLimit) + 1)
        var chunk = [UInt8](repeating: 0, count: min(max(announced + 1, 4096), 64 * 1024))
        while bytes.count <= sizeLimit {
            let wanted = min(chunk.count, sizeLimit + 1 - bytes.count)
            // A stop signal ends the wait for a pipe (the command then says it was stopped).
            guard StopSignals.waitReadable(fd) else { throw InputError(FileProblem.stoppedReading(what, path: path)) }
            let n = chunk.withUnsafeMutableBytes { Descriptors.read(fd, into: $0.baseAddress!, count: wanted) }
            // A stop signal ends the wait (the command says it was stopped); any other signal does not.
            if n < 0 && Errno.current == Errno.interrupted && !StopSignals.requested { continue }
            guard n >= 0 else { throw InputError(FileProblem.cannotRead(what, path: path, SystemError.code(Errno.current))) }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[..<n])
        }
        guard bytes.count <= sizeLimit else { throw InputError(FileProblem.tooLarge(what, path: path, limitKiB: sizeLimit / 1024)) }
        return bytes
    }

    /// A private key readable by group or others is worth a warning, not a refusal.
    public static func sharingWarning(_ path: String) -> SharedKeyFile? {
        guard path != "-", let info = FileSystem.status(path), info.permissions & 0o077 != 0 else { return nil }
        return SharedKeyFile(path: path, mode: UInt32(info.permissions & 0o777))
    }
}

extension Optional where Wrapped == String {
    /// nil for an unset or empty variable, as shells treat `VAR=`.
    public var nonEmpty: String? { self.flatMap { $0.isEmpty ? nil : $0 } }
}
