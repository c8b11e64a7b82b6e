#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// errno and the codes pushctl tells apart. POSIX names them alike on Linux and Darwin
/// (`<errno.h>`), with different numbers: compare with these, never with a number.
public enum Errno {
    /// This thread's errno (Swift's Glibc and Darwin overlays both give it as a variable).
    public static var current: Int32 {
        get { errno }
        set { errno = newValue }
    }

    public static let interrupted = EINTR
    public static let wouldBlock = EAGAIN
    public static let noSuchFile = ENOENT
    public static let permissionDenied = EACCES
    public static let notPermitted = EPERM
    public static let isDirectory = EISDIR
    public static let notDirectory = ENOTDIR
    public static let exists = EEXIST
    public static let nameTooLong = ENAMETOOLONG
    public static let symbolicLinkLoop = ELOOP
    public static let noSpace = ENOSPC
    /// Darwin and Linux both define EDQUOT (`<errno.h>`).
    public static let quotaExceeded = EDQUOT
    public static let readOnlyFileSystem = EROFS
    public static let tooManyOpenFiles = EMFILE
    public static let tooManyOpenFilesInSystem = ENFILE
    public static let inputOutput = EIO
    public static let brokenPipe = EPIPE
    public static let notExecutable = ENOEXEC
    public static let invalidArgument = EINVAL
    public static let noChild = ECHILD
    /// The lock is held by another (flock with LOCK_NB).
    public static let lockHeld = EWOULDBLOCK
    public static let notSupported = ENOTSUP

    /// strerror(3): the system's own English words for `code`.
    public static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
