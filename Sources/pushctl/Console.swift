import ArgumentParser
import Foundation
import PushCore

/// Where pushctl talks to people: stdout for results, stderr for diagnostics.
/// Colour only when the stream is a terminal and NO_COLOR is unset.
enum Console {
    static let environment = ProcessInfo.processInfo.environment

    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func err(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func warn(_ message: String) {
        err(paint("warning:", .yellow, on: STDERR_FILENO) + " " + message)
    }

    static func error(_ message: String) {
        err(paint("error:", .red, on: STDERR_FILENO) + " " + message)
    }

    enum Colour: String { case red = "31", green = "32", yellow = "33", bold = "1", dim = "2" }

    static func useColour(on fd: Int32) -> Bool {
        isatty(fd) == 1 && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    static func paint(_ text: String, _ colour: Colour, on fd: Int32 = STDOUT_FILENO) -> String {
        useColour(on: fd) ? "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m" : text
    }
}

/// Runs a command body; an `InputError` becomes one line on stderr and its exit status.
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as InputError {
        Console.error(error.description)
        throw ExitCode(error.status.rawValue)
    }
}
