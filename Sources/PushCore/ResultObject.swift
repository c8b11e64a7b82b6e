/// The one shape of a result object in `--output json` and `jsonl` (and a journal's lines), for a
/// device's notification, a broadcast to a channel and a channel call alike: what it was for, then
/// the answer's fields always in this order, with `null` for what the answer did not carry; then
/// what only some results say.
///
///     subject…, status, outcome, <id>, apnsUniqueId, reason, timestamp, explanation, attempts, marks…
///
/// `<id>` is the id APNs answers with: `apnsId` for a device, `apnsRequestId` for the broadcast API.
public enum ResultObject {
    public static func fields(
        subject: [(String, JSONValue)], status: Int?, outcome: PushResult.Outcome,
        id: (key: String, value: String?), uniqueID: String?, reason: String?, timestamp: Int64?,
        explanation: String, attempts: Int, marks: [(String, JSONValue)] = []
    ) -> JSONValue {
        func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        return .object(
            subject + [
                ("status", status.map { .integer(Int64($0)) } ?? .null),
                ("outcome", .string(outcome.rawValue)),
                (id.key, optional(id.value)),
                ("apnsUniqueId", optional(uniqueID)),
                ("reason", optional(reason)),
                ("timestamp", timestamp.map(JSONValue.integer) ?? .null),
                ("explanation", .string(explanation)),
                ("attempts", .integer(Int64(attempts))),
            ] + marks)
    }
}
