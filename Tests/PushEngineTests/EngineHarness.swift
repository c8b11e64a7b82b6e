import PushCore
import PushEngine
import PushTestSupport

/// The engine in process: a plan run by `SendRun` on scripted transports (one per server the run
/// asks for) and a clock that moves only when the run waits. No network, no real waiting.
final class Engine {
    static let sandbox = try! Destination.apple(.sandbox)
    static let production = try! Destination.apple(.production)
    static let channels = try! Destination.apple(.sandbox, service: .channels)
    static let template = try! PushTemplate(
        PushSpec(topic: "com.example.app"),
        payload: Payload(bytes: Array(#"{"aps":{"alert":"x"}}"#.utf8), source: "test"))
    static let broadcast = try! BroadcastTemplate(
        PushSpec(topic: "com.example.app"),
        payload: Payload(bytes: Array(#"{"aps":{"event":"update","timestamp":1,"content-state":{}}}"#.utf8), source: "test"),
        requestID: nil)

    static func token(_ n: Int) -> DeviceToken {
        let hex = String(n, radix: 16)
        return try! DeviceToken(parsing: String(repeating: "0", count: 64 - hex.count) + hex)
    }

    /// One template to `tokens`.
    static func devices(_ tokens: [DeviceToken]) -> NotificationSource { .list(template, tokens, duplicates: 0) }

    static func plan(
        _ source: NotificationSource, to destination: Destination = sandbox, policy: RetryPolicy = RetryPolicy(maxRetries: 3, requestTimeout: 10),
        authorization: any AuthorizationSource = CountingAuthorization()
    ) -> SendPlan {
        SendPlan(notifications: source, destination: destination, connection: ConnectionSettings(), authorization: authorization, policy: policy)
    }

    let clock = FakeClock(tick: 0)
    var capacity = 4
    /// When set, the run cannot make a transport (libcurl could not start).
    var unavailable: InputError?
    /// The servers the run asked transports for, in order.
    private(set) var made: [String] = []
    /// How many in-doubt notifications the last run resent from its journal. The run itself is not
    /// kept: it holds its journal's lock until it is let go, and a test's next run resumes that journal.
    private(set) var inDoubtResent: Int?
    private var transports: [String: ScriptedTransport] = [:]

    /// The transport for a server (`Destination.baseURL`), made on first use.
    func transport(_ destination: Destination = Engine.sandbox) -> ScriptedTransport { transport(destination.baseURL) }

    func transport(_ baseURL: String) -> ScriptedTransport {
        if let made = transports[baseURL] { return made }
        let new = ScriptedTransport(capacity: capacity, clock: clock)
        transports[baseURL] = new
        return new
    }

    /// Runs `plan` to the end: every result in the order it came, and the summary.
    func run(
        _ plan: SendPlan, journal: JournalSetting? = nil, stop: (any StopRequests)? = nil,
        grace: Double = 5
    ) throws(InputError) -> (results: [PushResult], summary: BatchSummary) {
        var results: [PushResult] = []
        var plan = plan
        plan.journal = journal
        let run = try SendRun(
            plan: plan,
            transport: { configuration throws(InputError) in
                self.made.append(configuration.baseURL)
                if let unavailable = self.unavailable { throw unavailable }
                return self.transport(configuration.baseURL)
            }, clock: clock.read, random: { 0.5 })
        let summary = try run.run(stop: stop, grace: grace) { results.append($0) }
        inDoubtResent = run.inDoubtResent
        return (results, summary)
    }
}

extension PushResponse {
    /// A channel API's answer: its status, `apns-request-id`, `apns-channel-id` and body.
    static func channel(_ status: Int, requestID: String? = "req-1", channelID: String? = nil, body: String = "") -> PushResponse {
        var response = PushResponse(status: status, apnsID: nil, apnsUniqueID: nil, body: Array(body.utf8))
        response.requestID = requestID
        response.channelID = channelID
        return response
    }
}
