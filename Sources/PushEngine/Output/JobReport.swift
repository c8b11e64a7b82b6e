public import PushCore
import PushFiles
import PushSystem
public import PushWords

/// What a run tells a CI job's log: a Markdown summary for GitHub's step summary, and one
/// annotation per reason (not per token), in the language it is given.
public struct JobReport {
    public let summary: BatchSummary
    /// Where `--unregistered-out` wrote the dead tokens, if it did.
    public var deadTokensFile: String?
    /// The command that resumes a stopped run (nil when the run was not journaled).
    public var resumeCommand: String?
    /// What the run was, in a few words ("pushctl send").
    public var title = "pushctl send"
    /// The heading's line (default: the summary's own, with its time).
    public var headline: Words?
    /// More to say, a paragraph each, after the tables (a report's missing shards, its retry list).
    public var notes: [Words] = []
    /// The language the summary and the annotations are said in.
    public var language: Language = .en
    /// How the settings are named in it (the program's spellings: pushctl's flags).
    public var naming = SettingNaming.plain

    public init(summary: BatchSummary) { self.summary = summary }

    /// GitHub's step summary: a table of outcomes, the rejections by reason with what each means,
    /// where the dead tokens went, and what a stop left (with the resume command).
    public var markdown: String {
        let s = summary
        var lines: [String] = []
        lines.append("### \(title): " + (headline ?? s.line).text(language, naming: naming).replacingMarkdown())
        lines.append("")
        lines.append(Words("| outcome | notifications |", es: "| resultado | notificaciones |").text(language, naming: naming))
        lines.append("|---|---:|")
        let rows: [(Words, Int)] = [
            (Words("accepted", es: "aceptadas"), s.accepted), (Words("rejected", es: "rechazadas"), s.rejected),
            (Words("failed temporarily", es: "fallo temporal"), s.temporaryFailures),
            (Words("APNs not reached", es: "sin llegar a APNs"), s.unreachable),
            (Words("not sent (stopped)", es: "sin enviar (detenido)"), s.notSent),
            (Words("in doubt (stopped)", es: "en duda (detenido)"), s.inDoubt),
        ]
        for (label, count) in rows where count > 0 || label.en == "accepted" { lines.append("| \(label.text(language, naming: naming)) | \(count) |") }
        if !s.rejectedByReason.isEmpty {
            lines.append("")
            lines.append("#### " + Words("Rejected, by reason", es: "Rechazadas, por motivo").text(language, naming: naming))
            lines.append("")
            lines.append(Words("| reason | notifications | what it means |", es: "| motivo | notificaciones | qué significa |").text(language, naming: naming))
            lines.append("|---|---:|---|")
            let top = s.topReasons
            for (cause, count) in top.prefix(JobReport.reasonsListed) {
                lines.append("| `\(cause.name.replacingMarkdown())` | \(count) | \(cause.explanation.text(language, naming: naming).replacingMarkdown()) |")
            }
            if top.count > JobReport.reasonsListed {
                let rest = top.dropFirst(JobReport.reasonsListed)
                let more = rest.count
                let notifications = rest.map(\.count).reduce(0, +)
                lines.append(
                    Words("| \(more) more reasons | \(notifications) | |", es: "| \(more) motivos más | \(notifications) | |").text(language, naming: naming))
            }
        }
        if let deadTokensFile, s.rejected(for: .unregistered) + s.rejected(for: .expiredToken) > 0 {
            lines.append("")
            lines.append(
                Words(
                    "Dead tokens (410) were written to `\(deadTokensFile.replacingMarkdown())`: remove them from your list.",
                    es: "Los tokens muertos (410) se escribieron en `\(deadTokensFile.replacingMarkdown())`: bórralos de tu lista."
                ).text(language, naming: naming))
        }
        for note in notes {
            lines.append("")
            lines.append(note.text(language, naming: naming).replacingMarkdown())
        }
        if let stopped = s.stoppedBy {
            lines.append("")
            lines.append(
                Words(
                    "**Stopped by \(stopped.name)**: \(s.notSent) not sent, \(s.inDoubt) in doubt (sent, not answered: APNs may have them).",
                    es: "**Detenido por \(stopped.name)**: \(s.notSent) sin enviar, \(s.inDoubt) en duda (enviadas y sin respuesta: puede que APNs las tenga)."
                ).text(language, naming: naming))
            if let resumeCommand {
                lines.append("")
                lines.append(Words("Resume with:", es: "Para reanudar:").text(language, naming: naming))
                lines.append("")
                // A fence longer than any run of backticks inside, so nothing in the command can close it.
                let fence = String(repeating: "`", count: max(3, JobReport.longestBacktickRun(in: resumeCommand) + 1))
                lines.append("\(fence)sh\n\(OutsideText.display(resumeCommand, limit: 4096))\n\(fence)")
            }
        }
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// GitHub workflow commands: an error per rejection reason and for APNs not reached, a warning
    /// for temporary failures and for a stop.
    public var annotations: [String] {
        let s = summary
        var out: [String] = []
        // One annotation a reason, for the most frequent: GitHub shows a handful, and a file of made-up reasons must not flood the log.
        for (cause, count) in s.topReasons.prefix(JobReport.reasonsListed) {
            let name = cause.name
            let title =
                cause == .invalidLine
                ? Words(
                    "pushctl refused \(count) \(count == 1 ? "line" : "lines") of the input: \(name)",
                    es: "pushctl rechazó \(count) \(count == 1 ? "línea" : "líneas") de la entrada: \(name)")
                : Words(
                    "APNs rejected \(count) \(count == 1 ? "notification" : "notifications"): \(name)",
                    es: "APNs rechazó \(count) \(count == 1 ? "notificación" : "notificaciones"): \(name)")
            out.append(JobReport.command("error", title: title.text(language, naming: naming), message: cause.explanation.text(language, naming: naming)))
        }
        if s.unreachable > 0 {
            out.append(
                JobReport.command(
                    "error", title: Words("APNs could not be reached", es: "No se pudo conectar con APNs").text(language, naming: naming),
                    message: Words(
                        "\(s.unreachable) notifications were not delivered to APNs",
                        es: "\(s.unreachable) notificaciones no llegaron a APNs"
                    ).text(language, naming: naming)))
        }
        if s.temporaryFailures > 0 {
            out.append(
                JobReport.command(
                    "warning", title: Words("Temporary failures", es: "Fallos temporales").text(language, naming: naming),
                    message: Words(
                        "\(s.temporaryFailures) notifications failed for now (429, 5xx, timeouts) after their retries; send them again later",
                        es:
                            "\(s.temporaryFailures) notificaciones fallaron por ahora (429, 5xx, tiempos agotados) tras sus reintentos; vuelve a enviarlas más tarde"
                    ).text(language, naming: naming)))
        }
        if let stopped = s.stoppedBy {
            let resume = resumeCommand.map { Words("; resume with: \($0)", es: "; para reanudar: \($0)") } ?? Words(verbatim: "")
            out.append(
                JobReport.command(
                    "warning", title: Words("Stopped by \(stopped.name)", es: "Detenido por \(stopped.name)").text(language, naming: naming),
                    message: (Words("\(s.notSent) not sent, \(s.inDoubt) in doubt", es: "\(s.notSent) sin enviar, \(s.inDoubt) en duda") + resume).text(
                        language, naming: naming)))
        }
        return out
    }

    /// The most backticks in a row in `text`.
    static func longestBacktickRun(in text: String) -> Int {
        var longest = 0
        var run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    /// How many reasons the step summary's table and the annotations list (the most frequent).
    static let reasonsListed = 20

    /// `::kind title=…::message`, escaped as GitHub's workflow commands require.
    static func command(_ kind: String, title: String, message: String) -> String {
        func escapeData(_ s: String) -> String {
            s.replacing("%", with: "%25").replacing("\r", with: "%0D").replacing("\n", with: "%0A")
        }
        func escapeProperty(_ s: String) -> String { escapeData(s).replacing(":", with: "%3A").replacing(",", with: "%2C") }
        return "::\(kind) title=\(escapeProperty(title))::\(escapeData(message))"
    }

    /// Appends the Markdown summary to the file GitHub names (`GITHUB_STEP_SUMMARY`).
    public func appendMarkdown(to path: String) throws(InputError) {
        try OutputFiles.append(Array(markdown.utf8), to: path, .stepSummary)
    }
}

extension String {
    /// Text safe in a Markdown table cell or heading: no pipes, no line breaks, no HTML, no link or
    /// image (`[`, `]` and `!` escaped).
    func replacingMarkdown() -> String {
        OutsideText.display(self, limit: 400).replacing("|", with: "\\|").replacing("<", with: "&lt;").replacing("`", with: "'")
            .replacing("[", with: "\\[").replacing("]", with: "\\]").replacing("!", with: "\\!")
    }
}
