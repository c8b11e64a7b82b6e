#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Advisory whole-file locks (flock(2)): a lock belongs to an open file, and the kernel lets it go
/// when the last descriptor of that open file closes, a crash or SIGKILL included, so a lock is
/// never left behind by a process that is gone.
///
/// Advisory: only programs that ask for the lock see it. On a local disk it holds between any two
/// processes. Over NFS, Linux's client turns flock into a byte-range lock the server keeps (NFSv4,
/// or NFSv3 with lockd), seen from every machine; a mount with `nolock` or `local_lock=flock|all`
/// keeps it on one machine, as some FUSE and SMB mounts do.
public enum FileLocks {
    /// What asking for a lock came to.
    public enum Attempt: Equatable, Sendable {
        case acquired
        /// Another open file holds it.
        case held
        /// flock failed otherwise (errno): ENOLCK (the file system keeps no locks), EINVAL, EBADF.
        case failed(Int32)
    }

    /// flock(fd, LOCK_EX | LOCK_NB): the file for this process alone, or at once `held` when another
    /// open file has it (never a wait). Linux and Darwin alike (see `systemFlock`): a held lock is
    /// EWOULDBLOCK on both (`<errno.h>`: 11 on Linux, 35 on Darwin, one name).
    public static func tryExclusive(_ fd: Descriptor) -> Attempt {
        while true {
            if systemFlock(fd, LOCK_EX | LOCK_NB) == 0 { return .acquired }
            let code = errno
            if code == EINTR { continue }
            return code == EWOULDBLOCK ? .held : .failed(code)
        }
    }

    /// flock(fd, LOCK_UN): lets the lock go before the descriptor closes (closing it does too).
    public static func unlock(_ fd: Descriptor) { _ = systemFlock(fd, LOCK_UN) }

    /// open(2) for reading and writing, made with `mode` when missing, never emptied, close-on-exec
    /// and not following a symbolic link as its last component: a lock file. -1 and errno on failure.
    /// `<fcntl.h>` on both: O_RDWR, O_CREAT, O_CLOEXEC and O_NOFOLLOW alike.
    public static func openLockFile(_ path: String, mode: UInt16 = 0o644) -> Descriptor {
        open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, mode_t(mode))
    }

    /// ftruncate(2) to 0 bytes, then the position back at the start: the file ready for new
    /// content (`<unistd.h>` on both).
    public static func empty(_ fd: Descriptor) -> Bool {
        ftruncate(fd, 0) == 0 && lseek(fd, 0, SEEK_SET) == 0
    }
}

/// `int flock(int fd, int operation)`, declared alike by Linux's glibc `<sys/file.h>` and Darwin's
/// `<sys/file.h>`, with the same LOCK_EX (2), LOCK_NB (4) and LOCK_UN (8) that both modules
/// import. Neither module lets Swift call it by its name: each also imports `struct flock`
/// (fcntl's byte-range record from `<fcntl.h>`), whose initialiser hides the function. So it is
/// declared here by its C symbol, one declaration for both systems.
@_silgen_name("flock")
private func systemFlock(_ fd: Int32, _ operation: Int32) -> Int32
