public import PushCore
import PushCrypto
import PushFiles
import PushSystem
import PushWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A file of lines that is checked whole before anything is sent, then streamed, in constant
/// memory however long it is.
///
/// A regular file is read twice through one descriptor kept open, so a file renamed over
/// meanwhile changes nothing; a file rewritten in place is caught by the count (the sender
/// verifies it). Anything else — standard input, a FIFO, `<(…)`, `/dev/stdin` — can be read only
/// once, so it is spooled during the check into an unlinked private temporary file, unless the
/// caller keeps what it needs from the check itself (`readAgain: false`).
public final class CheckedLineFile {
    public let displayName: String
    public let lineLimit: Int
    /// What the streaming pass reads: the file itself, or the spool.
    private let fd: Int32
    private let readAgain: Bool

    /// Opens `path` (`-` for standard input) and calls `check` with every line; a thrown error
    /// is prefixed with the file and line. A file saved as UTF-16 or with a byte order mark is
    /// refused at its first line, by name, whatever it holds.
    public init(
        _ path: String, what: FileRole, lineLimit: Int, readAgain: Bool = true,
        check: (ArraySlice<UInt8>) throws(InputError) -> Void
    ) throws(InputError) {
        displayName = path
        self.lineLimit = lineLimit
        self.readAgain = readAgain
        let source = path == "-" ? Descriptors.standardInput : try InputFiles.open(path, what: what)
        let regular = FileSystem.status(of: source)?.kind == .regular
        let spooled = readAgain && !regular
        let fd =
            spooled
            ? try TemporaryFile.anonymous(
                purpose: Words(
                    "spool \(what.words) from \(Words.path(path))", es: "copiar \(what.words) desde \(Words.path(path))"))
            : source
        self.fd = fd
        defer { if source != fd && source != Descriptors.standardInput { Descriptors.close(source) } }
        var reader = LineReader(fd: source, offset: regular ? 0 : nil, copyTo: spooled ? fd : nil, lineLimit: lineLimit)
        do throws(InputError) {
            while let line = try reader.nextLine(name: displayName) {
                do throws(InputError) {
                    // Saved as UTF-16, or with a byte order mark: said of the file, not of its first entry.
                    if reader.lineNumber == 1, let mark = PastedForm.encodingMark(line) { throw InputError(mark) }
                    try check(line)
                } catch {
                    throw error.at(.line(displayName, reader.lineNumber))
                }
            }
        } catch {
            if fd != Descriptors.standardInput { Descriptors.close(fd) }
            throw error
        }
    }

    deinit { if fd != Descriptors.standardInput { Descriptors.close(fd) } }

    /// A reader from the first line (each reader reads on its own, with pread).
    func lines() -> LineReader {
        precondition(readAgain, "a file checked with readAgain: false is not read again")
        return LineReader(fd: fd, offset: 0, copyTo: nil, lineLimit: lineLimit)
    }

    /// Whether `path` names this file (for outputs that must not overwrite it).
    public func isSameFile(as path: String) -> Bool {
        guard let mine = FileSystem.status(of: fd), let other = FileSystem.status(path) else { return false }
        return mine.isSameFile(as: other)
    }
}

/// Device tokens from a file, one per line, blank lines and `# comments` skipped. Each token is
/// sent once: repeats are counted and skipped.
public final class DeviceTokenFile: Sequence {
    public let file: CheckedLineFile
    /// Distinct tokens in the file (known after the check).
    public let count: Int
    /// Lines that repeat a token seen before.
    public let duplicates: Int

    /// Lines longer than this are refused: no device token comes near it.
    static let lineLimit = 4096

    public var displayName: String { file.displayName }

    /// The tokens outside `shard` are checked like the others, then neither counted nor sent.
    public init(_ path: String, shard: Shard? = nil) throws(InputError) {
        var count = 0
        var duplicates = 0
        var total = 0
        var seen = DeviceTokenSet()
        file = try CheckedLineFile(path, what: .tokensFile, lineLimit: DeviceTokenFile.lineLimit) { line throws(InputError) in
            try line.withUnsafeBufferPointer { line throws(InputError) in
                guard let text = DeviceTokenFile.tokenText(line) else { return }
                let fresh = try seen.insert(utf8: text)
                total += 1
                if let shard, !shard.contains(try DeviceToken(parsingUTF8: text)) { return }
                if fresh { count += 1 } else { duplicates += 1 }
            }
        }
        guard total > 0 else {
            throw InputError(
                Words(
                    "\(Words.path(file.displayName)) has no device tokens (blank lines and # comments are skipped)",
                    es: "\(Words.path(file.displayName)) no tiene tokens del dispositivo (se saltan las líneas en blanco y los comentarios #)"))
        }
        self.count = count
        self.duplicates = duplicates
        self.shard = shard
    }

    public let shard: Shard?

    /// The token part of a line (before any `#`), or nil for a blank or comment line.
    static func tokenText(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        guard let start = line.baseAddress else { return nil }
        let end = Bytes.find(UInt8(ascii: "#"), in: start, count: line.count) ?? line.count
        let text = UnsafeBufferPointer(rebasing: line[..<end])
        return text.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x0B && $0 != 0x0C }) ? text : nil
    }

    public func makeIterator() -> Iterator { Iterator(reader: file.lines(), skipRepeats: duplicates > 0, shard: shard) }

    /// Streams the checked file from its start; repeats are skipped as in the check (and not
    /// looked for at all when the check found none).
    public final class Iterator: IteratorProtocol {
        private var reader: LineReader
        private var seen: DeviceTokenSet?
        private let shard: Shard?

        init(reader: LineReader, skipRepeats: Bool, shard: Shard?) {
            self.reader = reader
            self.shard = shard
            seen = skipRepeats ? DeviceTokenSet() : nil
        }

        public func next() -> DeviceToken? {
            while let line = try? reader.nextLine(name: "") {
                let token = line.withUnsafeBufferPointer { line in
                    DeviceTokenFile.tokenText(line).flatMap { try? DeviceToken(parsingUTF8: $0) }
                }
                guard let token else { continue }
                if let shard, !shard.contains(token) { continue }
                if seen?.insert(token) ?? true { return token }
            }
            return nil
        }
    }
}

/// Notifications from a JSON Lines file, one per line (`RequestLine`), blank lines skipped:
/// checked whole before anything is sent, each line parsed once. The first lines are kept as
/// parsed, within a bound; the rest go, checked and built, to an unlinked temporary file as
/// `SpooledNotification` records and are read back from it when sent: memory stays flat for
/// any length, and what is sent is exactly what was checked (the file may change meanwhile).
public final class RequestsFile: Sequence {
    public let file: CheckedLineFile
    public let count: Int
    /// The first lines, parsed by the check; then the spool, if the file had more.
    private let kept: [DeviceNotification]
    private let spool: Int32?
    static let keptLimit = 20_000
    public let shard: Shard?
    static let keptBytesLimit = 8 << 20
    /// SHA-256 of every line, each followed by a newline, as the check read them: what a journal
    /// tells the run by. Taken on the way, since the file is not read again (it may be a pipe);
    /// nil when the file was read without it (`digesting: false`, for a run with no journal: the
    /// digest was about 4 % of a line's cost).
    public let linesDigest: String?

    public var displayName: String { file.displayName }

    public init(_ path: String, defaults: PushSpec, shard: Shard? = nil, digesting: Bool = true) throws(InputError) {
        var kept: [DeviceNotification] = []
        var keptBytes = 0
        var spool: SpoolWriter?
        var total = 0
        var reader = RequestLine.Reader(defaults: defaults)
        let digest = digesting ? SHA256Stream() : nil
        let shown = OutsideText.display(path, limit: 200)
        let purpose =
            path == "-"
            ? Words("keep the checked lines of standard input", es: "guardar las líneas comprobadas de la entrada estándar")
            : Words("keep the checked lines of \(shown)", es: "guardar las líneas comprobadas de \(shown)")
        do throws(InputError) {
            // Each line is kept (or spooled) as checked and built: the file itself is not read again.
            file = try CheckedLineFile(path, what: .requestsFile, lineLimit: RequestLine.lengthLimit, readAgain: false) { line throws(InputError) in
                digest?.update(line)
                digest?.update(RequestsFile.newline)
                guard !RequestsFile.isBlank(line) else { return }
                total += 1
                // Every line is checked; only this shard's (all, unsharded) are counted and sent.
                let notification = try reader.parse(Array(line))
                if let shard, !shard.contains(notification.token) { return }
                if spool == nil && kept.count < RequestsFile.keptLimit && keptBytes < RequestsFile.keptBytesLimit {
                    kept.append(notification)
                    keptBytes += line.count + 256
                } else {
                    if spool == nil { spool = try SpoolWriter(purpose: purpose) }
                    try spool?.append(notification)
                }
            }
            try spool?.flush()
        } catch {
            spool?.discard()
            throw error
        }
        guard total > 0 else {
            throw InputError(
                Words(
                    "\(file.displayName) has no notifications (one JSON object per line)",
                    es: "\(file.displayName) no tiene notificaciones (un objeto JSON por línea)"))
        }
        self.kept = kept
        self.linesDigest = digest?.finishHex()
        self.spool = spool?.fd
        self.count = kept.count + (spool?.records ?? 0)
        self.shard = shard
    }

    deinit { if let spool { Descriptors.close(spool) } }

    private static let newline: [UInt8] = [0x0A]

    static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.allSatisfy(\.isASCIIWhitespace)
    }

    public func makeIterator() -> Iterator {
        Iterator(kept: kept, reader: spool.map { LineReader(fd: $0, offset: 0, copyTo: nil, lineLimit: RequestLine.lengthLimit) })
    }

    public final class Iterator: IteratorProtocol {
        private var kept: IndexingIterator<[DeviceNotification]>
        private var reader: LineReader?
        private var records = SpooledNotification.Reader()

        init(kept: [DeviceNotification], reader: LineReader?) {
            self.kept = kept.makeIterator()
            self.reader = reader
        }

        /// A record that cannot be read (the temporary file failed) ends the stream; the
        /// sender's count check then reports it.
        public func next() -> DeviceNotification? {
            if let notification = kept.next() { return notification }
            guard let line = try? reader?.nextLine(name: "") else { return nil }
            return records.read(line)
        }
    }
}

/// Checked notifications written to an unlinked temporary file in large writes.
struct SpoolWriter {
    let fd: Int32
    private(set) var records = 0
    private var buffer: [UInt8] = []
    private let purpose: Words

    init(purpose: Words) throws(InputError) {
        fd = try TemporaryFile.anonymous(purpose: purpose)
        self.purpose = purpose
        buffer.reserveCapacity(SpoolWriter.chunk + 8192)
    }

    static let chunk = 64 * 1024

    mutating func append(_ notification: DeviceNotification) throws(InputError) {
        SpooledNotification.append(notification, to: &buffer)
        records += 1
        if buffer.count >= SpoolWriter.chunk { try flush() }
    }

    mutating func flush() throws(InputError) {
        guard !buffer.isEmpty else { return }
        guard FileOutput.writeAll(fd, buffer) == buffer.count else {
            let reason = SystemError.reason(Errno.current)
            throw InputError(
                Words(
                    "cannot \(purpose): writing the temporary file failed (\(reason))",
                    es: "no se puede \(purpose): falló la escritura del archivo temporal (\(reason))"),
                hint: Words("free some space, or set TMPDIR to a folder with room", es: "libera espacio o apunta TMPDIR a una carpeta con sitio"),
                kind: .cannotCreateOutput)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    func discard() { Descriptors.close(fd) }
}

/// Which device tokens a run has seen, in little memory: 16 bytes a token (a 64-bit keyed hash of
/// its bytes, and its first 8 bytes: two distinct tokens share a key only if they share those
/// bytes and a SipHash with this process's random seed, which is out of reach).
struct DeviceTokenSet {
    private struct Key: Hashable {
        let a: UInt64, b: UInt64
        /// `a` is a keyed hash already: the set's own hash need not mix `b` in too.
        func hash(into hasher: inout Hasher) { hasher.combine(a) }
    }
    private var keys = Set<Key>()

    /// Adds a token; false if it was there already.
    mutating func insert(_ token: DeviceToken) -> Bool {
        var hex = token.hex
        return hex.withUTF8 { insert(hex: $0, digits: $0.count) }
    }

    /// Checks a line's bytes as `DeviceToken(parsingUTF8:)` would, and adds the token.
    mutating func insert(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(InputError) -> Bool {
        // The common case: the line's digits are the token's, with no String made.
        if let digits = DeviceToken.cleanHexDigits(bytes) { return insert(hex: bytes, digits: digits) }
        return insert(try DeviceToken(parsingUTF8: bytes))
    }

    /// Adds the token whose `digits` hex digits are in `hex` (in either case, with the spaces or
    /// `<>` a clean line may have between them): keyed by the bytes they spell.
    private mutating func insert(hex: UnsafeBufferPointer<UInt8>, digits: Int) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: digits / 2) { token in
            // 0–9 are 0x30–0x39; A–F and a–f end in 1–6, with bit 6 set.
            func nibble(_ byte: UInt8) -> UInt8 { (byte & 0x0F) &+ (byte >> 6) &* 9 }
            if digits == hex.count {
                for index in 0..<digits / 2 { token[index] = nibble(hex[2 * index]) << 4 | nibble(hex[2 * index + 1]) }
            } else {
                var index = 0
                for byte in hex where byte.isASCIIHexDigit {
                    if index % 2 == 0 { token[index / 2] = nibble(byte) << 4 } else { token[index / 2] |= nibble(byte) }
                    index += 1
                }
            }
            return keys.insert(Self.key(UnsafeRawBufferPointer(token))).inserted
        }
    }

    private static func key(_ token: UnsafeRawBufferPointer) -> Key {
        var hasher = Hasher()
        hasher.combine(bytes: token)
        var head: UInt64 = 0
        for (index, byte) in token.prefix(8).enumerated() { head |= UInt64(byte) << (8 * UInt64(index)) }
        return Key(a: UInt64(bitPattern: Int64(hasher.finalize())), b: head)
    }
}

/// Splits what a file descriptor yields into lines (LF, CRLF or a lone CR), scanning each byte
/// once and holding at most one line and one chunk.
struct LineReader {
    let fd: Int32
    let copyTo: Int32?
    /// Where to read with pread (a regular file read again from its start); nil reads on.
    private var offset: Int64?
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next line end resumes.
    private var scanned = 0
    private var finished = false
    /// A CR ended the last line: an LF right after it belongs to it.
    private var afterCR = false
    private(set) var lineNumber = 0

    let lineLimit: Int
    /// A line over `lineLimit` comes back empty with `lastLineWasOverlong` set, its bytes passed
    /// over, instead of ending the read with an error (a reader that reports what it skips).
    var skipsOverlongLines = false
    private(set) var lastLineWasOverlong = false
    /// Passing over the rest of an overlong line.
    private var discarding = false

    init(fd: Int32, offset: Int64?, copyTo: Int32?, lineLimit: Int) {
        self.fd = fd
        self.offset = offset
        self.copyTo = copyTo
        self.lineLimit = lineLimit
    }

    /// The next line's bytes, without its line end; valid until the next call. Throws for a
    /// line over `lineLimit` bytes (unless `skipsOverlongLines`), a read error, or a spool that
    /// cannot be written.
    mutating func nextLine(name: String) throws(InputError) -> ArraySlice<UInt8>? {
        lastLineWasOverlong = false
        while true {
            if afterCR, start < buffer.count {
                if buffer[start] == 0x0A { start += 1 }
                afterCR = false
                scanned = max(scanned, start)
            }
            if let end = lineEnd() {
                let line = buffer[start..<end]
                afterCR = buffer[end] == 0x0D
                start = end + 1
                scanned = start
                lineNumber += 1
                guard line.count <= lineLimit && !discarding else { return try overlong(name, at: end) }
                return line
            }
            scanned = buffer.count
            if scanned - start > lineLimit {
                guard skipsOverlongLines else { throw tooLong(name) }
                // What was read of it is dropped; its end is still to come.
                discarding = true
                start = buffer.count
                scanned = start
            }
            if finished {
                guard start < buffer.count || discarding else { return nil }
                let line = buffer[start...]
                start = buffer.count
                scanned = start
                lineNumber += 1
                guard !discarding else { return try overlong(name, at: start) }
                return line
            }
            buffer.removeFirst(start)
            scanned -= start
            start = 0
            try fill(name: name)
        }
    }

    /// An overlong line just ended (at `end`): the error, or an empty line marked as overlong.
    private mutating func overlong(_ name: String, at end: Int) throws(InputError) -> ArraySlice<UInt8> {
        guard skipsOverlongLines else {
            lineNumber -= 1
            throw tooLong(name)
        }
        discarding = false
        lastLineWasOverlong = true
        return buffer[end..<end]
    }

    /// Where the next LF or CR is, from `scanned` on: memchr's word-wide search for the LF, then
    /// for a CR before it (rare, so that search mostly runs over the line and finds none).
    private func lineEnd() -> Int? {
        buffer.withUnsafeBytes { bytes in
            guard scanned < bytes.count, let base = bytes.baseAddress else { return nil }
            let from = base + scanned
            let lf = Bytes.find(0x0A, in: from, count: bytes.count - scanned).map { scanned + $0 }
            let before = (lf ?? bytes.count) - scanned
            let cr = Bytes.find(0x0D, in: from, count: before).map { scanned + $0 }
            return cr ?? lf
        }
    }

    private func tooLong(_ name: String) -> InputError {
        InputError(
            ProblemPlace.line(name, lineNumber + 1).words + Words(": longer than \(lineLimit) bytes", es: ": más larga de \(lineLimit) bytes"),
            hint: Words(
                "check that this is the right file (one entry per line, LF or CRLF line ends)",
                es: "comprueba que es el archivo correcto (una entrada por línea, con finales LF o CRLF)"))
    }

    private mutating func fill(name: String) throws(InputError) {
        let chunkSize = 64 * 1024
        // A stop signal ends the wait for a pipe (the command then says it was stopped).
        guard offset != nil || StopSignals.waitReadable(fd) else {
            throw InputError(Words("stopped while reading ", es: "parado mientras se leía ") + Words.path(name), kind: .temporaryFailure)
        }
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunkSize))
        var n: Int
        repeat {
            n = buffer.withUnsafeMutableBytes { raw in
                let target = raw.baseAddress! + old
                if let offset { return Descriptors.read(fd, into: target, count: chunkSize, at: offset) }
                return Descriptors.read(fd, into: target, count: chunkSize)
            }
        } while n < 0 && Errno.current == Errno.interrupted && !StopSignals.requested  // a stop ends the wait
        guard n >= 0 else {
            let why = SystemError.reason(Errno.current)
            buffer.removeLast(chunkSize)
            throw InputError(Words("cannot read ", es: "no se puede leer ") + Words.path(name) + Words(verbatim: ": ") + why, kind: .missingInput)
        }
        buffer.removeLast(chunkSize - n)
        if n == 0 {
            finished = true
            return
        }
        if let current = offset { offset = current + Int64(n) }
        if let copyTo {
            let written = FileOutput.writeAll(copyTo, Array(buffer[old...]))
            guard written == n else {
                let reason = SystemError.reason(Errno.current)
                throw InputError(
                    Words("cannot spool ", es: "no se puede volcar ") + Words.path(name)
                        + Words(" to a temporary file: \(reason)", es: " a un archivo temporal: \(reason)"),
                    hint: Words("check the space in $TMPDIR", es: "comprueba el espacio libre en $TMPDIR"), kind: .cannotCreateOutput)
            }
        }
    }
}

/// Private temporary files: made with mkstemp (O_EXCL, mode 0600, a name nobody can predict),
/// in $TMPDIR or /tmp.
enum TemporaryFile {
    /// A file that exists only as the descriptor returned: unlinked at once, gone when closed.
    static func anonymous(purpose: Words) throws(InputError) -> Int32 {
        let (fd, path) = try make(prefix: "pushctl-", purpose: purpose)
        FileSystem.remove(path)
        return fd
    }

    /// A new file and its path, for the caller to rename or unlink.
    static func make(prefix: String, in directory: String? = nil, purpose: Words) throws(InputError) -> (Int32, String) {
        var dir = directory ?? ProcessEnvironment.value("TMPDIR").nonEmpty ?? "/tmp"
        while dir.count > 1 && dir.hasSuffix("/") { dir.removeLast() }
        guard let made = FileSystem.makeTemporaryFile(pathPrefix: dir + "/" + prefix) else {
            let reason = SystemError.reason(Errno.current)
            let shown = OutsideText.display(dir, limit: 200)
            throw InputError(
                Words(
                    "cannot \(purpose): no temporary file in \(shown) (\(reason))",
                    es: "no se puede \(purpose): no hay archivo temporal en \(shown) (\(reason))"),
                hint: Words("set TMPDIR to a writable directory", es: "apunta TMPDIR a una carpeta en la que se pueda escribir"), kind: .cannotCreateOutput)
        }
        return made
    }
}
