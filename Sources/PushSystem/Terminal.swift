#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

public enum Terminal {
    /// isatty(3).
    public static func isTerminal(_ fd: Descriptor) -> Bool { isatty(fd) == 1 }

    /// The terminal's size on `fd` (TIOCGWINSZ), or nil when it is not a terminal or will not say.
    /// ioctl(2)'s request is an `unsigned long` on both; Glibc's module gives TIOCGWINSZ as an Int32
    /// (hence `UInt(…)`), Darwin's `<sys/ttycom.h>` as the UInt Swift imports it as.
    public static func size(of fd: Descriptor) -> (columns: Int, rows: Int)? {
        guard isatty(fd) == 1 else { return nil }
        var size = winsize()
        #if canImport(Darwin)
            guard ioctl(fd, TIOCGWINSZ, &size) == 0 else { return nil }
        #else
            guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
        #endif
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Sets the size of the terminal on `fd` (TIOCSWINSZ): a pseudo-terminal's, in tests. The
    /// request's type differs as TIOCGWINSZ's does (Darwin's `<sys/ttycom.h>` gives a UInt).
    public static func setSize(of fd: Descriptor, columns: Int, rows: Int) -> Bool {
        var size = winsize(ws_row: UInt16(clamping: rows), ws_col: UInt16(clamping: columns), ws_xpixel: 0, ws_ypixel: 0)
        #if canImport(Darwin)
            return ioctl(fd, TIOCSWINSZ, &size) == 0
        #else
            return ioctl(fd, UInt(TIOCSWINSZ), &size) == 0
        #endif
    }

    /// Asks on the controlling terminal (`/dev/tty`) for a secret with `prompt`, echo off: the line
    /// typed (at most `limit` bytes, without its end), or nil with no terminal. termios (`<termios.h>`)
    /// is the same on both; only `tcflag_t`'s width differs (UInt32 on Linux, UInt on Darwin).
    public static func readSecret(prompt: String, limit: Int = 1024) -> [UInt8]? {
        let fd = Descriptors.openTerminal()
        guard fd >= 0 else { return nil }
        defer { Descriptors.close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        // Echo off before the prompt shows: a secret typed the moment it appears is never echoed.
        _ = tcsetattr(fd, TCSANOW, &quiet)  // not TCSAFLUSH: a secret typed ahead stays
        let shown = Array(prompt.utf8)
        _ = shown.withUnsafeBytes { Descriptors.writeAll(fd, $0) }
        defer {
            _ = tcsetattr(fd, TCSANOW, &saved)
            var newline: UInt8 = 0x0A
            _ = Descriptors.write(fd, from: &newline, count: 1)
        }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < limit, Descriptors.read(fd, into: &byte, count: 1) == 1, byte != 0x0A, byte != 0x0D { bytes.append(byte) }
        return bytes
    }

    /// A new pseudo-terminal `columns` wide: its primary end (to read what a program draws) and its
    /// replica (the program's terminal), or nil. posix_openpt, grantpt, unlockpt and ptsname
    /// (`<stdlib.h>`) are declared on Darwin; Swift's Glibc module hides them (they need
    /// _XOPEN_SOURCE), so on Linux they are looked up by name.
    public static func openPseudoTerminal(columns: Int = 80, rows: Int = 24) -> (primary: Descriptor, replica: Descriptor)? {
        #if canImport(Darwin)
            let primary = posix_openpt(O_RDWR | O_NOCTTY)
            guard primary >= 0 else { return nil }
            guard grantpt(primary) == 0, unlockpt(primary) == 0, let name = ptsname(primary) else {
                Descriptors.close(primary)
                return nil
            }
        #else
            typealias FD = @convention(c) (Int32) -> Int32
            typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
            let library = dlopen(nil, RTLD_NOW)
            guard let openpt = dlsym(library, "posix_openpt"), let grant = dlsym(library, "grantpt"),
                let unlock = dlsym(library, "unlockpt"), let named = dlsym(library, "ptsname")
            else { return nil }
            let primary = unsafeBitCast(openpt, to: FD.self)(O_RDWR | O_NOCTTY)
            guard primary >= 0 else { return nil }
            guard unsafeBitCast(grant, to: FD.self)(primary) == 0, unsafeBitCast(unlock, to: FD.self)(primary) == 0,
                let name = unsafeBitCast(named, to: Name.self)(primary)
            else {
                Descriptors.close(primary)
                return nil
            }
        #endif
        let replica = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard replica >= 0 else {
            Descriptors.close(primary)
            return nil
        }
        _ = fcntl(primary, F_SETFD, FD_CLOEXEC)
        _ = setSize(of: replica, columns: columns, rows: rows)
        return (primary, replica)
    }
}
