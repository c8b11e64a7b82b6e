import NIOCore
import NIOHPACK
import PushCore

/// An answer as it goes on the wire: an informational status first (a fault's 1xx), then the
/// status, headers and body; and what the log says of it.
struct APNsResponse {
    var informational: Int?
    var status: Int
    var headers: HPACKHeaders
    var body: ByteBuffer?
    var loggedReason: String?
    var loggedID: String?
    var notes: [String]

    /// The answer to `reply` for a request with these headers, with the faults' `retry-after` and
    /// padding. `date` is the `date` header's value; `now`, in seconds, dates a 410's `timestamp`.
    init(_ reply: APNsRules.Reply, request head: RequestHead, faults: MockFaults, date: String, now: Double, identifiers: inout UUIDGenerator) {
        notes = reply.notes
        headers = HPACKHeaders()
        let clientID = head.apnsID.flatMap { RequestCheck.isCanonicalUUID($0) ? $0 : nil }
        let informational = reply.replacement.flatMap { $0.status < 200 ? $0.status : nil }
        if let informational {
            // No body, not the end of the stream; the normal answer follows.
            self.informational = informational
            notes.append("\(informational) sent first")
        }
        if let custom = reply.custom, reply.reason == nil {
            status = custom.status
            headers.add(name: ":status", value: String(status))
            for (name, value) in custom.headers { headers.add(name: name, value: value, indexing: .nonIndexable) }
            if !custom.body.isEmpty { body = ByteBuffer(bytes: custom.body) }
            if let requestID = custom.headers.first(where: { $0.0 == "apns-request-id" })?.1 { notes.append("apns-request-id \(requestID)") }
            if let channel = custom.headers.first(where: { $0.0 == "apns-channel-id" })?.1 { notes.append("apns-channel-id \(channel)") }
        } else if let replacement = reply.replacement, replacement.status >= 200 {
            // As a proxy answers: the status and the body, nothing APNs would add.
            status = replacement.status
            headers.add(name: ":status", value: String(status))
            if !replacement.body.isEmpty { body = ByteBuffer(bytes: replacement.body) }
            loggedReason = Self.reason(inBody: replacement.body)
            notes.append("answer replaced by \(status)")
        } else if let reason = reply.reason {
            status = reason.status
            var json = #"{"reason":"\#(reason.apnsName)""#
            if reason.status == 410 { json += #","timestamp":\#(Int64(now * 1000))"# }
            json += "}"
            body = ByteBuffer(string: json)
            let apnsID = clientID ?? identifiers.next()
            headers.add(name: ":status", value: String(status))
            headers.add(name: "apns-id", value: apnsID, indexing: .nonIndexable)
            headers.add(name: "content-type", value: "application/json")
            loggedReason = reason.apnsName
            loggedID = apnsID
        } else {
            status = 200
            let apnsID = clientID ?? identifiers.next()
            headers.add(name: ":status", value: "200")
            headers.add(name: "apns-id", value: apnsID, indexing: .nonIndexable)
            headers.add(name: "apns-unique-id", value: identifiers.next(), indexing: .nonIndexable)
            loggedID = apnsID
        }
        // APNs dates its answers (pushctl doctor compares the clocks with it); a replaced answer stays bare.
        if reply.replacement.map({ $0.status < 200 }) ?? true { headers.add(name: "date", value: date) }
        if status != 200, let retryAfter = faults.retryAfter, MockFaults.isSendableHeaderValue(retryAfter) {
            headers.add(name: "retry-after", value: retryAfter, indexing: .nonIndexable)
            notes.append("retry-after: \(retryAfter)")
        }
        let padding = min(max(0, faults.padBodyBytes), MockFaults.padBodyLimit)
        if padding > 0 {
            var padded = body ?? ByteBuffer()
            padded.reserveCapacity(minimumWritableBytes: padding)
            padded.writeRepeatingByte(UInt8(ascii: " "), count: padding)
            body = padded
            notes.append("body padded with \(padding) bytes")
        }
        if let body { headers.add(name: "content-length", value: String(body.readableBytes)) }
    }

    /// The `reason` of a JSON body, for the log (nil when the body is not such JSON).
    private static func reason(inBody body: [UInt8]) -> String? {
        guard body.first == UInt8(ascii: "{"), body.count <= 4096 else { return nil }
        return (try? JSONValue.parse(body))?["reason"]?.stringValue
    }
}
