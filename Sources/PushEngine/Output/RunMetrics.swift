public import PushCore
import PushCurl
public import PushFiles
import PushSystem
public import PushWords

/// A run's numbers for Prometheus: in the text exposition format (0.0.4) for node_exporter's
/// textfile collector (`--metrics-file`), or pushed to a Pushgateway (`--metrics-push`).
///
///     pushctl_notifications_total{outcome,reason}     counter  each notification's final outcome
///                                                              (reason: APNs' for a rejection, else "")
///     pushctl_retries_total                           counter  attempts beyond each notification's first
///     pushctl_notifications_in_doubt                  gauge    sent, unanswered when the run stopped
///     pushctl_provider_token_signings_total           counter  JWTs signed (not taken from the cache)
///     pushctl_run_duration_seconds                    gauge
///     pushctl_run_exit_status                         gauge
///     pushctl_run_finished_timestamp_seconds          gauge    (alert on a run that stopped coming)
///
/// Every sample carries `shard="K/N"` when the run sent one shard; the Pushgateway gets it in the
/// grouping key instead (`/metrics/job/pushctl/shard@base64/…`, the `/` of K/N base64url-encoded),
/// since a pushed metric may not repeat a grouping label.
public struct RunMetrics: Sendable {
    public var summary: BatchSummary
    /// JWTs this run signed.
    public var signings: Int
    public var exitStatus: Int32
    /// UNIX seconds.
    public var finishedAt: Int64

    public init(summary: BatchSummary, signings: Int, exitStatus: Int32, finishedAt: Int64 = WallClock.now()) {
        self.summary = summary
        self.signings = signings
        self.exitStatus = exitStatus
        self.finishedAt = finishedAt
    }

    /// The Content-Type of the exposition.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The exposition: HELP and TYPE for each family, then its samples; a newline ends every line.
    /// `shardLabel: false` leaves the shard out of the samples (the Pushgateway's grouping key has it).
    public func exposition(shardLabel: Bool = true) -> String {
        let s = summary
        let shard = shardLabel ? s.shard.map { [("shard", $0.description)] } ?? [] : []
        var out = ""
        func family(_ name: String, _ type: String, _ help: String, _ samples: [([(String, String)], String)]) {
            out += "# HELP \(name) \(RunMetrics.escapeHelp(help))\n# TYPE \(name) \(type)\n"
            for (labels, value) in samples { out += name + RunMetrics.labels(shard + labels) + " " + value + "\n" }
        }
        var outcomes: [([(String, String)], String)] = [([("outcome", "accepted"), ("reason", "")], String(s.accepted))]
        let reasons = s.topReasons.map { (name: $0.cause.name, count: $0.count) }.sorted { $0.name < $1.name }
        outcomes +=
            reasons.isEmpty
            ? [([("outcome", "rejected"), ("reason", "")], "0")]
            : reasons.map { ([("outcome", "rejected"), ("reason", OutsideText.display($0.name, limit: 100))], String($0.count)) }
        outcomes += [
            ([("outcome", "temporary-failure"), ("reason", "")], String(s.temporaryFailures)),
            ([("outcome", "unreachable"), ("reason", "")], String(s.unreachable)),
            ([("outcome", "stopped"), ("reason", "")], String(s.notSent + s.inDoubt)),
        ]
        family(
            "pushctl_notifications_total", "counter",
            "Notifications by final outcome; reason is APNs' for a rejection.", outcomes)
        family("pushctl_retries_total", "counter", "Attempts beyond each notification's first.", [([], String(s.retried))])
        family(
            "pushctl_notifications_in_doubt", "gauge",
            "Notifications sent and not answered when the run stopped: APNs may have them.", [([], String(s.inDoubt))])
        family(
            "pushctl_provider_token_signings_total", "counter",
            "Provider tokens (JWTs) this run signed, not taken from the cache.", [([], String(signings))])
        family("pushctl_run_duration_seconds", "gauge", "How long the run took.", [([], RunMetrics.number(s.elapsedSeconds))])
        family(
            "pushctl_run_exit_status", "gauge", "The run's exit status (0 all accepted, 1 some rejected, 75 retry later).",
            [([], String(exitStatus))])
        family("pushctl_run_finished_timestamp_seconds", "gauge", "When the run finished, in UNIX seconds.", [([], String(finishedAt))])
        return out
    }

    /// `{a="x",b="y"}` with each value escaped (backslash, double quote, line feed), or nothing.
    static func labels(_ pairs: [(String, String)]) -> String {
        guard !pairs.isEmpty else { return "" }
        return "{" + pairs.map { "\($0.0)=\"\(escapeLabel($0.1))\"" }.joined(separator: ",") + "}"
    }

    static func escapeLabel(_ value: String) -> String {
        value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n")
    }

    static func escapeHelp(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("\n", with: "\\n")
    }

    /// Seconds with at most millisecond precision, as Prometheus reads a float.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let milliseconds = Int64((value * 1000).rounded())
        let fraction = milliseconds % 1000
        return "\(milliseconds / 1000)." + String(String(fraction + 1000).dropFirst())
    }

    /// Writes the exposition to `path` at once (a new file renamed over the old, mode 0644, so
    /// that node_exporter never reads half of it).
    public func write(to path: String) throws(InputError) {
        // Readable by all: node_exporter runs as its own user. It holds counts, no tokens.
        try OutputFiles.replace(Array(exposition().utf8), at: path, .metricsFile, mode: 0o644)
    }

    /// Where the run's metrics go on a Pushgateway at `base`: `<base>/metrics/job/pushctl`, and
    /// `/shard@base64/<K/N in base64url>` for a shard.
    public func pushURL(base: String) -> String {
        var url = base
        while url.hasSuffix("/") { url.removeLast() }
        url += "/metrics/job/pushctl"
        if let shard = summary.shard { url += "/shard@base64/" + Base64URL.encode(shard.description) }
        return url
    }

    /// PUTs the metrics to a Pushgateway (replacing this job's and shard's group); nil when it
    /// took them, else what went wrong (the caller warns: a run is not failed by its metrics).
    public func push(to base: String, timeout: Double = 10) -> Words? {
        let url = pushURL(base: base)
        let shown = Redaction.url(url)
        switch PlainRequest.send("PUT", to: url, body: Array(exposition(shardLabel: false).utf8), contentType: RunMetrics.contentType, timeout: timeout) {
        case .success(let answer) where (200..<300).contains(answer.status):
            return nil
        case .success(let answer):
            return Words(
                "the Pushgateway at \(shown) answered \(answer.status): \(answer.body)",
                es: "el Pushgateway en \(shown) respondió \(answer.status): \(answer.body)")
        case .failure(let failure):
            return Words(
                "could not push the metrics to \(shown): \(failure.description)", es: "no se pudieron enviar las métricas a \(shown): \(failure.description)")
        }
    }

    /// Whether `url` can be a Pushgateway's base: http:// or https://, a host, no spaces or control characters.
    public static func isPushURL(_ url: String) -> Bool {
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return false }
        let rest = url.drop { $0 != "/" }.dropFirst(2)
        return !rest.isEmpty && !rest.hasPrefix("/") && url.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F } && url.utf8.count <= 2048
    }
}
