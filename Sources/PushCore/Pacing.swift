/// `--rate N`: at most `rate` requests started a second, across every connection of the run, by a
/// token bucket on the run's clock. The bucket holds 10 ms of the rate (at least one request), so
/// a high rate starts a few at a wake-up instead of waking for each; a run starts with one, so the
/// first request goes at once. Every request counts, a retry too: it is what APNs and the devices
/// see. Waiting for the bucket costs no CPU: the run's wait ends when the next token is due.
public struct Pacing: Sendable {
    /// Requests a second.
    public let rate: Double
    private let burst: Double
    private var tokens = 1.0
    private var updated: Double?

    public init(rate: Double) {
        self.rate = rate
        burst = max(1, rate / 100)
    }

    private mutating func refill(at now: Double) {
        if let updated, now > updated { tokens = min(burst, tokens + (now - updated) * rate) }
        updated = max(updated ?? now, now)
    }

    /// Takes a token if one is there at `now`.
    mutating func take(at now: Double) -> Bool {
        refill(at: now)
        // A token that is there but for rounding is there: a wait for 1e-16 s would not move a clock.
        guard tokens >= 1 - Pacing.slack else { return false }
        tokens = max(0, tokens - 1)
        return true
    }

    /// Gives back a token taken for nothing (a followed input with no line yet).
    mutating func refund() { tokens = min(burst, tokens + 1) }

    /// When the paced run should look again: when the bucket is full (10 ms of the rate, or one
    /// token), so that a high rate starts a batch at each wake-up rather than waking for each.
    func nextToken(after now: Double) -> Double {
        tokens >= burst - Pacing.slack ? now : now + (burst - tokens) / rate
    }

    private static let slack = 1e-6

    /// The slowest rate a run takes: one notification every 1,000 seconds.
    public static let slowestRate = 0.001

    /// `--rate`'s number: decimal digits with an optional fraction (not `1e-12`, `0x10` or `inf`,
    /// which Swift's `Double` would read), from `slowestRate` to a million (nil otherwise).
    public static func rate(_ text: String) -> Double? {
        guard let value = decimal(text), value >= slowestRate, value <= 1_000_000 else { return nil }
        return value
    }

    /// `text` as a plain decimal number (`12`, `0.5`, `.5`), or nil.
    static func decimal(_ given: some StringProtocol) -> Double? {
        let text = Substring(given)
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits = { (part: Substring) in part.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        guard !text.isEmpty, text.utf8.count <= 32, parts.allSatisfy(digits), parts.contains(where: { !$0.isEmpty }) else { return nil }
        return Double(String(text))
    }

    /// `--spread`'s duration in seconds: a number, or one ending in s, m or h; above 0, at most 30 days.
    public static func seconds(_ text: String) -> Double? {
        var number = Substring(text)
        var unit = 1.0
        if let last = number.last, let scale = ["s": 1.0, "m": 60.0, "h": 3600.0][String(last)] {
            unit = scale
            number = number.dropLast()
        }
        guard let value = decimal(number), value > 0, value * unit <= 30 * 86_400 else { return nil }
        return value * unit
    }
}
