public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pseudo-terminal's two ends, for tests of what a program does on a terminal: give `replica`
/// to the child as its stdin/stdout/stderr, read what it drew from `primary`.
public enum PseudoTerminal {
    /// Opens one `columns` wide (TIOCSWINSZ). Glibc's module hides posix_openpt and its kin
    /// (they need _XOPEN_SOURCE), so they are looked up at run time.
    public static func open(columns: Int = 80, rows: Int = 24) -> (primary: Int32, replica: Int32)? {
        typealias FD = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        let library = dlopen(nil, RTLD_NOW)
        guard let openpt = dlsym(library, "posix_openpt"), let grant = dlsym(library, "grantpt"),
              let unlock = dlsym(library, "unlockpt"), let name = dlsym(library, "ptsname")
        else { return nil }
        let primary = unsafeBitCast(openpt, to: FD.self)(O_RDWR | O_NOCTTY)
        guard primary >= 0 else { return nil }
        guard unsafeBitCast(grant, to: FD.self)(primary) == 0, unsafeBitCast(unlock, to: FD.self)(primary) == 0,
              let path = unsafeBitCast(name, to: Name.self)(primary)
        else {
            close(primary)
            return nil
        }
        let replica = openFile(path, O_RDWR | O_NOCTTY)
        guard replica >= 0 else {
            close(primary)
            return nil
        }
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(replica, UInt(TIOCSWINSZ), &size)
        return (primary, replica)
    }

    /// Starts a program on a new terminal `columns` wide: its stdout (and, as asked, its stdin
    /// and stderr) is the terminal; `output` takes stdout instead when given. The caller reads
    /// what it drew from `primary`, and closes it.
    public static func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
                             directory: URL? = nil, columns: Int = 80, rows: Int = 24, input: Bool = false,
                             errors: Bool = true, output: Pipe? = nil) throws -> (process: SpawnedProcess, primary: Int32) {
        guard let (primary, replica) = open(columns: columns, rows: rows) else { throw SpawnError("no pseudo-terminal") }
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = directory
        let terminal = FileHandle(fileDescriptor: replica, closeOnDealloc: true)
        process.standardInput = input ? terminal : FileHandle.nullDevice
        process.standardOutput = output ?? terminal
        process.standardError = errors ? terminal : FileHandle.nullDevice
        do { try process.run() } catch {
            close(primary)
            throw error
        }
        try terminal.close()
        return (process, primary)
    }

    /// Everything the child drew until it closed the terminal (read returns 0 or EIO), at most
    /// `limit` bytes and `seconds` long.
    public static func readAll(_ primary: Int32, limit: Int = 16 << 20, seconds: Double = 120) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var waited = 0.0
        while out.count < limit && waited < seconds {
            var ready = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 200) == 0 {
                waited += 0.2
                continue
            }
            let n = buffer.withUnsafeMutableBytes { read(primary, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }
}

/// open(2), under a name the enum's own `open` does not shadow.
private func openFile(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 { open(path, flags) }
