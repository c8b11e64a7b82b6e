import Dispatch
public import PushCore
public import PushFiles
import PushSystem
public import PushWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How results are written: `text` lines for people, `json` one document, `jsonl` one object
/// per notification then a summary.
public enum ResultFormat: String, CaseIterable, Sendable {
    case text, json, jsonl
}

/// How text results are laid out for the screen they are shown on.
public struct TextResultStyle: Sendable {
    /// Marks (✓ ✗ !) in ANSI colour, for a terminal.
    public var colour = false
    /// Whole tokens and ids (a file, a pipe), or abbreviated so a line fits a terminal.
    public var wholeTokens = true
    /// The width to wrap explanations to (nil: not wrapped).
    public var width: Int?
    /// Accepted notifications get a line; off for a big batch on a terminal, where the progress bar
    /// counts them and only what was not accepted is listed.
    public var showAccepted = true
    /// Full apns-id and unique-id even on a terminal (`--verbose`).
    public var fullIDs = false
    /// The language of the explanations and notes (the program's user chose it).
    public var language: Language
    /// How settings are named in the notes (the program's spellings), here and in json's.
    public var naming: SettingNaming

    public init(
        colour: Bool = false, wholeTokens: Bool = true, width: Int? = nil, showAccepted: Bool = true, fullIDs: Bool = false, language: Language,
        naming: SettingNaming = .plain
    ) {
        self.language = language
        self.naming = naming
        self.colour = colour
        self.wholeTokens = wholeTokens
        self.width = width
        self.showAccepted = showAccepted
        self.fullIDs = fullIDs
    }
}

/// Renders results as they arrive to a sink: `text` lines for people, `jsonl` objects for
/// machines, or one `json` document streamed element by element (memory stays flat either way).
/// Buffered, but never holding a line back for long: a CI log or a pipe sees results as they come.
public final class ResultRenderer: ResultObserver {
    public let format: ResultFormat
    private let sink: any OutputSink
    private let quiet: Bool
    private let style: TextResultStyle
    /// json's explanations: English unless the user chose a language (machine output does not follow the locale).
    private let jsonLanguage: Language
    /// Results rendered and not yet written to the sink.
    private var buffer: [UInt8] = []
    private var lastFlush = DispatchTime.now()
    private var sinceClock = 0
    private var wroteFirstResult = false

    /// - quiet: text format prints nothing per result (json and jsonl are unaffected).
    public init(
        format: ResultFormat, sink: any OutputSink, quiet: Bool = false, style: TextResultStyle = TextResultStyle(language: .en),
        jsonLanguage: Language = .en
    ) {
        self.format = format
        self.sink = sink
        self.quiet = quiet
        self.style = style
        self.jsonLanguage = jsonLanguage
        if format == .json { write("{\n  \"results\": [", newline: false) }
    }

    public func record(_ result: PushResult) { render(result) }

    /// A result in the stream, in the shape of every result: a device's, a broadcast's channel's
    /// (`channelId`), a channel call's.
    public func render(_ result: PushResult) {
        if format == .text {
            if !quiet && (style.showAccepted || result.outcome != .accepted) { write(line(for: result)) }
        } else {
            appendResult { result.appendJSONLine(to: &$0, language: jsonLanguage, naming: style.naming) }
        }
    }

    /// One result object into the stream: an element of the json document, or a jsonl line.
    private func appendResult(_ object: (inout [UInt8]) -> Void) {
        if format == .json { buffer.append(contentsOf: (wroteFirstResult ? ",\n    " : "\n    ").utf8) }
        object(&buffer)
        if format == .jsonl { buffer.append(0x0A) }
        wroteFirstResult = true
        flushIfDue()
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

    /// One result as a line for people (wrapped to the width, if one is set), in the style's language.
    public func line(for r: PushResult) -> String {
        guard let device = r.token else { return Self.line(for: r, style: style) }
        let language = style.language
        let naming = style.naming
        let token = style.wholeTokens ? device.hex : device.short
        var text: String
        switch r.outcome {
        case .accepted:
            text = paint("✓", "32") + " \(token)  \(r.status ?? 200)"
            if let id = r.apnsID { text += "  apns-id " + shown(id) }
            if let unique = r.apnsUniqueID, style.wholeTokens || style.fullIDs { text += "  unique-id \(unique)" }
            if let environment = r.environment { text += "  (\(environment.rawValue))" }
            if r.resumed { text += "  " + Words("(from the journal)", es: "(del diario)").text(language, naming: naming) }
            if let note = r.note { text += "  " + note.text(language, naming: naming) }
        case .rejected, .temporaryFailure, .stopped:
            let status = r.status.map(String.init) ?? "---"
            let reason = r.reason.map { " \($0.apnsName)" } ?? ""
            let mark = r.outcome == .rejected ? paint("✗", "31") : paint("!", "33")
            text =
                "\(mark) \(token)  \(status)\(reason): " + r.explanationWords.text(language, naming: naming)
                + (r.note.map { "; " + $0.text(language, naming: naming) } ?? "")
            if r.resumed { text += " " + Words("(from the journal)", es: "(del diario)").text(language, naming: naming) }
        case .unreachable:
            text = paint("✗", "31") + " \(token)  ---: " + r.explanationWords.text(language, naming: naming)
        }
        return TextLayout.wrapped(text, width: style.width, hangingIndent: 2)
    }

    /// The result of a request that is not for a device (a broadcast to a channel, a channel call)
    /// as a line for people: what it was for, the status, and the ids APNs answered with, or the
    /// reason and its explanation.
    public static func line(for r: PushResult, style: TextResultStyle) -> String {
        let mark = r.outcome == .accepted ? paint("✓", "32", style) : r.outcome == .rejected ? paint("✗", "31", style) : paint("!", "33", style)
        var text = "\(mark) \(r.subject.label.text(style.language, naming: style.naming))  \(r.status.map(String.init) ?? "---")"
        if r.outcome == .accepted {
            if let id = r.channelAnswer?.requestID { text += "  apns-request-id \(id)" }
            if let id = r.apnsUniqueID { text += "  unique-id \(id)" }
        } else {
            text += (r.reason.map { " \($0.apnsName)" } ?? "") + ": " + r.explanationWords.text(style.language, naming: style.naming)
        }
        return TextLayout.wrapped(text, width: style.width, hangingIndent: 2)
    }

    /// An id whole, or its first 8 characters on a terminal (the whole one is in --verbose and json).
    private func shown(_ id: String) -> String {
        style.wholeTokens || style.fullIDs || id.count <= 9 ? id : String(id.prefix(8)) + "…"
    }

    private func paint(_ text: String, _ code: String) -> String { Self.paint(text, code, style) }

    /// A mark in its ANSI colour, when the style has colour.
    private static func paint(_ text: String, _ code: String, _ style: TextResultStyle) -> String {
        style.colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
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

    /// Whether every wait of the run writes what was recorded (`--follow`: a result is read as soon
    /// as it is final, not when a buffer fills).
    public var flushesAtPause = false

    public func pause() { if flushesAtPause { flush() } }

    public func flush() {
        guard !buffer.isEmpty else { return }
        sink.write(buffer)
        buffer.removeAll(keepingCapacity: true)
        lastFlush = DispatchTime.now()
    }
}

/// `--unregistered-out`: the tokens APNs called dead (410), one per line, as they come.
public final class DeadTokenFile: ResultObserver {
    public let path: String
    private let fd: Int32
    /// Why the file stopped taking lines (errno), if it did.
    public private(set) var failure: Int32?

    public init(path: String) throws(InputError) {
        self.path = path
        fd = try OutputFiles.open(path, .deadTokenFile, .truncating)
    }

    deinit { Descriptors.close(fd) }

    public func record(_ result: PushResult) {
        guard result.status == 410, failure == nil, let token = result.token else { return }
        let line = Array((token.hex + "\n").utf8)
        if FileOutput.writeAll(fd, line) < line.count { failure = Errno.current }
    }

    /// An error when not every dead token could be written.
    public var error: InputError? {
        failure.map {
            InputError(OutputProblem.cannotWriteDeadTokenFile(path: path, SystemError.code($0)), kind: .cannotCreateOutput)
        }
    }
}
