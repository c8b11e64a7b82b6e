import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import PushCore

/// How results are written: `text` lines for people, `json` one document, `jsonl` one object
/// per notification then a summary.
public enum ResultFormat: String, CaseIterable, Sendable {
    case text, json, jsonl
}

/// Renders results as they arrive to a sink: `text` lines for people, `jsonl` objects for
/// machines, or one `json` document streamed element by element (memory stays flat either way).
/// Buffered, but never holding a line back for long: a CI log or a pipe sees results as they come.
public final class ResultRenderer {
    public let format: ResultFormat
    private let sink: any OutputSink
    private let quiet: Bool
    private let colour: Bool
    /// Tokens printed whole (a file or a pipe), or abbreviated (a terminal).
    private let wholeTokens: Bool
    private var buffer: [UInt8] = []
    private var lastFlush = DispatchTime.now()
    private var sinceClock = 0
    private var wroteFirstResult = false

    /// - quiet: text format prints nothing per result (json and jsonl are unaffected).
    /// - colour: marks (✓ ✗ !) in ANSI colour, for a terminal.
    public init(format: ResultFormat, sink: any OutputSink, quiet: Bool = false, colour: Bool = false, wholeTokens: Bool = true) {
        self.format = format
        self.sink = sink
        self.quiet = quiet
        self.colour = colour
        self.wholeTokens = wholeTokens
        if format == .json { write("{\n  \"results\": [", newline: false) }
    }

    public func render(_ result: PushResult) {
        switch format {
        case .json:
            buffer.append(contentsOf: (wroteFirstResult ? ",\n    " : "\n    ").utf8)
            result.appendJSONLine(to: &buffer)
            wroteFirstResult = true
            flushIfDue()
        case .jsonl:
            result.appendJSONLine(to: &buffer)
            buffer.append(0x0A)
            flushIfDue()
        case .text: if !quiet { write(line(for: result)) }
        }
    }

    /// Ends the document (json), writes the summary object (jsonl) with the run's exit status,
    /// and flushes.
    public func finish(_ summary: BatchSummary, exitStatus: Int32) {
        switch format {
        case .json: write("\n  ],\n  \"summary\": " + summary.json(exitStatus: exitStatus).compact + "\n}")
        case .jsonl: write(summary.json(exitStatus: exitStatus).compact)
        case .text: break
        }
        flush()
    }

    /// One result as a line for people.
    public func line(for r: PushResult) -> String {
        let token = wholeTokens ? r.token.hex : r.token.short
        switch r.outcome {
        case .accepted:
            var line = paint("✓", "32") + " \(token)  \(r.status ?? 200)"
            if let id = r.apnsID { line += "  apns-id \(id)" }
            if let unique = r.apnsUniqueID { line += "  unique-id \(unique)" }
            if let environment = r.environment { line += "  (\(environment))" }
            if let note = r.note { line += "  \(note)" }
            return line
        case .rejected, .temporaryFailure:
            let status = r.status.map(String.init) ?? "---"
            let reason = r.reason.map { " \($0)" } ?? ""
            let mark = r.outcome == .rejected ? paint("✗", "31") : paint("!", "33")
            return "\(mark) \(token)  \(status)\(reason): \(r.explanation)" + (r.note.map { "; " + $0 } ?? "")
        case .unreachable:
            return paint("✗", "31") + " \(token)  ---: \(r.explanation)"
        }
    }

    private func paint(_ text: String, _ code: String) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    private func write(_ text: String, newline: Bool = true) {
        buffer.append(contentsOf: text.utf8)
        if newline { buffer.append(0x0A) }
        flushIfDue()
    }

    private func flushIfDue() {
        // The clock is read once every 32 writes (a clock read per result shows in a profile).
        sinceClock &+= 1
        if buffer.count > 32 * 1024 || (sinceClock & 31 == 0 && DispatchTime.now().uptimeNanoseconds - lastFlush.uptimeNanoseconds > 200_000_000) { flush() }
    }

    public func flush() {
        guard !buffer.isEmpty else { return }
        sink.write(buffer)
        buffer.removeAll(keepingCapacity: true)
        lastFlush = DispatchTime.now()
    }
}

/// `--unregistered-out`: the tokens APNs called dead (410), one per line, as they come.
public final class DeadTokenFile {
    public let path: String
    private let fd: Int32
    /// Why the file stopped taking lines (errno), if it did.
    public private(set) var failure: Int32?

    public init(path: String) throws(InputError) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            throw InputError("cannot write the dead-token file '\(path)': \(String(cString: strerror(errno)))", kind: .cannotCreateOutput)
        }
    }

    deinit { close(fd) }

    public func record(_ result: PushResult) {
        guard result.status == 410, failure == nil else { return }
        let line = Array((result.token.hex + "\n").utf8)
        if FileOutput.writeAll(fd, line) < line.count { failure = errno }
    }

    /// An error when not every dead token could be written.
    public var error: InputError? {
        failure.map { InputError("could not write the dead-token file '\(path)': \(String(cString: strerror($0))); the dead tokens are in the results", kind: .cannotCreateOutput) }
    }
}
