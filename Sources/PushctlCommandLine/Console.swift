import ArgumentParser
public import PushCore
import PushEngine
public import PushFiles
public import PushSystem
public import PushWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What both executables (pushctl and pushctl-mock) share: how they talk to people.
///
/// Where pushctl talks to people: stdout for results, stderr for diagnostics.
/// Colour only when the stream is a terminal and NO_COLOR is unset.
///
/// Every write goes through `write(2)` and is checked: a closed pipe (`| head -1`) or a full
/// disk (`> /dev/full`) never kills the process (SIGPIPE is ignored, and FileHandle's writes
/// would trap). What could not be written is remembered, so a run can finish its work and
/// then say what was lost.
public enum Console {
    /// This process's environment variables, each read when asked.
    public static let environment = EnvironmentVariables(
        value: ProcessEnvironment.value,
        names: { prefix in ProcessEnvironment.names { EnvironmentVariables.hasPrefix($0, prefix) } })

    /// Standard output failed (the error), and how many bytes did not reach it.
    nonisolated(unsafe) private(set) static var stdoutFailure: (errno: Int32, lostBytes: Int)?

    /// Called once at start: a write to a closed pipe returns EPIPE instead of killing us.
    public static func ignoreBrokenPipes() { Signals.ignoreBrokenPipes() }

    public static func out(_ line: String) { writeOut(Array((line + "\n").utf8)) }

    public static func err(_ line: String) { writeErr(Array((line + "\n").utf8)) }

    /// Writes all of `bytes` to stdout, or records why not (and stops trying after a failure).
    public static func writeOut(_ bytes: [UInt8]) {
        if let failure = stdoutFailure {
            stdoutFailure = (failure.errno, failure.lostBytes + bytes.count)
            return
        }
        let written = FileOutput.writeAll(Descriptors.standardOutput, bytes)
        if written < bytes.count { stdoutFailure = (Errno.current, bytes.count - written) }
    }

    /// Best effort: if stderr is gone there is nowhere left to complain.
    public static func writeErr(_ bytes: [UInt8]) { _ = FileOutput.writeAll(Descriptors.standardError, bytes) }

    /// After a run: says on stderr that results were lost, and gives exit 74, or nil when stdout
    /// took everything. `note` is what the run adds (send: that the notifications still went out).
    public static func reportLostOutput(note lostOutputNote: Words? = nil) -> ExitStatus? {
        guard let failure = stdoutFailure else { return nil }
        let why =
            failure.errno == Errno.brokenPipe
            ? Words("it was closed (a pipe whose reader stopped early?)", es: "se cerró (¿una tubería cuyo lector terminó antes?)")
            : SystemError.reason(failure.errno)
        let note = lostOutputNote.map { Words(verbatim: " (") + $0 + Words(verbatim: ")") } ?? Words(verbatim: "")
        error(
            Words(
                "could not write the results to standard output: \(why); \(failure.lostBytes) bytes of output were lost",
                es: "no se pudieron escribir los resultados en la salida estándar: \(why); se perdieron \(failure.lostBytes) bytes de la salida") + note)
        return .ioError
    }

    public static func warn(_ message: String) { warn(Words(verbatim: message)) }

    public static func error(_ message: String) { error(Words(verbatim: message)) }

    /// `warning: …` on stderr, wrapped to the terminal, continuation lines under the message.
    public static func warn(_ message: Words) { warn(message, in: LanguageSetting.language) }

    /// A warning in `language` (the one said while the language is being chosen is English).
    public static func warn(_ message: Words, in language: Language) { prefixed(Words("warning:", es: "aviso:"), .yellow, message, language) }

    /// `error: …` on stderr, wrapped to the terminal.
    public static func error(_ message: Words) { error(message, in: LanguageSetting.language) }

    /// An error in `language` (an unknown language is refused in English).
    public static func error(_ message: Words, in language: Language) { prefixed(Words("error:", es: "error:"), .red, message, language) }

    /// `hint: …` on stderr, wrapped to the terminal.
    public static func hint(_ message: Words) { prefixed(Words("hint:", es: "sugerencia:"), .dim, message, LanguageSetting.language) }

    /// Prose for people on stderr, in the language the user chose, wrapped to the terminal.
    public static func say(_ message: Words, hangingIndent: Int = 0) {
        err(TextLayout.wrapped(message.description, width: width(of: Descriptors.standardError), hangingIndent: hangingIndent))
    }

    /// Prose for people on stdout, wrapped to the terminal (never for results or JSON).
    public static func print(_ message: Words, hangingIndent: Int = 0) {
        out(TextLayout.wrapped(message.description, width: width(of: Descriptors.standardOutput), hangingIndent: hangingIndent))
    }

    /// `label message` on stderr as warnings and errors are said: the label coloured, the message
    /// wrapped under it (a finding of `send --app`: "will fail on the phone: …").
    public static func labelled(_ label: Words, _ colour: Colour, _ message: Words) { prefixed(label, colour, message, LanguageSetting.language) }

    private static func prefixed(_ label: Words, _ colour: Colour, _ message: Words, _ language: Language) {
        let label = label.text(language, naming: FlagNames.naming)
        let text = label + " " + message.text(language, naming: FlagNames.naming)
        let lines = TextLayout.wrap(text, width: width(of: Descriptors.standardError) ?? Int.max / 2, hangingIndent: min(TextLayout.columns(label) + 1, 12))
        // Colour the label alone, after wrapping (escapes take no columns, but are simpler kept out of the layout).
        var first = lines.first ?? text
        if first.hasPrefix(label) { first = paint(label, colour, on: Descriptors.standardError) + first.dropFirst(label.count) }
        err(([first] + lines.dropFirst()).joined(separator: "\n"))
    }

    /// The columns text may use on `fd`: a terminal's width (TIOCGWINSZ, else COLUMNS); not a
    /// terminal, COLUMNS when set, else nil (not wrapped: a log or a pipe keeps whole lines).
    public static func width(of fd: Int32) -> Int? {
        let columns = environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        guard Terminal.isTerminal(fd) else { return columns }
        if let size = Terminal.size(of: fd), size.columns > 0 { return size.columns }
        return columns ?? 80
    }

    /// A line for people as the rows that fit the terminal on `fd`: prose (no indent) hangs its
    /// continuation rows by 2, an indented line (JSON, hex, a command) keeps its indent.
    public static func wrapped(_ line: String, fitting fd: Int32) -> [String] {
        let indent = line.prefix { $0 == " " }.count
        return TextLayout.wrap(line, width: width(of: fd) ?? Int.max / 2, hangingIndent: indent == 0 ? 2 : 0)
    }

    /// The rows of the terminal on `fd` (TIOCGWINSZ, else LINES, else 24).
    public static func rows(of fd: Int32) -> Int {
        if let size = Terminal.size(of: fd), size.rows > 0 { return size.rows }
        return environment["LINES"].flatMap { Int($0) }.flatMap { $0 > 4 ? $0 : nil } ?? 24
    }

    public enum Colour: String {
        case red = "31"
        case green = "32"
        case yellow = "33"
        case bold = "1"
        case dim = "2"
    }

    public static func useColour(on fd: Int32) -> Bool {
        Terminal.isTerminal(fd) && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    public static func paint(_ text: String, _ colour: Colour, on fd: Int32 = Descriptors.standardOutput) -> String {
        useColour(on: fd) ? "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m" : text
    }
}

/// Runs a command body; an `InputError` becomes one line on stderr and its exit status.
/// Output that could not be written turns a clean exit into 74, said with `lostOutputNote`.
public func reportingErrors(lostOutputNote: Words? = nil, _ body: () throws -> Void) throws {
    Console.ignoreBrokenPipes()
    do {
        try body()
    } catch let error as InputError {
        Console.error(error.description)
        throw ExitCode(ExitStatus(error.kind).rawValue)
    } catch let exit as ExitCode {
        if let lost = Console.reportLostOutput(note: lostOutputNote) { throw ExitCode(lost.rawValue) }
        throw exit
    }
    if let lost = Console.reportLostOutput(note: lostOutputNote) { throw ExitCode(lost.rawValue) }
}

/// Standard output as the renderers' sink: through Console, so a closed pipe is recorded, not fatal.
public final class StandardOutput: OutputSink, Sendable {
    public static let shared = StandardOutput()
    public func write(_ bytes: [UInt8]) { Console.writeOut(bytes) }
}

/// The version both executables report.
public enum PushctlVersion {
    public static let current = "0.3.0"
}

/// pushctl's exit statuses (sysexits), as the README, `pushctl --help` and the man page list them. Only the command line knows them.
public enum ExitStatus: Int32, Sendable {
    case ok = 0
    /// APNs rejected at least one notification; also: `jwt verify` found the token unusable.
    case rejected = 1
    case usage = 64
    /// Bad input data (payload, token, header value, key contents): nothing was sent.
    case dataError = 65
    /// An input file is missing or unreadable: nothing was sent.
    case noInput = 66
    /// Could not reach APNs (DNS, connect, TLS), or start pushctl-mock.
    case unavailable = 69
    /// An output file could not be created.
    case cantCreate = 73
    /// Results could not be written (standard output closed, or the disk full); whatever was
    /// to be sent was sent.
    case ioError = 74
    /// Temporary failure: retries exhausted on 429/5xx/timeouts, or the run's time budget spent.
    case tempFailure = 75

    public init(_ kind: InputError.Kind) {
        switch kind {
        case .usage: self = .usage
        case .badData: self = .dataError
        case .missingInput: self = .noInput
        case .cannotCreateOutput: self = .cantCreate
        case .unavailable: self = .unavailable
        case .temporaryFailure: self = .tempFailure
        }
    }

    public init(_ outcome: BatchOutcome) {
        switch outcome {
        case .accepted: self = .ok
        case .rejected: self = .rejected
        case .temporaryFailure: self = .tempFailure
        case .unreachable: self = .unavailable
        }
    }
}
