#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// File descriptors: open, read, write, close, sync, pipes. POSIX declares every call here the same
// on Linux and Darwin (<fcntl.h>, <unistd.h>); only the flag values differ, and the names hide them.
// Every descriptor opened here is close-on-exec, so no child process inherits one by accident.

/// A descriptor's number, as the system gives it.
public typealias Descriptor = Int32

public enum Descriptors {
    public static let standardInput: Descriptor = STDIN_FILENO
    public static let standardOutput: Descriptor = STDOUT_FILENO
    public static let standardError: Descriptor = STDERR_FILENO

    /// How a file is opened for writing: made anew (never an existing one), emptied, or appended to.
    public enum Creation: Sendable {
        /// `O_CREAT | O_EXCL`: fails with EEXIST when the path exists (a symlink included).
        case new
        /// `O_CREAT | O_TRUNC`.
        case truncating
        /// `O_CREAT | O_APPEND`.
        case appending
    }

    /// open(2) for reading; -1 and errno on failure.
    /// - noFollow: a symbolic link as the last component fails (ELOOP), as O_NOFOLLOW does on both.
    /// - nonBlocking: a FIFO cannot block the open.
    public static func openForReading(_ path: String, noFollow: Bool = false, nonBlocking: Bool = false) -> Descriptor {
        var flags = O_RDONLY | O_CLOEXEC
        if noFollow { flags |= O_NOFOLLOW }
        if nonBlocking { flags |= O_NONBLOCK }
        return open(path, flags)
    }

    /// open(2) for writing, with `mode` for a file it makes (private, 0600, unless the caller says
    /// otherwise: journals and token lists hold personal data); -1 and errno on failure. A symbolic
    /// link as the last component is never followed (O_NOFOLLOW, the same on both: ELOOP), so a link
    /// planted where pushctl writes cannot send the bytes into someone else's file.
    public static func openForWriting(_ path: String, _ creation: Creation, mode: UInt16 = 0o600) -> Descriptor {
        let how: Int32
        switch creation {
        case .new: how = O_CREAT | O_EXCL
        case .truncating: how = O_CREAT | O_TRUNC
        case .appending: how = O_CREAT | O_APPEND
        }
        return open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | how, mode_t(mode))
    }

    /// Runs `body` with standard error (descriptor 2) sent to a private, already unlinked file,
    /// and returns what was written there (at most `limit` bytes): a C library that prints its own
    /// lines (libp11 prints a key's URI) is then said in pushctl's words, or not at all. dup(2),
    /// dup2(2) and fcntl(2)'s F_DUPFD_CLOEXEC are POSIX (`<unistd.h>`, `<fcntl.h>` on both); fflush(NULL)
    /// (`<stdio.h>`) empties C's buffers first. When no file can be made, `body` runs uncaptured.
    public static func capturingStandardError<T>(limit: Int = 16 * 1024, _ body: () -> T) -> (result: T, said: [UInt8]) {
        let folder = ProcessEnvironment.value("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        guard let (file, path) = FileSystem.makeTemporaryFile(pathPrefix: folder + "/pushctl-stderr-") else { return (body(), []) }
        _ = FileSystem.remove(path)
        defer { posixClose(file) }
        _ = fflush(nil)
        let saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
        guard saved >= 0, dup2(file, STDERR_FILENO) >= 0 else {
            if saved >= 0 { posixClose(saved) }
            return (body(), [])
        }
        let result = body()
        _ = fflush(nil)
        _ = dup2(saved, STDERR_FILENO)
        posixClose(saved)
        var said = [UInt8](repeating: 0, count: limit)
        let count = said.withUnsafeMutableBytes { pread(file, $0.baseAddress, limit, 0) }
        said.removeSubrange(max(0, count)...)
        return (result, said)
    }

    /// The controlling terminal (`/dev/tty`) for reading and writing, not made this process's
    /// controlling terminal if it has none; -1 when there is none.
    public static func openTerminal() -> Descriptor {
        open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    }

    /// read(2): the bytes read, 0 at the end, -1 and errno on failure (EINTR included: the caller decides).
    public static func read(_ fd: Descriptor, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        posixRead(fd, buffer, count)
    }

    /// pread(2): as `read`, at `offset`, without moving the file's position.
    public static func read(_ fd: Descriptor, into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) -> Int {
        pread(fd, buffer, count, off_t(offset))
    }

    /// read(2) until `count` bytes, the end, or an error other than EINTR: the bytes read (fewer at
    /// the end), or -1 and errno.
    public static func readFully(_ fd: Descriptor, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        var done = 0
        while done < count {
            let n = read(fd, into: buffer + done, count: count - done)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return -1 }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// write(2): the bytes written, or -1 and errno.
    public static func write(_ fd: Descriptor, from buffer: UnsafeRawPointer, count: Int) -> Int {
        posixWrite(fd, buffer, count)
    }

    /// Writes all of `bytes` unless an error other than EINTR stops it: the bytes written (errno
    /// tells why when fewer).
    public static func writeAll(_ fd: Descriptor, _ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var done = 0
        while done < bytes.count {
            let n = write(fd, from: base + done, count: bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return done }
            done += n
        }
        return done
    }

    public static func close(_ fd: Descriptor) { posixClose(fd) }

    /// fsync(2): whether the kernel has written the file's data out. On Darwin fsync hands the data
    /// to the drive, which may still cache it (F_FULLFSYNC would wait for the platter); that is the
    /// same promise Linux's fsync gives, and enough for a journal (`<unistd.h>`).
    public static func sync(_ fd: Descriptor) -> Bool { fsync(fd) == 0 }

    /// lseek(2) to the start.
    public static func rewind(_ fd: Descriptor) -> Bool { lseek(fd, 0, SEEK_SET) == 0 }

    /// A pipe, both ends close-on-exec: (read end, write end), or nil and errno. pipe(2), then
    /// FD_CLOEXEC on each end (`<unistd.h>`, `<fcntl.h>`, alike on both): Darwin has no pipe2, and
    /// Swift's Glibc module does not export Linux's (it needs _GNU_SOURCE). pushctl starts children
    /// from one thread, so no spawn can come between the two calls.
    public static func pipe() -> (read: Descriptor, write: Descriptor)? {
        var ends: [Int32] = [-1, -1]
        guard posixPipe(&ends) == 0 else { return nil }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        return (ends[0], ends[1])
    }

    /// Makes reads and writes on `fd` return EAGAIN rather than wait.
    public static func setNonBlocking(_ fd: Descriptor) -> Bool {
        let flags = fcntl(fd, F_GETFL)
        return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0
    }
}

// The calls above under names the enum's own methods (`read`, `write`, `close`, `pipe`) do not shadow.
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
private func posixClose(_ fd: Int32) { _ = close(fd) }
private func posixPipe(_ ends: UnsafeMutablePointer<Int32>) -> Int32 { pipe(ends) }
