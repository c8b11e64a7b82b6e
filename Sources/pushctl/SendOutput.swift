import Foundation
import PushCore

/// `--dry-run`: the request as it would go out, and the same request as a curl command.
struct DryRun {
    let request: SendRequest
    let showSecrets: Bool

    var lines: [String] {
        var notifications = request.notifications.makeIterator()
        guard let first = notifications.next() else { return [] }
        let shape = first.request.shape
        let url = request.baseURL + first.request.path
        let auth = showSecrets ? ((try? request.authorization.authorization()) ?? nil) ?? "" : "bearer [JWT redacted; --show-secrets shows it]"
        let body = shape.body?.bytes ?? []
        var out = ["\(shape.method.rawValue) \(url)", "authorization: \(auth)"]
        out += shape.headerLines
        out += ["", String(decoding: body, as: UTF8.self), ""]
        let count = request.notifications.count
        if count > 1 {
            out.append(request.template == nil
                ? "… and \(count - 1) more notification(s) from the requests file"
                : "… and the same to \(count - 1) more device token(s)")
        }
        let prefix = APNsHeader.pushType + ": "
        let typeLine: String = shape.headerLines.first { $0.hasPrefix(prefix) } ?? ""
        let limit: Int = PushType(rawValue: String(typeLine.dropFirst(prefix.count)))?.payloadLimit ?? 4096
        out.append("\(body.count) bytes of payload (limit \(limit)); nothing was sent (--dry-run).")
        out.append("")
        out.append("The same request with curl:")
        let jwt = showSecrets ? auth : "bearer $JWT"
        var curl = ["curl --http2 --request \(shape.method.rawValue)"]
        if let ca = request.caCertificate { curl.append("--cacert \(shellQuote(ca))") }
        curl.append("--header \"authorization: \(jwt)\"")
        curl += shape.headerLines.map { "--header \(shellQuote($0))" }
        curl.append("--header 'content-type:'")  // curl would otherwise add application/x-www-form-urlencoded
        if let file = request.payloadFile {
            curl.append("--data-binary @\(shellQuote(file))")
        } else {
            curl.append("--data-binary \(shellQuote(String(decoding: body, as: UTF8.self)))")
        }
        curl.append(shellQuote(url))
        out.append(curl.joined(separator: " \\\n  "))
        if !showSecrets { out.append("(first: JWT=$(pushctl jwt --key-file … --team-id …))") }
        return out
    }

    func shellQuote(_ s: String) -> String {
        s.allSatisfy({ $0.isLetter || $0.isNumber || "-_./:@=".contains($0) }) ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Prints results as they arrive: `text` lines for people, `jsonl` objects for machines,
/// or one `json` document streamed element by element (memory stays flat either way).
/// Also writes `--unregistered-out` and draws the progress bar.
final class ResultPrinter {
    let format: ResultFormat
    let quiet: Bool
    private var buffer: [UInt8] = []
    private var lastFlush = DispatchTime.now()
    private var wroteFirstResult = false
    private let unregistered: Int32?
    private let unregisteredPath: String?
    /// Why `--unregistered-out` stopped taking lines (errno), if it did.
    private var unregisteredFailure: Int32?
    private let progress: ProgressBar?

    init(format: ResultFormat, quiet: Bool, unregisteredPath: String?, total: Int) throws(InputError) {
        self.format = format
        self.quiet = quiet
        self.unregisteredPath = unregisteredPath
        if let path = unregisteredPath {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else {
                throw InputError("cannot write --unregistered-out '\(path)': \(String(cString: strerror(errno)))", status: .cantCreate)
            }
            unregistered = fd
        } else {
            unregistered = nil
        }
        // A bar only where a person watches stderr and it does not fight the text lines.
        let showBar = total > 1 && !quiet && isatty(STDERR_FILENO) == 1 && (format != .text || isatty(STDOUT_FILENO) == 0)
        progress = showBar ? ProgressBar(total: total) : nil
        if format == .json { write("{\n  \"results\": [", newline: false) }
    }

    deinit { if let unregistered { close(unregistered) } }

    func print(_ result: PushResult) {
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
        if let unregistered, result.status == 410, unregisteredFailure == nil {
            let line = Array((result.token.hex + "\n").utf8)
            if Console.writeAll(unregistered, line) < line.count { unregisteredFailure = errno }
        }
        progress?.add(result)
    }

    /// Ends the output; an error when `--unregistered-out` could not take every dead token.
    func finish(_ summary: BatchSummary) -> InputError? {
        defer { finishOutput(summary) }
        if let failure = unregisteredFailure, let path = unregisteredPath {
            return InputError("could not write --unregistered-out '\(path)': \(String(cString: strerror(failure))); the dead tokens are in the results above",
                              status: .cantCreate)
        }
        return nil
    }

    private func finishOutput(_ summary: BatchSummary) {
        switch format {
        case .json: write("\n  ],\n  \"summary\": " + summary.json.compact + "\n}")
        case .jsonl: write(summary.json.compact)
        case .text: break
        }
        flush()
        progress?.clear()
        if format == .text && !quiet { Console.err(summary.line) }
    }

    func line(for r: PushResult) -> String {
        let token = r.token.short
        switch r.outcome {
        case .accepted:
            var line = Console.paint("✓", .green) + " \(token)  200"
            if let id = r.apnsID { line += "  apns-id \(id)" }
            if let unique = r.apnsUniqueID { line += "  unique-id \(unique)" }
            return line
        case .rejected, .temporaryFailure:
            let status = r.status.map(String.init) ?? "---"
            let reason = r.reason.map { " \($0)" } ?? ""
            let mark = r.outcome == .rejected ? Console.paint("✗", .red) : Console.paint("!", .yellow)
            return "\(mark) \(token)  \(status)\(reason): \(r.explanation)"
        case .unreachable:
            return Console.paint("✗", .red) + " \(token)  ---: \(r.explanation)"
        }
    }

    /// Buffered, but never holding a line back for long: a CI log or a pipe sees results as they come.
    private func write(_ text: String, newline: Bool = true) {
        buffer.append(contentsOf: text.utf8)
        if newline { buffer.append(0x0A) }
        flushIfDue()
    }

    private func flushIfDue() {
        if buffer.count > 32 * 1024 || DispatchTime.now().uptimeNanoseconds - lastFlush.uptimeNanoseconds > 200_000_000 { flush() }
    }

    private func flush() {
        guard !buffer.isEmpty else { return }
        Console.writeOut(buffer)
        buffer.removeAll(keepingCapacity: true)
        lastFlush = DispatchTime.now()
    }
}

/// `  12,345/100,000  (12%)  4,321/s  3 not accepted` on stderr, redrawn at most 10 times a second.
final class ProgressBar {
    let total: Int
    private var done = 0
    private var notAccepted = 0
    private let started = DispatchTime.now().uptimeNanoseconds
    private var lastDraw: UInt64 = 0

    init(total: Int) { self.total = total }

    func add(_ result: PushResult) {
        done += 1
        if result.outcome != .accepted { notAccepted += 1 }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastDraw > 100_000_000 || done == total else { return }
        lastDraw = now
        let seconds = Double(now - started) / 1e9
        let rate = seconds > 0 ? Int(Double(done) / seconds) : 0
        let width = 24
        let filled = total > 0 ? width * done / total : 0
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        var line = "\r\(bar) \(done)/\(total) (\(total > 0 ? 100 * done / total : 0)%)  \(rate)/s"
        if notAccepted > 0 { line += "  \(notAccepted) not accepted" }
        Console.writeErr(Array((line + "\u{1B}[K").utf8))
    }

    func clear() { Console.writeErr(Array("\r\u{1B}[K".utf8)) }
}
