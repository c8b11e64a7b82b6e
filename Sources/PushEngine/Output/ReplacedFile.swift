public import PushCore
import PushFiles
import PushSystem
public import PushWords

/// An output file written whole and put in place at once: a new file in the same folder, then
/// rename(2) over the old. Whoever reads the path meanwhile (node_exporter's textfile collector,
/// a job's next step) sees the old content or the new, never half of either.
public enum ReplacedFile {
    /// Writes `bytes` to `path` with `mode` (private unless the caller says otherwise: token lists
    /// are personal data); throws `.cannotCreateOutput` saying what `what` is.
    public static func write(_ bytes: [UInt8], to path: String, mode: UInt16 = 0o600, what: Words) throws(InputError) {
        let shown = OutsideText.display(path, limit: 200)
        let (fd, temporary) = try temporaryFile(beside: path, what: what)
        var failure: Int32?
        if !FileSystem.setPermissions(of: fd, mode) || FileOutput.writeAll(fd, bytes) < bytes.count { failure = Errno.current }
        Descriptors.close(fd)
        if failure == nil, !FileSystem.rename(temporary, to: path) { failure = Errno.current }
        guard let failure else { return }
        FileSystem.remove(temporary)
        throw cannotWrite(what, shown, errno: failure)
    }

    /// Whether a file can be written beside `path` (made and removed at once): checked before a
    /// run sends anything, so that an output it could not write is said before, not after.
    public static func checkFolder(of path: String, what: Words) throws(InputError) {
        let (fd, temporary) = try temporaryFile(beside: path, what: what)
        Descriptors.close(fd)
        FileSystem.remove(temporary)
    }

    /// A new private file in `path`'s folder, named after it and hidden (`.name.XXXXXX`: neither
    /// node_exporter, which reads `*.prom`, nor a glob of the outputs picks it up).
    static func temporaryFile(beside path: String, what: Words) throws(InputError) -> (Descriptor, String) {
        let (folder, name) = parts(of: path)
        guard let made = FileSystem.makeTemporaryFile(pathPrefix: (folder.hasSuffix("/") ? folder : folder + "/") + "." + name + ".") else {
            throw cannotWrite(what, OutsideText.display(path, limit: 200), errno: Errno.current)
        }
        return made
    }

    /// A path's folder (`.` for a bare name, `/` at the root) and its last component.
    static func parts(of path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        return (path[..<slash].isEmpty ? "/" : String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    static func cannotWrite(_ what: Words, _ shown: String, errno: Int32) -> InputError {
        let why = SystemError.reason(errno)
        return InputError(
            Words("cannot write \(what) '\(shown)': \(why)", es: "no se puede escribir \(what) '\(shown)': \(why)"),
            hint: Words("give a path in a folder you can write", es: "indica una ruta en una carpeta donde puedas escribir"),
            kind: .cannotCreateOutput)
    }
}
