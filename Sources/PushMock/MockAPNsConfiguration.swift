public import PushCore
import Crypto
import Foundation

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
    /// SETTINGS_MAX_CONCURRENT_STREAMS after the first request with a valid token.
    public var maxConcurrentStreams: Int
    /// SETTINGS_MAX_CONCURRENT_STREAMS a connection starts with: 1, as APNs does. A benchmark
    /// may start higher, so that a client which cannot wait for the raise stays on one connection.
    public var initialConcurrentStreams: Int
    /// Appends one JSON line per request to this file.
    public var logPath: String?
    /// Failures to simulate; changeable while running with ``MockAPNsServer/faults``.
    public var faults: MockFaults
    /// How many of the latest requests ``MockAPNsServer/records`` keeps (0: none).
    public var recordLimit: Int
    /// Event loop threads; nil means one per core.
    public var threads: Int?

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
        threads: Int? = nil
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
    }

    /// Checks what can be wrong before binding: the team id's shape, the stream limit.
    func validated() throws(InputError) -> MockAPNsConfiguration {
        if let teamID { _ = try AppleIdentifier(.teamID, teamID) }
        guard (1...Int(Int32.max)).contains(maxConcurrentStreams) else {
            throw InputError("the stream limit must be between 1 and \(Int32.max); got \(maxConcurrentStreams)", status: .usage)
        }
        guard (1...maxConcurrentStreams).contains(initialConcurrentStreams) else {
            throw InputError("the initial stream limit must be between 1 and the stream limit (\(maxConcurrentStreams)); got \(initialConcurrentStreams)", status: .usage)
        }
        guard (0...65535).contains(port) else {
            throw InputError("the port must be between 0 and 65535; got \(port)", status: .usage)
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
        if let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) {
            publicKeyX963 = Array(key.publicKey.x963Representation)
        } else if let key = try? P256.Signing.PublicKey(pemRepresentation: pem) {
            publicKeyX963 = Array(key.x963Representation)
        } else {
            throw InputError(
                "the key for \(keyID) is not a P-256 key in PEM form",
                hint: "pass the .p8 file from your Apple Developer account, or a PEM public key")
        }
    }

    /// `PATH` (a file named `AuthKey_<KEYID>.p8`) or `KEYID=PATH`.
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
            throw InputError(
                "cannot tell the key id of '\(spec)'",
                hint: "name the file AuthKey_<KEYID>.p8, or pass KEYID=PATH",
                status: .usage)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError("cannot read the key file '\(path)'", hint: "check the path and its permissions", status: .noInput)
        }
        do {
            return try MockProviderKey(keyID: keyID, pem: String(decoding: data, as: UTF8.self))
        } catch {
            throw InputError("'\(path)': \(error.message)", hint: error.hint, status: error.status)
        }
    }
}

/// Failures the mock simulates, for clients' retry and batch logic.
///
/// Counters for ``refuseFirstStreams`` and ``refuseEveryNthStream`` run across the whole server;
/// ``goAwayAfterRequests`` and ``closeAfterRequests`` count requests on each connection.
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
        responseDelayMilliseconds: Int = 0
    ) {
        self.failTokens = failTokens
        self.failFirstAttempts = failFirstAttempts
        self.goAwayAfterRequests = goAwayAfterRequests
        self.goAwayReason = goAwayReason
        self.closeAfterRequests = closeAfterRequests
        self.refuseFirstStreams = refuseFirstStreams
        self.refuseEveryNthStream = refuseEveryNthStream
        self.responseDelayMilliseconds = responseDelayMilliseconds
    }

    /// Parses `TOKEN=REASON` (as `pushctl mock --fail` takes it): a hex device token and a reason
    /// APNs documents, spelled as APNs spells it (case does not matter).
    public static func parseFailure(_ spec: String) throws(InputError) -> (DeviceToken, RejectionReason) {
        guard let equals = spec.firstIndex(of: "=") else {
            throw InputError("--fail takes TOKEN=REASON, e.g. 00fc13ad…=Unregistered; got '\(spec)'", status: .usage)
        }
        let token = try DeviceToken(parsing: String(spec[..<equals]))
        let name = String(spec[spec.index(after: equals)...])
        guard let reason = RejectionReason.allKnown.first(where: { $0.apnsName.lowercased() == name.lowercased() }) else {
            throw InputError(
                "'\(name)' is not a reason APNs sends",
                hint: "use one of \(RejectionReason.allKnown.map(\.apnsName).joined(separator: ", "))",
                status: .usage)
        }
        return (token, reason)
    }
}
