public import PushApp
public import PushCore
import PushFiles
public import PushMock
public import PushWords

/// What `pushctl mock` is asked to run, as values: the command line maps its flags to these, and
/// ``MockSession`` starts the server, the classroom's side and the banner from them.
public struct MockSettings: Sendable {
    public var host = "127.0.0.1"
    public var port = 0
    /// Provider keys: `AuthKey_<KEYID>.p8`, or `KEYID=PATH`.
    public var keyFiles: [String] = []
    public var keyDirectory: String?
    public var teamID: String?
    /// Where to write the CA certificate; nil: a private folder made for this run.
    public var caOut: String?
    public var logPath: String?
    public var logMaxSizeMiB = Int(MockAPNsConfiguration.defaultLogSizeLimit >> 20)
    /// CA certificate files whose client certificates are accepted too.
    public var clientCAPaths: [String] = []
    public var channelLimit = 10_000
    public var environment: APNsEnvironment = .sandbox
    public var maxStreams = 1000
    public var initialStreams = 1
    /// `TOKEN=REASON` each.
    public var failures: [String] = []
    /// `TOKEN=N:REASON` each.
    public var failFirst: [String] = []
    public var goAwayAfter: Int?
    public var closeAfter: Int?
    public var refuseEvery: Int?
    public var delayMilliseconds = 0
    /// A number or an HTTP/2 error code's name (``MockFaults/parseHTTP2ErrorCode(_:)``).
    public var goAwayError: String?
    /// An APNs reason's name.
    public var goAwayInstead: String?
    public var answerStatus: Int?
    public var answerBody: String?
    public var answerCount: Int?
    public var retryAfter: String?
    public var padBody = 0
    public var silent = false
    public var resetStreams = false
    /// Names for the server certificate besides this machine's.
    public var extraNames: [String] = []
    public var caPort: Int?
    public var webPort: Int?
    /// 0: tokens may change any time.
    public var tokenUpdateIntervalSeconds: Int64 = 20 * 60
    public var badTokenLimit: Int?
    /// 0: never.
    public var idleTimeoutSeconds = Double(MockProtocolLimits.defaultIdleTimeoutMilliseconds / 1000)
    public var resetLimit = 1000
    public var maxConnections = MockAPNsConfiguration.defaultConnectionLimit
    public var maxConnectionsPerAddress = 1000
    /// The app the notifications are for (`--app`): the web view shows its words and what the
    /// phone will do with each payload.
    public var appPath: String?
    /// The language of the banner, the web view and what the mock says about requests.
    public var language: Language = .en
    /// How the banner names the settings of the commands it shows (`pushctl send --endpoint …`):
    /// pushctl-mock gives pushctl's flags; a library caller's banner reads plain names.
    public var naming = SettingNaming.plain
    /// The app's language the web view shows (`--locale`); nil: its development region.
    public var locale: String?

    public init() {}

    var limits: MockProtocolLimits {
        MockProtocolLimits(
            tokenUpdateIntervalSeconds: tokenUpdateIntervalSeconds == 0 ? nil : tokenUpdateIntervalSeconds,
            badDeviceTokenLimit: badTokenLimit,
            idleTimeoutMilliseconds: idleTimeoutSeconds == 0 ? nil : max(1, Int((idleTimeoutSeconds * 1000).rounded())),
            streamResetLimit: resetLimit)
    }

    /// The faults to play, read from their specs.
    public func faults() throws(InputError) -> MockFaults {
        var faults = MockFaults()
        for spec in failures {
            let (token, reason) = try MockFaults.parseFailure(spec)
            faults.failTokens[token] = reason
        }
        for spec in failFirst {
            let (token, rule) = try Self.parseFailFirst(spec)
            faults.failFirstAttempts[token] = rule
        }
        faults.goAwayAfterRequests = goAwayAfter
        faults.closeAfterRequests = closeAfter
        faults.refuseEveryNthStream = refuseEvery
        faults.responseDelayMilliseconds = delayMilliseconds
        faults.goAwayErrorCode = goAwayError.flatMap(MockFaults.parseHTTP2ErrorCode) ?? 0
        if let goAwayInstead {
            faults.goAwayInstead = try MockFaults.parseReason(goAwayInstead)
        }
        faults.answer = answerStatus.map { MockFaults.Answer(status: $0, body: Array((answerBody ?? "").utf8)) }
        faults.answerCount = answerCount
        faults.retryAfter = retryAfter
        faults.padBodyBytes = padBody
        faults.silent = silent
        faults.resetStreams = resetStreams
        return faults
    }

    /// `TOKEN=N:REASON`
    public static func parseFailFirst(_ spec: String) throws(InputError) -> (DeviceToken, MockFaults.FailFirst) {
        let parts = spec.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let equals = parts[0].firstIndex(of: "="), let n = Int(parts[0][parts[0].index(after: equals)...]), n >= 1 else {
            throw InputError(MockSettingProblem.failFirstForm(given: spec), kind: .usage)
        }
        let (token, reason) = try MockFaults.parseFailure(String(parts[0][..<equals]) + "=" + parts[1])
        return (token, MockFaults.FailFirst(attempts: n, reason: reason))
    }

    /// A CA certificate file for --client-ca: PEM, at most 1 MB, read as pushctl reads its files.
    static func readClientCA(_ path: String) throws(InputError) -> String {
        let text = String(decoding: try InputFiles.read(path, what: .caCertificateFile), as: UTF8.self)
        guard text.contains("-----BEGIN CERTIFICATE-----") else {
            throw InputError(MockSettingProblem.clientCAWithoutPEM(path: path))
        }
        return text
    }

}

extension MockSettings {
    /// The web view's lens on `profile`: its display name, its words in `locale`, and the
    /// findings of each payload against it.
    public static func phoneLens(_ profile: AppProfile, locale: String?, environment: APNsEnvironment) -> PhoneLens {
        let check = AppCheck(app: profile)
        return PhoneLens(
            appName: profile.displayName,
            localized: { key, arguments in profile.text(key: key, arguments: arguments, locale: locale) },
            findings: { payload, pushType in
                check.findings(for: payload, options: AppCheck.Options(pushType: pushType, locale: locale, environment: environment))
            })
    }
}
