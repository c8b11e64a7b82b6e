import Crypto
import Foundation
public import PushCore
import PushFiles
public import PushWords

/// How to run a ``MockAPNsServer``.
public struct MockAPNsConfiguration: Sendable {
    /// Where to listen. Loopback by default: the mock is for this machine only.
    public var host: String
    /// 0 picks a free port; ``MockAPNsServer/port`` tells which.
    public var port: Int
    /// The keys whose signatures the mock accepts. Empty: only the token's shape is checked.
    public var providerKeys: [MockProviderKey]
    /// When set, a token's `iss` must be this team.
    public var teamID: String?
    /// A folder of keys students add as the class goes (`KEYID.pem`, the public half): see ``MockKeyDirectory``.
    public var keyDirectory: String?
    /// Told of each key file in ``keyDirectory`` that cannot be used (once per version of the file).
    public var onKeyFolderProblem: (@Sendable (MockWarning) -> Void)?
    /// SETTINGS_MAX_CONCURRENT_STREAMS after the first request with a valid token
    /// (0 makes a server that allows no streams at all, to test clients against one).
    public var maxConcurrentStreams: Int
    /// SETTINGS_MAX_CONCURRENT_STREAMS a connection starts with: 1, as APNs does. A benchmark
    /// may start higher, so that a client which cannot wait for the raise stays on one connection;
    /// 0 makes a server on which no request can start.
    public var initialConcurrentStreams: Int
    /// Appends one JSON line per request to this file.
    public var logPath: String?
    /// The log is rotated when it reaches this many bytes: it becomes `PATH.1` (replacing the
    /// last one) and a new file starts, so the two hold at most about twice this.
    public var logSizeLimit: Int64 = MockAPNsConfiguration.defaultLogSizeLimit
    /// 64 MiB.
    public static let defaultLogSizeLimit: Int64 = 64 << 20
    /// Connections open at once: an idle HTTP/2 connection over TLS holds about 50 KB, so 4,000 of
    /// them take about 230 MB, which a classroom laptop can spare.
    public static let defaultConnectionLimit = 4000
    /// Told when the log cannot go on (its rotation refused, say): the mock goes on without it.
    public var onLogProblem: (@Sendable (MockWarning) -> Void)?
    /// Failures to simulate; changeable while running with ``MockAPNsServer/faults``.
    public var faults: MockFaults
    /// How many of the latest requests ``MockAPNsServer/records`` keeps (0: none).
    public var recordLimit: Int
    /// Event loop threads; nil means one per core.
    public var threads: Int?
    /// CA certificates (PEM) whose client certificates the mock accepts for certificate-based
    /// authentication, besides its own CA (``MockAPNsServer/issueClientCertificate``).
    public var clientCAPEMs: [String] = []
    /// The environment the mock plays: a client certificate that does not serve it gets
    /// BadCertificateEnvironment.
    public var environment: APNsEnvironment = .sandbox
    /// Channels the mock keeps for broadcast push, in all (Apple: 10,000 per environment).
    public var channelLimit = BroadcastAPI.channelLimit
    /// Told about every Live Activity (device push or broadcast) a device would drop, though the
    /// mock answers 200 as APNs does: which request, and why.
    public var onLiveActivityProblem: (@Sendable (String) -> Void)?
    /// The language of what the mock says about a request (a Live Activity a device would drop).
    public var language: Language = .en
    /// APNs' limits per connection and the guards against floods.
    public var limits: MockProtocolLimits
    /// Connections open at once; more are closed as soon as they are accepted (an idle one holds
    /// about 50 KB of TLS and HTTP/2 state; ``defaultConnectionLimit``).
    public var connectionLimit: Int
    /// Connections open at once from one IP address, so that one laptop cannot take every place;
    /// more from it are closed as soon as they are accepted.
    public var connectionsPerAddressLimit = 1000
    /// Told when an address reaches ``connectionsPerAddressLimit`` (once, until its connections
    /// have all gone): the address and the limit.
    public var onAddressAtLimit: (@Sendable (String, Int) -> Void)?
    /// Told, once per token, when a provider token is refused: the reason and which check failed.
    public var onTokenRefused: (@Sendable (RejectionReason, String) -> Void)?

    // The classroom: a mock other machines reach, and a live view of what it received.
    /// Host names and IP addresses the server certificate names besides localhost, 127.0.0.1 and
    /// ::1 (see ``MockNetwork/certificateNames(listeningOn:extra:addresses:hostName:)``).
    public var certificateNames: [String] = []
    /// Told about every request once it is answered, as `--log` writes it (``MockWebView/publish(_:)``).
    public var onRecord: (@Sendable (MockRequestRecord) -> Void)?
    /// The mock's one wall clock (UNIX seconds): provider tokens' age, a 410's timestamp, the
    /// `date` header and the log's times all read it. A test stands at any time with another.
    public var clock: @Sendable () -> Double = { Date().timeIntervalSince1970 }

    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        providerKeys: [MockProviderKey] = [],
        teamID: String? = nil,
        maxConcurrentStreams: Int = 1000,
        initialConcurrentStreams: Int = 1,
        logPath: String? = nil,
        faults: MockFaults = MockFaults(),
        recordLimit: Int = 10_000,
        threads: Int? = nil,
        limits: MockProtocolLimits = MockProtocolLimits(),
        connectionLimit: Int = defaultConnectionLimit,
        onTokenRefused: (@Sendable (RejectionReason, String) -> Void)? = nil
    ) {
        self.host = host
        self.port = port
        self.providerKeys = providerKeys
        self.teamID = teamID
        self.maxConcurrentStreams = maxConcurrentStreams
        self.initialConcurrentStreams = initialConcurrentStreams
        self.logPath = logPath
        self.faults = faults
        self.recordLimit = recordLimit
        self.threads = threads
        self.limits = limits
        self.connectionLimit = connectionLimit
        self.onTokenRefused = onTokenRefused
    }

    /// Checks what can be wrong before binding: the team id's shape, the stream limits, the faults.
    func validated() throws(InputError) -> MockAPNsConfiguration {
        if let teamID { _ = try AppleIdentifier(.teamID, teamID) }
        guard (0...Int(Int32.max)).contains(maxConcurrentStreams) else {
            throw InputError(MockSettingProblem.streamLimit(given: maxConcurrentStreams, highest: Int(Int32.max)), kind: .usage)
        }
        guard (0...maxConcurrentStreams).contains(initialConcurrentStreams) else {
            throw InputError(MockSettingProblem.initialStreamLimit(given: initialConcurrentStreams, streamLimit: maxConcurrentStreams), kind: .usage)
        }
        try faults.validate()
        try limits.validate()
        guard connectionLimit >= 1, connectionsPerAddressLimit >= 1 else {
            let value = min(connectionLimit, connectionsPerAddressLimit)
            throw InputError(MockSettingProblem.connectionLimit(given: value), kind: .usage)
        }
        guard (0...65535).contains(port) else {
            throw InputError(MockSettingProblem.port(given: port), kind: .usage)
        }
        return self
    }
}

/// A P-256 public key the mock verifies provider tokens with, and the key id (`kid`) it answers to.
public struct MockProviderKey: Sendable {
    public let keyID: String
    /// X9.63 bytes: swift-crypto's key type is not Sendable.
    let publicKeyX963: [UInt8]

    /// From PEM text: a `.p8` private key (`BEGIN PRIVATE KEY`) or a public key (`BEGIN PUBLIC KEY`).
    public init(keyID: String, pem: String) throws(InputError) {
        _ = try AppleIdentifier(.keyID, keyID)
        self.keyID = keyID
        // The public half first when it says so (a class's key folder holds thousands).
        let looksPublic = pem.contains("BEGIN PUBLIC KEY")
        if looksPublic, let key = try? P256.Signing.PublicKey(pemRepresentation: pem) {
            publicKeyX963 = Array(key.x963Representation)
        } else if let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) {
            publicKeyX963 = Array(key.publicKey.x963Representation)
        } else if !looksPublic, let key = try? P256.Signing.PublicKey(pemRepresentation: pem) {
            publicKeyX963 = Array(key.x963Representation)
        } else {
            throw InputError(MockSettingProblem.notAP256Key(keyID: keyID))
        }
    }

    /// `PATH` (a file named `AuthKey_<KEYID>.p8`) or `KEYID=PATH`, read as pushctl reads its
    /// files (bounded; a missing file, a folder or an unreadable one said as such).
    public static func load(spec: String) throws(InputError) -> MockProviderKey {
        let keyID: String
        let path: String
        if let equals = spec.firstIndex(of: "="), AppleIdentifier.isWellFormed(String(spec[..<equals])) {
            keyID = String(spec[..<equals])
            path = String(spec[spec.index(after: equals)...])
        } else if let fromName = AppleIdentifier.keyID(fromKeyFileName: spec) {
            keyID = fromName
            path = spec
        } else {
            throw InputError(MockSettingProblem.unknownKeyID(given: spec), kind: .usage)
        }
        let bytes = try InputFiles.read(path, what: .keyFile)
        do {
            return try MockProviderKey(keyID: keyID, pem: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw error.at("'\(path)'")
        }
    }
}

/// Failures the mock simulates, for clients' retry and batch logic.
///
/// Counters for ``refuseFirstStreams``, ``refuseEveryNthStream`` and ``answerCount`` run across
/// the whole server; ``goAwayAfterRequests`` and ``closeAfterRequests`` count requests on each connection.
///
/// Some are hostile on purpose (a proxy's answer with no JSON, a huge body, a huge `retry-after`,
/// silence, resets, GOAWAY with an error): a client must survive each with one result per
/// notification, no crash and no endless wait.
public struct MockFaults: Sendable {
    /// Requests to these device tokens are answered with the reason (and its status) once they pass every check.
    public var failTokens: [DeviceToken: RejectionReason]
    /// The first `attempts` valid requests to a token fail with `reason`; later ones succeed.
    public var failFirstAttempts: [DeviceToken: FailFirst]
    /// After answering this many requests on a connection, send GOAWAY (debug data `{"reason":…}`) and close it.
    public var goAwayAfterRequests: Int?
    /// The reason in the GOAWAY debug data.
    public var goAwayReason: RejectionReason
    /// After answering this many requests on a connection, drop it (no GOAWAY) when the next request arrives.
    public var closeAfterRequests: Int?
    /// Answer the first N requests the server receives with RST_STREAM(REFUSED_STREAM).
    public var refuseFirstStreams: Int
    /// Answer every Nth request the server receives with RST_STREAM(REFUSED_STREAM).
    public var refuseEveryNthStream: Int?
    /// Wait this long before each answer.
    public var responseDelayMilliseconds: Int
    /// Replaces the answer of a request that passed every check (and any ``failTokens`` reason)
    /// with this status and body, sent verbatim: no `apns-id`, no `content-type`, as a proxy or a
    /// load balancer answers. A 1xx status is sent as an informational answer before the normal one.
    public var answer: Answer?
    /// Only the first N requests that pass the checks get ``answer`` (nil: all of them).
    public var answerCount: Int?
    /// A `retry-after` header with this value (verbatim) on every answer that is not 200.
    public var retryAfter: String?
    /// Appends this many spaces to every answer's body, 200s included (at most ``padBodyLimit``).
    public var padBodyBytes: Int
    /// Reads requests (and raises the stream limit for a valid token) but never answers and never
    /// closes: every stream stays open until the client gives up on it.
    public var silent: Bool
    /// Answers every request with RST_STREAM(INTERNAL_ERROR).
    public var resetStreams: Bool
    /// The HTTP/2 error code of the GOAWAY that ``goAwayAfterRequests`` sends (0, NO_ERROR, by default).
    public var goAwayErrorCode: UInt32
    /// Answer nothing: the first request of every connection gets GOAWAY (last stream 0) with
    /// `{"reason":…}` as its only word, as APNs does for some refusals.
    public var goAwayInstead: RejectionReason? = nil

    /// The most ``padBodyBytes`` may ask for.
    public static let padBodyLimit = 16 << 20

    /// A status and body that replace the normal answer.
    public struct Answer: Sendable, Equatable {
        /// 100...599.
        public var status: Int
        /// Sent as is; empty by default.
        public var body: [UInt8]
        public init(status: Int, body: [UInt8] = []) {
            self.status = status
            self.body = body
        }
    }

    public struct FailFirst: Sendable, Equatable {
        public var attempts: Int
        public var reason: RejectionReason
        public init(attempts: Int, reason: RejectionReason) {
            self.attempts = attempts
            self.reason = reason
        }
    }

    public init(
        failTokens: [DeviceToken: RejectionReason] = [:],
        failFirstAttempts: [DeviceToken: FailFirst] = [:],
        goAwayAfterRequests: Int? = nil,
        goAwayReason: RejectionReason = .shutdown,
        closeAfterRequests: Int? = nil,
        refuseFirstStreams: Int = 0,
        refuseEveryNthStream: Int? = nil,
        responseDelayMilliseconds: Int = 0,
        answer: Answer? = nil,
        answerCount: Int? = nil,
        retryAfter: String? = nil,
        padBodyBytes: Int = 0,
        silent: Bool = false,
        resetStreams: Bool = false,
        goAwayErrorCode: UInt32 = 0
    ) {
        self.failTokens = failTokens
        self.failFirstAttempts = failFirstAttempts
        self.goAwayAfterRequests = goAwayAfterRequests
        self.goAwayReason = goAwayReason
        self.closeAfterRequests = closeAfterRequests
        self.refuseFirstStreams = refuseFirstStreams
        self.refuseEveryNthStream = refuseEveryNthStream
        self.responseDelayMilliseconds = responseDelayMilliseconds
        self.answer = answer
        self.answerCount = answerCount
        self.retryAfter = retryAfter
        self.padBodyBytes = padBodyBytes
        self.silent = silent
        self.resetStreams = resetStreams
        self.goAwayErrorCode = goAwayErrorCode
    }

    /// The ranges a server can honour: statuses HTTP has, bodies it can hold, header values HTTP/2 allows.
    func validate() throws(InputError) {
        if let answer, !(100...599).contains(answer.status) {
            throw InputError(MockSettingProblem.answerStatus(given: answer.status), kind: .usage)
        }
        if let answerCount, answerCount < 0 {
            throw InputError(MockSettingProblem.answerCount(given: answerCount), kind: .usage)
        }
        guard (0...Self.padBodyLimit).contains(padBodyBytes) else {
            throw InputError(MockSettingProblem.bodyPadding(given: padBodyBytes, highest: Self.padBodyLimit), kind: .usage)
        }
        guard (0...Self.delayLimitMilliseconds).contains(responseDelayMilliseconds) else {
            throw InputError(
                MockSettingProblem.responseDelay(givenMilliseconds: responseDelayMilliseconds, highestMilliseconds: Self.delayLimitMilliseconds), kind: .usage)
        }
        if let retryAfter, !Self.isSendableHeaderValue(retryAfter) {
            throw InputError(MockSettingProblem.retryAfterControlCharacter, kind: .usage)
        }
    }

    /// The longest ``responseDelayMilliseconds``: an hour.
    public static let delayLimitMilliseconds = 3_600_000

    /// RFC 9113 §8.2.1: no NUL, CR or LF in a field value (and NIOHTTP2 refuses to send one).
    public static func isSendableHeaderValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0 || $0 == 0x0A || $0 == 0x0D }
    }

    /// HTTP/2 error codes (RFC 9113 §7) by name, for ``goAwayErrorCode``.
    public static let http2ErrorCodes: [(name: String, code: UInt32)] = [
        ("NO_ERROR", 0x0), ("PROTOCOL_ERROR", 0x1), ("INTERNAL_ERROR", 0x2), ("FLOW_CONTROL_ERROR", 0x3),
        ("SETTINGS_TIMEOUT", 0x4), ("STREAM_CLOSED", 0x5), ("FRAME_SIZE_ERROR", 0x6), ("REFUSED_STREAM", 0x7),
        ("CANCEL", 0x8), ("COMPRESSION_ERROR", 0x9), ("CONNECT_ERROR", 0xa), ("ENHANCE_YOUR_CALM", 0xb),
        ("INADEQUATE_SECURITY", 0xc), ("HTTP_1_1_REQUIRED", 0xd),
    ]

    /// An HTTP/2 error code from its name (`PROTOCOL_ERROR`, any case) or number (`1`, `0x1`).
    public static func parseHTTP2ErrorCode(_ text: String) -> UInt32? {
        if let known = http2ErrorCodes.first(where: { $0.name.lowercased() == text.lowercased() }) { return known.code }
        if text.lowercased().hasPrefix("0x") { return UInt32(text.dropFirst(2), radix: 16) }
        return UInt32(text)
    }

    /// `PROTOCOL_ERROR (0x1)`, or just the number for a code RFC 9113 does not name.
    public static func describeHTTP2ErrorCode(_ code: UInt32) -> String {
        let hex = "0x" + String(code, radix: 16)
        return http2ErrorCodes.first { $0.code == code }.map { "\($0.name) (\(hex))" } ?? hex
    }

    /// Parses `TOKEN=REASON` (as `pushctl mock --fail` takes it): a hex device token of 32 bytes or
    /// more (a shorter one is answered BadDeviceToken before any rule, as APNs would) and a reason
    /// APNs documents, spelled as APNs spells it (case does not matter).
    public static func parseFailure(_ spec: String) throws(InputError) -> (DeviceToken, RejectionReason) {
        guard let equals = spec.firstIndex(of: "=") else {
            throw InputError(MockSettingProblem.failureForm(given: spec), kind: .usage)
        }
        let token = try DeviceToken(parsing: String(spec[..<equals]))
        guard token.hex.utf8.count >= DeviceToken.usualHexLength else {
            throw InputError(MockSettingProblem.shortToken(short: token.short, bytes: token.hex.utf8.count / 2), kind: .usage)
        }
        return (token, try parseReason(String(spec[spec.index(after: equals)...])))
    }

    /// A reason APNs documents, spelled as APNs spells it (case does not matter).
    public static func parseReason(_ name: String) throws(InputError) -> RejectionReason {
        guard let reason = RejectionReason.allKnown.first(where: { $0.apnsName.lowercased() == name.lowercased() }) else {
            throw InputError(MockSettingProblem.unknownReason(given: name), kind: .usage)
        }
        return reason
    }
}
