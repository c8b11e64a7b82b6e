import ArgumentParser
import Dispatch
import PushCore
import PushEngine
import PushFiles
import PushSystem
import PushWords
import PushctlCommandLine

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
        if let path = c.metricsFile { try OutputFiles.checkFolder(of: path, .metricsFile) }
        let toTerminal = Terminal.isTerminal(Descriptors.standardOutput)
        let bigBatch = toTerminal && c.output == .text && total > SendOutput.acceptedLinesOnTerminal && !c.verbose
        renderer = ResultRenderer(
            format: c.output, sink: StandardOutput.shared, quiet: c.quiet,
            style: TextResultStyle(
                colour: Console.useColour(on: Descriptors.standardOutput), wholeTokens: !toTerminal,
                width: Console.width(of: Descriptors.standardOutput), showAccepted: !bigBatch, fullIDs: c.verbose, language: LanguageSetting.language,
                naming: FlagNames.naming),
            jsonLanguage: LanguageSetting.jsonLanguage)
        // --follow: each result is written as soon as it is final (the run then waits for more input).
        renderer.flushesAtPause = c.follow
        // A bar where a person watches stderr: beside json/jsonl or a redirected stdout, and for a
        // big batch on the same terminal (its lines then list only what was not accepted).
        let barFits = c.output != .text || !toTerminal || bigBatch
        progress = total > 1 && !c.quiet && Terminal.isTerminal(Descriptors.standardError) && barFits ? ProgressBar(total: total) : nil
        let shown: any ResultObserver =
            progress != nil && toTerminal && c.output == .text
            ? LinesBesideBar(renderer: renderer, bar: progress!) : renderer
        observers = [shown] + (dead.map { [$0] } ?? []) + (progress.map { [$0] } ?? []) + (c.quiet ? [] : [StopNotice(clearing: progress)])
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
            summary.advice(
                resumeCommand: resume.text, journalable: !c.follow, environment: request.plan.destination.environment, endpoint: c.settings.value(.endpoint)
            )
            .forEach(Console.hint)
        }
        reportToCI(summary, resume: resume, env: env)
        if c.metricsFile != nil || c.metricsGateway != nil {
            try RunMetrics(summary: summary, signings: run.plan.authorization.signatures, exitStatus: status)
                .publish(file: c.metricsFile, gateway: c.metricsGateway, warn: c.quiet ? { _ in } : Console.warn)
        }
        if let problem = summary.abortedBy { throw problem }
        try request.notifications.verifyAllSent(summary.tokens)
        if let failure = dead?.error { throw failure }
        if let failure = run.journalError { throw failure }
        if status != 0 { throw ExitCode(status) }
    }

    /// GitHub Actions: the step summary (GITHUB_STEP_SUMMARY) and one annotation per reason.
    private func reportToCI(_ summary: BatchSummary, resume: ResumeCommand, env: EnvironmentVariables) {
        var report = JobReport(summary: summary)
        report.language = LanguageSetting.language
        report.naming = FlagNames.naming
        report.deadTokensFile = command.unregisteredOut
        report.resumeCommand = resume.text
        report.publish(env, warn: Console.warn, annotate: Console.err)
    }
}

/// What a stop signal does, said on stderr the moment the run sees it: in a terminal or a CI log
/// the wait that follows (the grace for what is in flight) is then explained, not a silent hang.
final class StopNotice: ResultObserver {
    private let bar: ProgressBar?

    init(clearing bar: ProgressBar? = nil) { self.bar = bar }

    func record(_ result: PushResult) {}

    func stopping(_ request: StopRequest, inFlight: Int, grace: Double) {
        bar?.clear()
        let name = request.name
        if request.count > 1 {
            Console.say(
                inFlight == 0
                    ? Words("pushctl: \(name) again: stopping now", es: "pushctl: \(name) de nuevo: se para ya")
                    : Words(
                        "pushctl: \(name) again: the \(inFlight) in flight are left in doubt",
                        es: "pushctl: \(name) de nuevo: las \(inFlight) en curso quedan en duda"))
        } else if inFlight == 0 {
            Console.say(Words("pushctl: \(name): nothing more is sent", es: "pushctl: \(name): no se envía nada más"))
        } else {
            let seconds = max(1, Int(grace.rounded(.up)))
            Console.say(
                Words(
                    "pushctl: \(name): nothing more is sent; the \(inFlight) in flight get up to \(seconds) s to be answered (\(name) again stops at once)",
                    es:
                        "pushctl: \(name): no se envía nada más; las \(inFlight) en curso tienen hasta \(seconds) s para recibir respuesta (\(name) de nuevo para al instante)"
                ))
        }
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
