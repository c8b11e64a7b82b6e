import PushCore
public import PushWords

/// `pushctl report`'s words: the counts, the dead tokens and the ones to retry, and what the
/// reader noticed in the files.
extension RunReport {
    /// The text: the counts, then the dead tokens and the ones to retry (the first few of each).
    public func lines(shown: Int, unregisteredOut: String?, retryOut: String?) -> [Words] {
        let report = self
        var out = [report.summary.counts]
        if !report.unregistered.isEmpty {
            out.append(
                Words(
                    "dead (410): delete a token only if it was registered before APNs' time",
                    es: "muertos (410): borra un token solo si se registró antes de la hora de APNs"))
            for dead in report.unregistered.prefix(shown) {
                let when = dead.timestamp.map { UTCDate.format(unixSeconds: $0 / 1000) } ?? "—"
                out.append(Words(verbatim: "  \(dead.token)  \(dead.reason)  \(when)"))
            }
            out += Self.more(report.unregistered.count, shown: shown, file: unregisteredOut, flag: .unregisteredOut)
        }
        if !report.retryLater.isEmpty {
            out.append(Words("to send again later:", es: "para volver a enviar más tarde:"))
            for retry in report.retryLater.prefix(shown) {
                out.append(Words(verbatim: "  \(retry.token)  \(retry.outcome.rawValue)\(retry.inDoubt ? " (in doubt)" : "")"))
            }
            out += Self.more(report.retryLater.count, shown: shown, file: retryOut, flag: .retryOut)
        }
        return out
    }

    /// "… and 80 more (all 100 in dead.txt)" past the shown ones.
    static func more(_ count: Int, shown: Int, file: String?, flag: Setting) -> [Words] {
        guard count > shown else { return [] }
        let left = count - shown
        guard let file else {
            return [Words("  … and \(left) more (\(flag) PATH writes them all)", es: "  … y \(left) más (\(flag) RUTA los escribe todos)")]
        }
        let path = OutsideText.display(file, limit: 200)
        return [Words("  … and \(left) more (all \(count) in \(path))", es: "  … y \(left) más (los \(count) en \(path))")]
    }

    /// What the reader noticed: missing shards, files read once, lines skipped, different runs.
    public var notes: [Words] {
        let report = self
        var out: [Words] = []
        if let count = report.shardCount, !report.missingShards.isEmpty {
            let missing = report.missingShards.map { "\($0)/\(count)" }.joined(separator: ", ")
            out.append(
                Words(
                    "no file covers shard \(missing): its tokens were never sent (run it, then report again)",
                    es: "ningún archivo cubre el fragmento \(missing): sus tokens nunca se enviaron (ejecútalo y vuelve a hacer el informe)"))
        }
        if report.mixedShardCounts {
            out.append(
                Words(
                    "the files name shards of different counts (K/N with different N): which shards are missing cannot be told",
                    es: "los archivos nombran fragmentos de totales distintos (K/N con N distintos): no se puede saber qué fragmentos faltan"))
        }
        if report.mixedRuns {
            out.append(
                Words(
                    "the journals are of different runs (tokens, payload, topic, push type or destination differ); each token still counts once",
                    es:
                        "los diarios son de envíos distintos (difieren los tokens, la carga útil, el topic, el tipo o el destino); cada token cuenta una vez igualmente"
                ))
        }
        for path in report.repeated {
            let shown = OutsideText.display(path, limit: 200)
            out.append(Words("'\(shown)' is a file given already; it is read once", es: "'\(shown)' es un archivo ya indicado; se lee una sola vez"))
        }
        for file in report.files where file.skipped > 0 {
            let shown = OutsideText.display(file.path, limit: 200)
            let numbers = file.skippedLines.map(String.init).joined(separator: ", ") + (file.skipped > file.skippedLines.count ? ", …" : "")
            out.append(
                Words(
                    "'\(shown)': \(file.skipped) \(file.skipped == 1 ? "line is" : "lines are") not results and \(file.skipped == 1 ? "was" : "were") skipped (line \(numbers))",
                    es:
                        "'\(shown)': \(file.skipped) \(file.skipped == 1 ? "línea no es un resultado y se saltó" : "líneas no son resultados y se saltaron") (línea \(numbers))"
                ))
        }
        return out
    }

    /// GitHub Actions' view of the report: the step summary's headline and notes, the dead tokens'
    /// file, and where the ones to send again are listed.
    public func jobReport(unregisteredOut: String?, retryOut: String?) -> JobReport {
        var job = JobReport(summary: summary)
        job.title = "pushctl report"
        job.headline = summary.counts
        job.deadTokensFile = unregisteredOut
        job.notes = notes
        if !retryLater.isEmpty {
            let n = retryLater.count
            job.notes.append(
                retryOut.map { Words("\(n) to send again later, listed in \($0)", es: "\(n) para volver a enviar más tarde, en \($0)") }
                    ?? Words(
                        "\(n) to send again later (\(Setting.retryOut) PATH lists them)",
                        es: "\(n) para volver a enviar más tarde (\(Setting.retryOut) RUTA los lista)"))
        }
        return job
    }
}
