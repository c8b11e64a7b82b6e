import ArgumentParser
import PushCore
import PushEngine
import PushFiles
import PushSystem
import PushWords
import PushctlCommandLine

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

    @Argument(
        help: ArgumentHelp("The runs' journals (--journal) or JSON Lines results (--output jsonl).", valueName: "file"),
        completion: .file(extensions: ["jsonl"]))
    var files: [String] = []

    @Option(
        help: ArgumentHelp(
            "Write the tokens APNs called dead (410) to this tokens file, each with APNs' time in a comment: delete a token only if it was registered before that time.",
            valueName: "path"),
        completion: .file())
    var unregisteredOut: String?

    @Option(
        help: ArgumentHelp(
            "Write the tokens left to send again (temporary failures, APNs not reached, stopped runs) to this tokens file, for send --tokens-file later.",
            valueName: "path"),
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
            throw ValidationError(
                Words(
                    "give the journals or results files of the runs, e.g. pushctl report journal-*.jsonl",
                    es: "indica los diarios o archivos de resultados de los envíos, p. ej. pushctl report journal-*.jsonl"))
        }
        if let dead = unregisteredOut, dead == retryOut {
            throw ValidationError(
                Words(
                    "--unregistered-out and --retry-out name the same file; give two", es: "--unregistered-out y --retry-out indican el mismo archivo; da dos"))
        }
    }

    func run() throws {
        try reportingErrors {
            try CommandArguments.requireUTF8()
            for output in [unregisteredOut, retryOut].compactMap({ $0 }) where files.contains(where: { ReportCommand.isSameFile($0, output) }) {
                throw InputError(
                    Words(
                        "'\(OutsideText.display(output, limit: 200))' is one of the files read; writing a list to it would destroy it",
                        es: "'\(OutsideText.display(output, limit: 200))' es uno de los archivos que se leen; escribir una lista en él lo destruiría"),
                    hint: Words("write the list to another file", es: "escribe la lista en otro archivo"), kind: .usage)
            }
            let report = try RunReport(reading: files)
            let status = ExitStatus(report.outcome).rawValue
            let language = LanguageSetting.language
            if let path = unregisteredOut {
                try OutputFiles.replace(Array(report.unregisteredFile(language).utf8), at: path, .deadTokenFile)
            }
            if let path = retryOut {
                try OutputFiles.replace(Array(report.retryFile(language).utf8), at: path, .retryFile)
            }
            switch output {
            case .text:
                if !quiet {
                    for line in report.lines(shown: ReportCommand.shownTokens, unregisteredOut: unregisteredOut, retryOut: retryOut) {
                        Console.out(line.description)
                    }
                }
            case .json:
                Console.out(report.json(exitStatus: status).pretty)
                if !quiet { Console.say(report.summary.counts) }
            }
            if !quiet { report.notes.forEach(Console.warn) }
            reportToCI(report)
            if status != 0 { throw ExitCode(status) }
        }
    }

    /// GitHub Actions: the step summary (GITHUB_STEP_SUMMARY) and one annotation per reason.
    func reportToCI(_ report: RunReport) {
        var job = report.jobReport(unregisteredOut: unregisteredOut, retryOut: retryOut)
        job.language = LanguageSetting.language
        job.naming = FlagNames.naming
        job.publish(Console.environment, warn: Console.warn, annotate: Console.err)
    }

    /// Whether two paths name one file (an output must not be an input).
    static func isSameFile(_ a: String, _ b: String) -> Bool {
        guard let x = FileSystem.status(a), let y = FileSystem.status(b) else { return false }
        return x.isSameFile(as: y)
    }
}
