public import Foundation
import PushSystem

/// A pseudo-terminal's two ends, for tests of what a program does on a terminal: give `replica`
/// to the child as its stdin/stdout/stderr, read what it drew from `primary`.
public enum PseudoTerminal {
    /// Opens one `columns` wide.
    public static func open(columns: Int = 80, rows: Int = 24) -> (primary: Int32, replica: Int32)? {
        Terminal.openPseudoTerminal(columns: columns, rows: rows)
    }

    /// Starts a program on a new terminal `columns` wide: its stdout (and, as asked, its stdin
    /// and stderr) is the terminal; `output` takes stdout instead when given. The caller reads
    /// what it drew from `primary`, and closes it.
    public static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String],
        directory: URL? = nil, columns: Int = 80, rows: Int = 24, input: Bool = false,
        errors: Bool = true, output: Pipe? = nil
    ) throws -> (process: SpawnedProcess, primary: Int32) {
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
            Descriptors.close(primary)
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
            if Polling.wait(for: primary, .readable, milliseconds: 200) == nil {
                waited += 0.2
                continue
            }
            let n = buffer.withUnsafeMutableBytes { Descriptors.read(primary, into: $0.baseAddress!, count: $0.count) }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }
}
