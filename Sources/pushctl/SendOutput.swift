import Foundation
import PushCore

/// `--dry-run`: the request as it would go out, and the same request as a curl command.
struct DryRun {
    let request: SendRequest
    let showSecrets: Bool

    var lines: [String] {
        let template = request.template
        let first = request.tokens[0]
        let url = request.baseURL + PushTemplate.path(for: first)
        let auth = showSecrets ? ((try? request.authorization.authorization()) ?? nil) ?? "" : "bearer [JWT redacted; --show-secrets shows it]"
        var out = ["POST \(url)", "authorization: \(auth)"]
        out += template.headers.map { "\($0.0): \($0.1)" }
        out += ["", String(decoding: template.payload.bytes, as: UTF8.self), ""]
        if request.tokens.count > 1 { out.append("… and the same to \(request.tokens.count - 1) more device token(s)") }
        out.append("\(template.payload.bytes.count) bytes of payload (limit \(template.pushType.payloadLimit)); nothing was sent (--dry-run).")
        out.append("")
        out.append("The same request with curl:")
        let jwt = showSecrets ? auth : "bearer $JWT"
        var curl = ["curl --http2 --request POST"]
        if let ca = request.caCertificate { curl.append("--cacert \(shellQuote(ca))") }
        curl.append("--header \"authorization: \(jwt)\"")
        curl += template.headers.map { "--header \(shellQuote("\($0.0): \($0.1)"))" }
        curl.append("--header 'content-type:'")  // curl would otherwise add application/x-www-form-urlencoded
        if let file = request.payloadFile {
            curl.append("--data-binary @\(shellQuote(file))")
        } else {
            curl.append("--data-binary \(shellQuote(String(decoding: template.payload.bytes, as: UTF8.self)))")
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
/// or one `json` document at the end.
final class ResultPrinter {
    let format: ResultFormat
    let quiet: Bool
    private var collected: [JSONValue] = []
    private var buffer: [UInt8] = []
    private var lastFlush = DispatchTime.now()

    init(format: ResultFormat, quiet: Bool) {
        self.format = format
        self.quiet = quiet
    }

    func print(_ result: PushResult) {
        switch format {
        case .json: collected.append(result.json)
        case .jsonl: write(result.json.compact)
        case .text: if !quiet { write(line(for: result)) }
        }
    }

    func finish(_ summary: BatchSummary) {
        switch format {
        case .json: write(JSONValue.object([("results", .array(collected)), ("summary", summary.json)]).pretty)
        case .jsonl: write(summary.json.compact)
        case .text: break
        }
        flush()
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
    private func write(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count > 32 * 1024 || DispatchTime.now().uptimeNanoseconds - lastFlush.uptimeNanoseconds > 200_000_000 { flush() }
    }

    private func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
        lastFlush = DispatchTime.now()
    }
}
