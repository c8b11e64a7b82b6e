#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What stat(2) says of a file, in the fields pushctl reads.
public struct FileStatus: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case regular, directory, symbolicLink, fifo, other }

    public let kind: Kind
    public let size: Int64
    /// The permission bits (mode & 0o7777).
    public let permissions: UInt16
    /// The owner's user id.
    public let owner: UInt32
    /// Which file it is: the same device and inode are the same file.
    public let device: UInt64
    public let inode: UInt64
    /// The last modification, as UNIX seconds and nanoseconds.
    public let modifiedSeconds: Int64
    public let modifiedNanoseconds: Int64

    /// From stat(2)'s struct. The modification time's field has another name on each: Linux's
    /// `<sys/stat.h>` has `struct timespec st_mtim`; Darwin's `<sys/stat.h>` has `st_mtimespec`
    /// (`st_mtim` only in POSIX-strict builds, not in Swift's Darwin module).
    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        default: kind = .other
        }
        size = Int64(info.st_size)
        permissions = UInt16(info.st_mode & 0o7777)
        owner = UInt32(info.st_uid)
        // dev_t is a signed Int32 on Darwin, an unsigned UInt64 on Linux: its bits, either way.
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(info.st_ino)
        #if canImport(Darwin)
            let modified = info.st_mtimespec
        #else
            let modified = info.st_mtim
        #endif
        modifiedSeconds = Int64(modified.tv_sec)
        modifiedNanoseconds = Int64(modified.tv_nsec)
    }

    /// Whether `other` is the same file (device and inode).
    public func isSameFile(as other: FileStatus) -> Bool { device == other.device && inode == other.inode }
}

public enum FileSystem {
    /// stat(2), following a symbolic link; nil and errno when it fails.
    public static func status(_ path: String) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStatus(info)
    }

    /// lstat(2): a symbolic link itself, not what it points at.
    public static func linkStatus(_ path: String) -> FileStatus? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileStatus(info)
    }

    /// fstat(2) of an open descriptor.
    public static func status(of fd: Descriptor) -> FileStatus? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return FileStatus(info)
    }

    /// mkdir(2) with `mode`; false and errno when it fails (EEXIST included).
    public static func makeDirectory(_ path: String, mode: UInt16) -> Bool { mkdir(path, mode_t(mode)) == 0 }

    /// rmdir(2) of an empty folder.
    @discardableResult
    public static func removeDirectory(_ path: String) -> Bool { rmdir(path) == 0 }

    /// unlink(2).
    @discardableResult
    public static func remove(_ path: String) -> Bool { unlink(path) == 0 }

    /// rename(2): atomic on one file system.
    public static func rename(_ from: String, to: String) -> Bool { posixRename(from, to) == 0 }

    /// fchmod(2): the permission bits of an open file (`<sys/stat.h>` on both); false and errno on failure.
    public static func setPermissions(of fd: Descriptor, _ mode: UInt16) -> Bool { fchmod(fd, mode_t(mode)) == 0 }

    /// access(2) with X_OK: whether this process may run the file.
    public static func isExecutable(_ path: String) -> Bool {
        guard status(path)?.kind == .regular else { return false }
        return access(path, X_OK) == 0
    }

    /// mkstemp(3): a new file `<pathPrefix>XXXXXX` made with O_EXCL and mode 0600, close-on-exec:
    /// its descriptor and path, or nil and errno. Darwin's mkstemp (`<stdlib.h>`, `<unistd.h>`)
    /// takes the same template; FD_CLOEXEC is set after, as mkostemp's flags are not on both.
    public static func makeTemporaryFile(pathPrefix: String) -> (fd: Descriptor, path: String)? {
        var template = Array("\(pathPrefix)XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return (fd, String(nulTerminated: template))
    }

    /// mkdtemp(3): a new private folder (mode 0700) `<pathPrefix>XXXXXX`, or nil and errno.
    public static func makeTemporaryFolder(pathPrefix: String) -> String? {
        var template = Array("\(pathPrefix)XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        return String(cString: made)
    }

    /// realpath(3): the path with every symbolic link and `.`/`..` resolved, or nil.
    public static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// rename(2), under a name `FileSystem.rename` does not shadow.
private func posixRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
