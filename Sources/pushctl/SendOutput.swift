import ArgumentParser
import Dispatch
import PushctlSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PushSystem
import PushCore
import PushWords
import PushFiles
import PushEngine

/// `--dry-run`: the request as it would go out, and the same request as a curl command.
struct DryRun {
    let request: SendSetup
    let showSecrets: Bool

    var lines: [String] {
        var notifications = request.notifications.makeIterator()
        guard let first = notifications.next() else { return [] }
        let shape = first.request.shape
        let url = request.plan.destination.baseURL + first.request.path
        let auth = showSecrets ? ((try? request.plan.authorization.authorization()) ?? nil) ?? "" : "bearer [JWT redacted; --show-secrets shows it]"
        let body = shape.body?.bytes ?? []
        var out = ["\(shape.method.rawValue) \(url)"]
        if let path = request.certificatePath {
            out.append("(no authorization header: the client certificate '\(OutsideText.display(path))' authenticates, \(request.certificate.map { OutsideText.display($0.certificate.subject, limit: 120) } ?? ""))")
        } else {
            out.append("authorization: \(auth)")
        }
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
        if let ca = request.plan.destination.caCertificate { curl.append("--cacert \(shellQuote(ca))") }
        if let proxy = request.proxy.url {
            curl.append("--proxy \(shellQuote(ProxyPolicy.masked(proxy)))")
            if request.proxy.credentials != nil { curl.append("--proxy-user \"$PROXY_USER\"") }
        }
        if let path = request.certificatePath {
            if path.lowercased().hasSuffix(".p12") || path.lowercased().hasSuffix(".pfx") {
                curl.append("--cert-type P12 --cert \(shellQuote(path)):\"$PUSHCTL_CERT_PASSWORD\"")
            } else {
                curl.append("--cert \(shellQuote(path))")
                if let key = request.certificateKeyPath { curl.append("--key \(shellQuote(key))") }
            }
        } else {
            curl.append("--header \"authorization: \(jwt)\"")
        }
        curl += shape.headerLines.map { "--header \(shellQuote($0))" }
        curl.append("--header 'content-type:'")  // curl would otherwise add application/x-www-form-urlencoded
        if let file = request.payloadFile {
            curl.append("--data-binary @\(shellQuote(file))")
        } else {
            curl.append("--data-binary \(shellQuote(String(decoding: body, as: UTF8.self)))")
        }
        curl.append(shellQuote(url))
        out.append(curl.joined(separator: " \\\n  "))
        if !showSecrets && request.certificatePath == nil { out.append("(first: JWT=$(pushctl jwt --key-file … --team-id …))") }
        return out
    }

    func shellQuote(_ s: String) -> String { DryRun.quoted(s) }

    /// `s` as one shell word: bare when it is plain, else in single quotes.
    static func quoted(_ s: String) -> String {
        s.allSatisfy({ $0.isLetter || $0.isNumber || "-_./:@=".contains($0) }) && !s.isEmpty
            ? s : "'" + s.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}

/// `████░░░ 12345/100000 (12%)  4321/s  3 not accepted  ETA 20 s` on stderr, redrawn at most 10
/// times a second, cut to the terminal's width.
final class ProgressBar: ResultObserver {
    let total: Int
    private var done = 0
    private var notAccepted = 0
    private let started = DispatchTime.now().uptimeNanoseconds
    private var lastDraw: UInt64 = 0
    /// Cleared for a result line: drawn again with the next result, whatever the time.
    private var cleared = false
    private let width = Console.width(of: Descriptors.standardError) ?? 80

    init(total: Int) { self.total = total }

    func record(_ result: PushResult) {
        done += 1
        if result.outcome != .accepted { notAccepted += 1 }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastDraw > 100_000_000 || done == total || cleared else { return }
        lastDraw = now
        cleared = false
        Console.writeErr(Array(("\r" + line(now: now) + "\u{1B}[K").utf8))
    }

    func line(now: UInt64) -> String {
        let seconds = Double(now - started) / 1e9
        let rate = seconds > 0 ? Int(Double(done) / seconds) : 0
        let barWidth = width >= 70 ? 24 : 10
        let filled = total > 0 ? barWidth * done / total : 0
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
        var parts = ["\(bar) \(done)/\(total) (\(total > 0 ? 100 * done / total : 0)%)", "\(rate)/s"]
        if notAccepted > 0 { parts.append(Words("\(notAccepted) not accepted", es: "\(notAccepted) no aceptadas").description) }
        if rate > 0 && done < total {
            let left = (total - done) / rate
            parts.append(Words("ETA ", es: "quedan ").description + (left < 120 ? "\(left) s" : "\(left / 60) min"))
        }
        // What fits the terminal, most important first (a line wider than it would wrap and repeat).
        var line = parts[0]
        for part in parts.dropFirst() where TextLayout.columns(line) + 2 + TextLayout.columns(part) < width { line += "  " + part }
        return line
    }

    func clear() {
        cleared = true
        Console.writeErr(Array("\r\u{1B}[K".utf8))
    }
}

/// Where a send's results go, set up before anything is sent: the renderer on stdout, the
/// progress bar, the dead-token file; and, at the end, the summary on stderr, GitHub's step
/// summary and annotations, the hints, and the exit status.
final class SendOutput {
    let command: SendCommand
    let renderer: ResultRenderer
    let dead: DeadTokenFile?
    let progress: ProgressBar?
    /// Everything that observes the results, in order.
    let observers: [any ResultObserver]

    /// Accepted notifications get a line of their own on a terminal only up to this many (more:
    /// the bar counts them, and only what was not accepted is listed), unless --verbose.
    static let acceptedLinesOnTerminal = 20

    init(_ c: SendCommand, total: Int) throws(InputError) {
        command = c
        dead = try c.unregisteredOut.map { path throws(InputError) in try DeadTokenFile(path: path) }
        // Before anything is sent, as for the dead-token file: a metrics file that could not be written is said now.
        if let path = c.metricsFile { try ReplacedFile.checkFolder(of: path, what: RunMetrics.fileName) }
        let toTerminal = Terminal.isTerminal(Descriptors.standardOutput)
        let bigBatch = toTerminal && c.output == .text && total > SendOutput.acceptedLinesOnTerminal && !c.verbose
        renderer = ResultRenderer(format: c.output, sink: StandardOutput.shared, quiet: c.quiet,
                                  style: TextResultStyle(colour: Console.useColour(on: Descriptors.standardOutput), wholeTokens: !toTerminal,
                                                         width: Console.width(of: Descriptors.standardOutput), showAccepted: !bigBatch, fullIDs: c.verbose),
                                  jsonLanguage: Language.chosenExplicitly ? Language.current : .en)
        // --follow: each result is written as soon as it is final (the run then waits for more input).
        renderer.flushesAtPause = c.follow
        // A bar where a person watches stderr: beside json/jsonl or a redirected stdout, and for a
        // big batch on the same terminal (its lines then list only what was not accepted).
        let barFits = c.output != .text || !toTerminal || bigBatch
        progress = total > 1 && !c.quiet && Terminal.isTerminal(Descriptors.standardError) && barFits ? ProgressBar(total: total) : nil
        let shown: any ResultObserver = progress != nil && toTerminal && c.output == .text
            ? LinesBesideBar(renderer: renderer, bar: progress!) : renderer
        observers = [shown] + (dead.map { [$0] } ?? []) + (progress.map { [$0] } ?? [])
    }

    /// After the run: the outputs finished, what the run adds up to said, and the exit status thrown.
    func finish(_ summary: BatchSummary, run: SendRun, request: SendSetup, env: EnvironmentVariables) throws {
        let c = command
        let status: Int32 = summary.stoppedBy.map(SignalStop.exitStatus) ?? ExitStatus(summary.outcome).rawValue
        renderer.finish(summary, exitStatus: status)
        progress?.clear()
        let resume = ResumeCommand(arguments: CommandLine.arguments, journaled: c.journal != nil)
        if !c.quiet {
            Console.say(summary.line)
            if summary.stoppedBy != nil {
                if let command = resume.text {
                    Console.hint(Words("\(summary.notSent + summary.inDoubt) not answered; resume with: \(command)",
                                       es: "\(summary.notSent + summary.inDoubt) sin respuesta; para reanudar: \(command)"))
                    if summary.inDoubt > 0 {
                        Console.hint(Words("the \(summary.inDoubt) in doubt are sent again (APNs may already have them: a device could get one twice); add --skip-in-doubt to leave them out",
                                           es: "las \(summary.inDoubt) en duda se vuelven a enviar (puede que APNs ya las tenga: un dispositivo podría recibir alguna dos veces); añade --skip-in-doubt para dejarlas fuera"))
                    }
                } else {
                    Console.hint(Words("run with --journal PATH next time, and a stopped run can be resumed without sending anything twice",
                                       es: "la próxima vez usa --journal RUTA y podrás reanudar un envío detenido sin enviar nada dos veces"))
                }
            }
            if summary.movedToOtherEnvironment > 0, let environment = request.plan.destination.environment {
                let other = environment == .sandbox ? "production" : "sandbox"
                let n = summary.movedToOtherEnvironment
                Console.hint(Words("\(n) \(n == 1 ? "token belongs" : "tokens belong") to \(other): send \(n == 1 ? "it" : "them") with --\(other)",
                                   es: "\(n) \(n == 1 ? "token es" : "tokens son") de \(other): \(n == 1 ? "envíalo" : "envíalos") con --\(other)"))
            }
            if let cause = summary.unreachableCause {
                Console.hint(cause.hint(endpoint: c.settings.value(.endpoint)))
            }
        }
        reportToCI(summary, resume: resume, env: env)
        try publishMetrics(summary, status: status, run: run)
        if let problem = summary.abortedBy { throw problem }
        try request.notifications.verifyAllSent(summary.tokens)
        if let failure = dead?.error { throw failure }
        if let failure = run.journalError { throw failure }
        if status != 0 { throw ExitCode(status) }
    }

    /// `--metrics-file` (not written: 73, as any output file) and `--metrics-push` (not taken: a warning).
    private func publishMetrics(_ summary: BatchSummary, status: Int32, run: SendRun) throws {
        guard command.metricsFile != nil || command.metricsPush != nil else { return }
        let metrics = RunMetrics(summary: summary, signings: run.plan.authorization.signatures, exitStatus: status)
        if let url = command.metricsPush, let problem = metrics.push(to: url), !command.quiet { Console.warn(problem) }
        if let path = command.metricsFile { try metrics.write(to: path) }
    }

    /// GitHub Actions: the step summary (GITHUB_STEP_SUMMARY) and one annotation per reason.
    private func reportToCI(_ summary: BatchSummary, resume: ResumeCommand, env: EnvironmentVariables) {
        var report = JobReport(summary: summary)
        report.deadTokensFile = command.unregisteredOut
        report.resumeCommand = resume.text
        report.publish(env)
    }
}

extension JobReport {
    /// Under GitHub Actions: the Markdown appended to GITHUB_STEP_SUMMARY (a warning when it cannot
    /// be), and with GITHUB_ACTIONS=true the annotations as workflow commands on stderr (GitHub
    /// reads both streams, and stdout stays the results).
    func publish(_ env: EnvironmentVariables) {
        if let path = env["GITHUB_STEP_SUMMARY"].nonEmpty, !appendMarkdown(to: path) {
            Console.warn(Words("could not append the step summary to GITHUB_STEP_SUMMARY ('\(OutsideText.display(path, limit: 200))')",
                               es: "no se pudo añadir el resumen del paso a GITHUB_STEP_SUMMARY ('\(OutsideText.display(path, limit: 200))')"))
        }
        if env["GITHUB_ACTIONS"] == "true" { annotations.forEach(Console.err) }
    }
}

/// Result lines and a progress bar on one terminal: the bar is cleared for a line and drawn again after it.
final class LinesBesideBar: ResultObserver {
    let renderer: ResultRenderer
    let bar: ProgressBar

    init(renderer: ResultRenderer, bar: ProgressBar) {
        self.renderer = renderer
        self.bar = bar
    }

    func record(_ result: PushResult) {
        bar.clear()
        renderer.render(result)
        renderer.flush()
    }

    func pause() { renderer.pause() }
}

/// The command that resumes this run: the same arguments with `--resume`, secrets left to the
/// environment (a JWT on the command line becomes "$PUSHCTL_JWT").
struct ResumeCommand {
    let text: String?

    init(arguments: [String], journaled: Bool) {
        guard journaled, let program = arguments.first else {
            text = nil
            return
        }
        var words = [program]
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            let value = index + 1 < arguments.count ? arguments[index + 1] : nil
            switch argument {
            case "--jwt":
                words += ["--jwt", "\"$PUSHCTL_JWT\""]
                index += 2
                continue
            case "--proxy" where value?.contains("@") == true:
                words += ["--proxy", "\"$PUSHCTL_PROXY\""]
                index += 2
                continue
            default:
                if argument.hasPrefix("--jwt=") {
                    words.append("--jwt=\"$PUSHCTL_JWT\"")
                } else if argument.hasPrefix("--proxy="), argument.contains("@") {
                    words.append("--proxy=\"$PUSHCTL_PROXY\"")
                } else {
                    words.append(DryRun.quoted(argument))
                }
            }
            index += 1
        }
        if !arguments.contains("--resume") { words.append("--resume") }
        text = words.joined(separator: " ")
    }
}
