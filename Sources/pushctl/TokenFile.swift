import Foundation
import PushCore

/// Device tokens from a file, one per line, blank lines and `# comments` skipped, read in
/// constant memory however long the file is.
///
/// A file is read twice: a first pass checks every line (so a bad token anywhere means
/// nothing is sent, and the error names its line), a second pass feeds the sender.
/// Standard input is spooled to a private temporary file during the first pass.
final class TokenFile: Sequence {
    let path: String
    let displayName: String
    /// Tokens in the file (known after the check).
    private(set) var count = 0
    private var spooled: String?

    init(_ path: String) throws(InputError) {
        self.displayName = path == "-" ? "standard input" : path
        if path == "-" {
            let spool = FileManager.default.temporaryDirectory.appendingPathComponent("pushctl-tokens-\(getpid()).txt").path
            let fd = open(spool, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard fd >= 0 else { throw InputError("cannot spool standard input to \(spool): \(String(cString: strerror(errno)))", status: .noInput) }
            self.path = spool
            spooled = spool
            do {
                count = try TokenFile.check(fd: STDIN_FILENO, name: displayName, copyTo: fd)
                close(fd)
            } catch {
                close(fd)
                unlink(spool)
                throw error
            }
        } else {
            self.path = path
            let fd = try InputFiles.open(path, what: "tokens file")
            defer { close(fd) }
            count = try TokenFile.check(fd: fd, name: displayName, copyTo: nil)
        }
        guard count > 0 else { throw InputError("\(displayName) has no device tokens (blank lines and # comments are skipped)") }
    }

    deinit { if let spooled { unlink(spooled) } }

    private static func check(fd: Int32, name: String, copyTo out: Int32?) throws(InputError) -> Int {
        var count = 0
        var failure: InputError?
        var reader = LineReader(fd: fd, copyTo: out)
        reader.forEachLine { number, line in
            guard let text = TokenFile.tokenText(line) else { return true }
            do {
                try text.withUnsafeBufferPointer { bytes throws(InputError) in try DeviceToken.check(utf8: bytes) }
                count += 1
                return true
            } catch let error as InputError {
                failure = InputError("\(name), line \(number): \(error.message)", hint: error.hint)
                return false
            } catch {
                return false
            }
        }
        if let failure { throw failure }
        return count
    }

    /// The token part of a line (before any `#`), or nil for a blank or comment line.
    static func tokenText(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let text = line.firstIndex(of: UInt8(ascii: "#")).map { line[..<$0] } ?? line
        return text.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x0B && $0 != 0x0C }) ? text : nil
    }

    func makeIterator() -> Iterator { Iterator(path: path) }

    /// Streams the checked file; reads 64 KiB at a time.
    final class Iterator: IteratorProtocol {
        private let fd: Int32
        private var reader: LineReader
        init(path: String) {
            fd = open(path, O_RDONLY)
            reader = LineReader(fd: fd, copyTo: nil)
        }
        deinit { if fd >= 0 { close(fd) } }

        func next() -> DeviceToken? {
            while let line = reader.nextLine() {
                if let text = TokenFile.tokenText(line), let token = try? DeviceToken(parsingUTF8: text) { return token }
            }
            return nil
        }
    }
}

/// Splits what a file descriptor yields into lines, without holding more than one chunk.
struct LineReader {
    let fd: Int32
    let copyTo: Int32?
    private var buffer: [UInt8] = []
    private var start = 0
    private var finished = false
    private(set) var lineNumber = 0

    init(fd: Int32, copyTo: Int32?) {
        self.fd = fd
        self.copyTo = copyTo
    }

    /// The next line's bytes, without its newline; valid until the next call.
    mutating func nextLine() -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = buffer[start..<newline]
                start = newline + 1
                lineNumber += 1
                return line
            }
            if finished {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                start = buffer.count
                lineNumber += 1
                return line
            }
            buffer.removeFirst(start)
            start = 0
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 {
                finished = true
            } else {
                if let copyTo { _ = chunk.withUnsafeBytes { write(copyTo, $0.baseAddress, n) } }
                buffer.append(contentsOf: chunk[..<n])
            }
        }
    }

    /// Calls `body` with each line and its 1-based number until it returns false.
    mutating func forEachLine(_ body: (Int, ArraySlice<UInt8>) -> Bool) {
        while let line = nextLine() {
            if !body(lineNumber, line) { return }
        }
    }
}
