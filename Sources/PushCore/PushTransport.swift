/// One try at sending one notification.
public struct PushAttempt: Sendable {
    /// Unique within a run; the transport hands it back with the result.
    public let id: Int
    public let request: PushRequest
    /// What the request is for: a device, a broadcast's channel, a channel call.
    public let subject: RequestSubject
    /// The `authorization` value (`bearer <JWT>`), or nil to send none.
    public let authorization: String?

    public init(id: Int, of item: RunRequest, authorization: String?) {
        self.id = id
        self.request = item.request
        self.subject = item.subject
        self.authorization = authorization
    }

    /// The device the request is for (nil for a broadcast or a channel call).
    public var token: DeviceToken? { subject.token }
}

/// What APNs answered to one request.
public struct PushResponse: Sendable, Equatable {
    public let status: Int
    public let apnsID: String?
    public let apnsUniqueID: String?
    public let retryAfterSeconds: Int?
    public let body: [UInt8]
    /// From the JSON body, read once: nil on 200.
    public let reason: RejectionReason?
    /// On 410: when APNs last knew the token was valid, in milliseconds since 1970.
    public let timestampMilliseconds: Int64?
    /// Broadcast and channel calls: `apns-channel-id` and `apns-request-id` as answered.
    public var channelID: String?
    public var requestID: String?

    public init(status: Int, apnsID: String?, apnsUniqueID: String?, retryAfterSeconds: Int? = nil, body: [UInt8]) {
        self.status = status
        self.apnsID = apnsID
        self.apnsUniqueID = apnsUniqueID
        self.retryAfterSeconds = retryAfterSeconds
        self.body = body
        // 201 (a channel made) and 204 (deleted) are successes too.
        guard !(200..<300).contains(status) else {
            reason = nil
            timestampMilliseconds = nil
            return
        }
        let json = try? JSONValue.parse(body)
        if let name = json?["reason"]?.stringValue {
            reason = RejectionReason(apnsName: name)
        } else {
            reason = .noReason(status: status)
        }
        // A server's number is outside input: 1e300 or a negative time is no time at all.
        timestampMilliseconds = OutsideNumber.unixMilliseconds(json?["timestamp"])
    }

    /// What a client may do about this answer: by its reason when APNs documents it, else by
    /// its status (a 503 from a proxy carries no APNs reason, and is still worth a retry).
    public var retry: RejectionReason.Retry {
        switch reason {
        case nil: return .never
        case .unknown?, .noReason?: return RejectionReason.retry(forStatus: status)
        case let known?: return known.retry
        }
    }
}

/// Why a request got no answer.
/// Why a server could not be reached, so that the caller can say what to do.
public enum UnreachableCause: String, Sendable, Equatable {
    /// The host name did not resolve.
    case dns
    /// Nothing accepted the connection (refused, or no route).
    case connection
    /// The server's certificate did not verify against the trusted CAs.
    case certificate
    /// The TLS handshake failed otherwise.
    case tls
    /// Connecting took longer than allowed.
    case timeout
    /// The server answered, but not over HTTP/2.
    case protocolMismatch
    /// The proxy could not be reached, refused the tunnel, or wanted other credentials.
    case proxy
    case other
}

public enum TransportFailure: Error, Sendable, Equatable {
    /// DNS, connect or TLS failed: APNs could not be reached at all (exit 69).
    case unreachable(String, cause: UnreachableCause = .other)
    /// No answer within `--timeout`.
    case timedOut(String)
    /// The stream was refused or the connection went away (GOAWAY, reset) before an
    /// answer: safe to send again on a new connection.
    case connectionLost(String)
    /// The server takes connections but no requests on them (each new connection dies before a
    /// request can start, or its SETTINGS allow no streams): nothing more is worth sending now (exit 75).
    case refused(String)
    /// Anything else libcurl reported.
    case other(String)
    /// The run gave up on it without an answer: the server answered nothing for too long, or the
    /// key could not sign.
    case abandoned(AbandonReason)
    // The detail of each case is libcurl's or the server's, as it came; what the failure is, in
    // words, is the catalog's (`TransportFailure.words`).
}

/// Why a run gave up on a notification without an answer.
public enum AbandonReason: Sendable, Equatable {
    /// Every request timed out and the server answered nothing for `seconds`.
    case silentServer(seconds: Int)
    /// The server answered no request for `seconds`, the last failing thus.
    indirect case unansweredServer(seconds: Int, last: TransportFailure)
    /// Not sent: the provider token could not be made (the key could not sign).
    case notSent(InputError)
}

/// How one attempt ended: the server's answer, or no answer and why. Its own enum, not
/// `AttemptOutcome`: the generic type's metadata is made at run time from
/// its mangled name, which costs a single push a scan of the runtime's conformance records
/// (to find `TransportFailure: Error`), and every copy of it went through that metadata.
public enum AttemptOutcome: Sendable, Equatable {
    case success(PushResponse)
    case failure(TransportFailure)
}

public struct PushAttemptResult: Sendable {
    public let attemptID: Int
    public let outcome: AttemptOutcome

    public init(attemptID: Int, outcome: AttemptOutcome) {
        self.attemptID = attemptID
        self.outcome = outcome
    }
}

/// Carries attempts to APNs. The curl module implements it over libcurl's multi
/// interface; the dispatcher in this module decides what to send and when to retry.
public protocol PushTransport: AnyObject {
    /// How many more attempts may start now (what the server's SETTINGS and the
    /// user's --concurrency allow, less those in flight).
    var availableSlots: Int { get }
    func start(_ attempt: PushAttempt)
    /// Waits up to `timeout` seconds for progress and returns the attempts that finished.
    func poll(timeout: Double) -> [PushAttemptResult]
    /// As `poll(timeout:)`, and returns early when `descriptor` becomes readable (a default waits the timeout).
    func poll(timeout: Double, waking descriptor: Int32?) -> [PushAttemptResult]
    /// When requests die with their connections before any answer, the reason the server gave
    /// in a GOAWAY (APNs' `{"reason":…}`), found however the transport can; nil if none.
    func goAwayReason() -> String?
}

extension PushTransport {
    public func goAwayReason() -> String? { nil }

    /// Waits as `poll(timeout:)`, and returns early when `descriptor` becomes readable (a followed
    /// input's next line). A transport that cannot watch one waits its timeout.
    public func poll(timeout: Double, waking descriptor: Int32?) -> [PushAttemptResult] { poll(timeout: timeout) }
}

/// Requests that arrive while the run goes on (`--follow`: lines on a pipe), read when the run has
/// room for them: the dispatcher's source gives nil both when none has come yet and at the end,
/// which `ended` tells apart.
public protocol ArrivingRequests: AnyObject {
    /// The input has ended (or is no longer read): what has not come will not.
    var ended: Bool { get }
    /// What to wait on for more (readable when a line may have come); nil when no more is wanted
    /// now (results to write in order are still owed).
    var waitDescriptor: Int32? { get }
    /// The result of input that is not a request (a bad line), reported in its place; nil when none.
    func takeRefused() -> PushResult?
    /// A stop: nothing more is read.
    func stopReading()
}
