public import PushCore
public import PushSystem

/// Writing what a command makes, one way for every file, as `InputFiles` is for reading: never
/// through a symbolic link (O_NOFOLLOW: a link planted where pushctl writes cannot send the bytes
/// into someone else's file), private unless the caller says otherwise (token lists and keys are
/// personal data), and a failure said as a code that names the file and the system's reason
/// (`OutputProblem.cannotWrite`, `.exists`; exit 73).
public enum OutputFiles {
    /// Opens `path` to write `file`: created, truncated (an existing file is made `mode` too, as a
    /// new one is) or appended to.
    public static func open(_ path: String, _ file: OutputFile, _ creation: Descriptors.Creation, mode: UInt16 = 0o600) throws(InputError) -> Descriptor {
        let fd = Descriptors.openForWriting(path, creation, mode: mode)
        guard fd >= 0 else { throw failure(file, path, Errno.current) }
        // A file truncated keeps its mode through O_TRUNC: made `mode`, as a new one is. Only a
        // regular file: run as root, a chmod of /dev/full would change the device's for everyone.
        if creation == .truncating, FileSystem.status(of: fd)?.kind == .regular { _ = FileSystem.setPermissions(of: fd, mode) }
        return fd
    }

    /// Writes `bytes` whole to `path`, created or truncated.
    public static func write(_ bytes: [UInt8], to path: String, _ file: OutputFile, mode: UInt16 = 0o600) throws(InputError) {
        try writeWhole(bytes, to: path, file, .truncating, mode: mode)
    }

    /// Appends `bytes` whole to `path` (created if missing).
    public static func append(_ bytes: [UInt8], to path: String, _ file: OutputFile) throws(InputError) {
        try writeWhole(bytes, to: path, file, .appending, mode: 0o600)
    }

    /// Creates `path` with `mode` from the start (a key is never readable by others, even
    /// briefly) and writes `bytes`; never replaces a file that is there (`OutputProblem.exists`).
    public static func writeNew(_ bytes: [UInt8], to path: String, _ file: OutputFile, mode: UInt16) throws(InputError) {
        try writeWhole(bytes, to: path, file, .new, mode: mode)
    }

    /// Writes `bytes` to a new file beside `path`, then renames it over `path`: whoever reads the
    /// path meanwhile (node_exporter's textfile collector, a job's next step) sees the old content
    /// or the new, never half of either.
    public static func replace(_ bytes: [UInt8], at path: String, _ file: OutputFile, mode: UInt16 = 0o600) throws(InputError) {
        try refuseNonFile(path, file)
        let (fd, temporary) = try temporaryFile(beside: path, file)
        var failed: Int32?
        if !FileSystem.setPermissions(of: fd, mode) || FileOutput.writeAll(fd, bytes) < bytes.count { failed = Errno.current }
        Descriptors.close(fd)
        if failed == nil, !FileSystem.rename(temporary, to: path) { failed = Errno.current }
        guard let failed else { return }
        FileSystem.remove(temporary)
        throw failure(file, path, failed)
    }

    /// Whether a file can be written beside `path` (made and removed at once): checked before a
    /// run sends anything, so that an output it could not write is said before, not after.
    public static func checkFolder(of path: String, _ file: OutputFile) throws(InputError) {
        try refuseNonFile(path, file)
        let (fd, temporary) = try temporaryFile(beside: path, file)
        Descriptors.close(fd)
        FileSystem.remove(temporary)
    }

    /// A path's folder (`.` for a bare name, `/` at the root) and its last component.
    public static func parts(of path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        return (path[..<slash].isEmpty ? "/" : String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    /// What is renamed over is a file, a link (replaced, never followed) or nothing yet: a device,
    /// a pipe or a folder at the path is refused (run as root, a rename over /dev/full replaces the
    /// device itself).
    private static func refuseNonFile(_ path: String, _ file: OutputFile) throws(InputError) {
        guard let kind = FileSystem.linkStatus(path)?.kind, kind != .regular, kind != .symbolicLink else { return }
        throw InputError(OutputProblem.notAFile(file, path: path), kind: .cannotCreateOutput)
    }

    private static func writeWhole(_ bytes: [UInt8], to path: String, _ file: OutputFile, _ creation: Descriptors.Creation, mode: UInt16) throws(InputError) {
        let fd = try open(path, file, creation, mode: mode)
        defer { Descriptors.close(fd) }
        guard FileOutput.writeAll(fd, bytes) == bytes.count else { throw failure(file, path, Errno.current) }
    }

    /// A new private file in `path`'s folder, named after it and hidden (`.name.XXXXXX`: neither
    /// node_exporter, which reads `*.prom`, nor a glob of the outputs picks it up).
    private static func temporaryFile(beside path: String, _ file: OutputFile) throws(InputError) -> (Descriptor, String) {
        let (folder, name) = parts(of: path)
        guard let made = FileSystem.makeTemporaryFile(pathPrefix: (folder.hasSuffix("/") ? folder : folder + "/") + "." + name + ".") else {
            throw failure(file, path, Errno.current)
        }
        return made
    }

    private static func failure(_ file: OutputFile, _ path: String, _ code: Int32) -> InputError {
        let problem: OutputProblem =
            code == Errno.exists ? .exists(file, path: path) : .cannotWrite(file, path: path, SystemError.code(code))
        return InputError(problem, kind: .cannotCreateOutput)
    }
}
