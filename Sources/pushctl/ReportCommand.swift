import ArgumentParser
import PushctlSupport
import PushSystem
import PushCore
import PushWords
import PushFiles
import PushEngine

enum ReportOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// `pushctl report FILE…`: the journals or results of a fleet's shards as one run. The engine
/// reads and adds up (`RunReport`); this renders it and gives the whole's exit status.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Add up the journals or JSON Lines results of N shards: one summary, one list of dead tokens, one to retry.",
        discussion: """
            Reads what each run wrote (--journal, or send --output jsonl) and counts
            every device token once, by its best result: accepted over rejected over
            left to send again (a token in two files: a shard's journal and its
            results, a run and its resumed run). The same file given twice is read
            once. Lines that are not results are counted and skipped. When the files
            name shards K/N, a shard none of them covers is named: its tokens were
            never sent.

            Exits 0 when every token was accepted, 1 when APNs rejected some, 75 when
            some are left to send again or a shard is missing. Under GitHub Actions
            the summary goes to the step summary too.

            Examples:
              pushctl report journal-1.jsonl journal-2.jsonl journal-3.jsonl
              pushctl report --unregistered-out dead.txt --retry-out retry.txt \\
                journals/*.jsonl
              pushctl report --output json results-*.jsonl
              # later: the retry list is a tokens file
              pushctl send --tokens-file retry.txt --payload payload.json

            """
    )

    @Argument(help: ArgumentHelp("The runs' journals (--journal) or JSON Lines results (--output jsonl).", valueName: "file"),
              completion: .file(extensions: ["jsonl"]))
    var files: [String] = []

    @Option(help: ArgumentHelp("Write the tokens APNs called dead (410) to this tokens file, each with APNs' time in a comment: delete a token only if it was registered before that time.", valueName: "path"),
            completion: .file())
    var unregisteredOut: String?

    @Option(help: ArgumentHelp("Write the tokens left to send again (temporary failures, APNs not reached, stopped runs) to this tokens file, for send --tokens-file later.", valueName: "path"),
            completion: .file())
    var retryOut: String?

    @Option(help: "text (the summary and the lists, on stdout) or json (one document).")
    var output: ReportOutputFormat = .text

    @Flag(help: "Print nothing but errors (and the json document); the exit status tells the outcome.")
    var quiet = false

    @OptionGroup var language: LanguageOption

    /// How many tokens of each list the text shows (the files hold them all).
    static let shownTokens = 20

    func validate() throws {
        if files.isEmpty {
            throw ValidationError(Words("give the journals or results files of the runs, e.g. pushctl report journal-*.jsonl",
                                        es: "indica los diarios o archivos de resultados de los envíos, p. ej. pushctl report journal-*.jsonl"))
        }
        if let dead = unregisteredOut, dead == retryOut {
            throw ValidationError(Words("--unregistered-out and --retry-out name the same file; give two", es: "--unregistered-out y --retry-out indican el mismo archivo; da dos"))
        }
    }

    func run() throws {
        try reportingErrors {
            try CommandArguments.requireUTF8()
            for output in [unregisteredOut, retryOut].compactMap({ $0 }) where files.contains(where: { ReportCommand.isSameFile($0, output) }) {
                throw InputError(Words("'\(OutsideText.display(output, limit: 200))' is one of the files read; writing a list to it would destroy it",
                                       es: "'\(OutsideText.display(output, limit: 200))' es uno de los archivos que se leen; escribir una lista en él lo destruiría"),
                                 hint: Words("write the list to another file", es: "escribe la lista en otro archivo"), kind: .usage)
            }
            let report = try RunReport(reading: files)
            let status = ExitStatus(report.outcome).rawValue
            let language = Language.current
            if let path = unregisteredOut {
                try ReplacedFile.write(Array(report.unregisteredFile(language).utf8), to: path, what: Words("the dead-token file", es: "el archivo de tokens muertos"))
            }
            if let path = retryOut {
                try ReplacedFile.write(Array(report.retryFile(language).utf8), to: path, what: Words("the retry file", es: "el archivo de reintentos"))
            }
            switch output {
            case .text:
                if !quiet { lines(report).forEach { Console.out($0.description) } }
            case .json:
                Console.out(report.json(exitStatus: status).pretty)
                if !quiet { Console.say(report.summary.counts) }
            }
            if !quiet { notes(report).forEach(Console.warn) }
            reportToCI(report)
            if status != 0 { throw ExitCode(status) }
        }
    }

    /// The text: the counts, then the dead tokens and the ones to retry (the first few of each).
    func lines(_ report: RunReport) -> [Words] {
        var out = [report.summary.counts]
        if !report.unregistered.isEmpty {
            out.append(Words("dead (410): delete a token only if it was registered before APNs' time",
                             es: "muertos (410): borra un token solo si se registró antes de la hora de APNs"))
            for dead in report.unregistered.prefix(ReportCommand.shownTokens) {
                let when = dead.timestamp.map { UTCDate.format(unixSeconds: $0 / 1000) } ?? "—"
                out.append(Words(verbatim: "  \(dead.token)  \(dead.reason)  \(when)"))
            }
            out += more(report.unregistered.count, file: unregisteredOut, flag: "--unregistered-out")
        }
        if !report.retryLater.isEmpty {
            out.append(Words("to send again later:", es: "para volver a enviar más tarde:"))
            for retry in report.retryLater.prefix(ReportCommand.shownTokens) {
                out.append(Words(verbatim: "  \(retry.token)  \(retry.outcome.rawValue)\(retry.inDoubt ? " (in doubt)" : "")"))
            }
            out += more(report.retryLater.count, file: retryOut, flag: "--retry-out")
        }
        return out
    }

    /// "… and 80 more (all 100 in dead.txt)" past the shown ones.
    func more(_ count: Int, file: String?, flag: String) -> [Words] {
        guard count > ReportCommand.shownTokens else { return [] }
        let left = count - ReportCommand.shownTokens
        guard let file else {
            return [Words("  … and \(left) more (\(flag) PATH writes them all)", es: "  … y \(left) más (\(flag) RUTA los escribe todos)")]
        }
        let shown = OutsideText.display(file, limit: 200)
        return [Words("  … and \(left) more (all \(count) in \(shown))", es: "  … y \(left) más (los \(count) en \(shown))")]
    }

    /// What the reader noticed: missing shards, files read once, lines skipped, different runs.
    func notes(_ report: RunReport) -> [Words] {
        var out: [Words] = []
        if let count = report.shardCount, !report.missingShards.isEmpty {
            let missing = report.missingShards.map { "\($0)/\(count)" }.joined(separator: ", ")
            out.append(Words("no file covers shard \(missing): its tokens were never sent (run it, then report again)",
                             es: "ningún archivo cubre el fragmento \(missing): sus tokens nunca se enviaron (ejecútalo y vuelve a hacer el informe)"))
        }
        if report.mixedShardCounts {
            out.append(Words("the files name shards of different counts (K/N with different N): which shards are missing cannot be told",
                             es: "los archivos nombran fragmentos de totales distintos (K/N con N distintos): no se puede saber qué fragmentos faltan"))
        }
        if report.mixedRuns {
            out.append(Words("the journals are of different runs (tokens, payload, topic, push type or destination differ); each token still counts once",
                             es: "los diarios son de envíos distintos (difieren los tokens, la carga útil, el topic, el tipo o el destino); cada token cuenta una vez igualmente"))
        }
        for path in report.repeated {
            let shown = OutsideText.display(path, limit: 200)
            out.append(Words("'\(shown)' is a file given already; it is read once", es: "'\(shown)' es un archivo ya indicado; se lee una sola vez"))
        }
        for file in report.files where file.skipped > 0 {
            let shown = OutsideText.display(file.path, limit: 200)
            let numbers = file.skippedLines.map(String.init).joined(separator: ", ") + (file.skipped > file.skippedLines.count ? ", …" : "")
            out.append(Words("'\(shown)': \(file.skipped) \(file.skipped == 1 ? "line is" : "lines are") not results and \(file.skipped == 1 ? "was" : "were") skipped (line \(numbers))",
                             es: "'\(shown)': \(file.skipped) \(file.skipped == 1 ? "línea no es un resultado y se saltó" : "líneas no son resultados y se saltaron") (línea \(numbers))"))
        }
        return out
    }

    /// GitHub Actions: the step summary (GITHUB_STEP_SUMMARY) and one annotation per reason.
    func reportToCI(_ report: RunReport) {
        var job = JobReport(summary: report.summary)
        job.title = "pushctl report"
        job.headline = report.summary.counts
        job.deadTokensFile = unregisteredOut
        job.notes = notes(report)
        if !report.retryLater.isEmpty {
            let n = report.retryLater.count
            job.notes.append(retryOut.map { Words("\(n) to send again later, listed in \($0)", es: "\(n) para volver a enviar más tarde, en \($0)") }
                ?? Words("\(n) to send again later (--retry-out PATH lists them)", es: "\(n) para volver a enviar más tarde (--retry-out RUTA los lista)"))
        }
        job.publish(Console.environment)
    }

    /// Whether two paths name one file (an output must not be an input).
    static func isSameFile(_ a: String, _ b: String) -> Bool {
        guard let x = FileSystem.status(a), let y = FileSystem.status(b) else { return false }
        return x.isSameFile(as: y)
    }
}
