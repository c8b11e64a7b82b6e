import Foundation
import PushCore
import PushCrypto
import PushCurl

/// Everything `send` needs, resolved from flags and environment and checked before
/// anything is sent: any problem throws, and the process exits with nothing sent.
struct SendRequest {
    let template: PushTemplate
    let tokens: DeviceTokens
    let baseURL: String
    let caCertificate: String?
    let authorization: any AuthorizationSource
    /// How the payload was given, for the equivalent curl command.
    let payloadFile: String?

    init(command c: SendCommand, env: [String: String]) throws(InputError) {
        guard let topic = c.topic ?? env["PUSHCTL_TOPIC"].nonEmpty else {
            throw InputError("missing --topic (or PUSHCTL_TOPIC): your app's bundle id, e.g. com.example.app", status: .usage)
        }
        if c.deviceTokens.isEmpty && c.tokensFile == nil {
            throw InputError("missing --device-token (or --tokens-file): the hex token your app got from APNs", status: .usage)
        }

        let payload: Payload
        if let path = c.payload {
            payload = try Payload(bytes: try InputFiles.read(path, what: "payload file"), source: path == "-" ? "standard input" : path)
            payloadFile = path == "-" ? nil : path
        } else if let json = c.payloadJson {
            payload = try Payload(bytes: Array(json.utf8), source: "--payload-json")
            payloadFile = nil
        } else if !c.builder.isEmpty {
            payload = try c.builder.build()
            payloadFile = nil
        } else {
            throw InputError("missing payload: give --payload FILE, --payload-json JSON, or builder flags such as --title and --body",
                             hint: "see `pushctl send --help`", status: .usage)
        }

        template = try PushTemplate(
            PushSpec(topic: topic, pushType: c.pushType, priority: c.priority, collapseID: c.collapseId,
                     expiration: c.expiration, apnsID: c.apnsId),
            payload: payload)

        if let path = c.tokensFile {
            tokens = .file(try TokenFile(path))
        } else {
            var list: [DeviceToken] = []
            for text in c.deviceTokens { list.append(try DeviceToken(parsing: text)) }
            tokens = .list(list)
            let unusual = list.filter(\.hasUnusualLength)
            if !unusual.isEmpty && !c.quiet {
                Console.warn(unusual.count == 1
                    ? "device token \(unusual[0].short) has \(unusual[0].hex.count) hex digits; Apple's are usually 64 (sending anyway)"
                    : "\(unusual.count) device tokens do not have the usual 64 hex digits (sending anyway)")
            }
        }
        if c.apnsId != nil && tokens.count > 1 {
            throw InputError("--apns-id names one notification, but there are \(tokens.count) device tokens",
                             hint: "leave it out and APNs gives each notification its own id")
        }

        (baseURL, caCertificate) = try SendRequest.endpoint(c, env: env)
        authorization = try SendRequest.authorization(c, env: env)
    }

    static func endpoint(_ c: SendCommand, env: [String: String]) throws(InputError) -> (String, String?) {
        let ca = c.cacert ?? env["PUSHCTL_CACERT"].nonEmpty
        if let url = c.endpoint ?? (c.sandbox || c.production ? nil : env["PUSHCTL_ENDPOINT"].nonEmpty) {
            var base = url
            while base.hasSuffix("/") { base.removeLast() }
            guard base.hasPrefix("https://"), base.count > "https://".count, !base.dropFirst(8).contains("/") else {
                throw InputError("--endpoint '\(url)' is not an https://host[:port] URL",
                                 hint: "APNs is HTTPS only, e.g. https://127.0.0.1:8443 for pushctl mock")
            }
            return (base, ca)
        }
        var environment = APNsEnvironment.sandbox
        if c.production {
            environment = .production
        } else if !c.sandbox, let name = env["PUSHCTL_ENV"].nonEmpty {
            guard let chosen = APNsEnvironment(rawValue: name) else {
                throw InputError("PUSHCTL_ENV is '\(name)'; it must be sandbox or production", status: .usage)
            }
            environment = chosen
        }
        let port = c.port.map { $0 == 443 ? "" : ":\($0)" } ?? ""
        return ("https://" + environment.host + port, ca)
    }

    static func authorization(_ c: SendCommand, env: [String: String]) throws(InputError) -> any AuthorizationSource {
        if let token = c.jwt ?? env["PUSHCTL_JWT"].nonEmpty {
            let decoded = try DecodedJWT(parsing: token)
            for check in ProviderTokenRules.audit(decoded, now: Int64(Date().timeIntervalSince1970)) where check.outcome == .failure {
                Console.warn("the given JWT: \(check.message)")
            }
            return FixedAuthorization(token: decoded.compact)
        }
        let hasKeyFile = c.auth.keyFile != nil || env["PUSHCTL_KEY_FILE"].nonEmpty != nil
        guard hasKeyFile else {
            throw InputError("send needs a provider token: --key-file with --team-id (and --key-id unless the file is AuthKey_<KEYID>.p8), or --jwt",
                             status: .usage)
        }
        let auth = try c.auth.resolve()
        let keyFile = try KeyFile(path: auth.keyFile)
        let cache = c.noJwtCache ? nil : ProviderTokenCache.standard(environment: env)
        let signer = SigningAuthorization(keyFile: keyFile, keyID: auth.keyID, teamID: auth.teamID, cache: cache)
        // A token cached by an earlier run needs no key work at all; otherwise the key is
        // parsed now, so that a bad key stops the run (exit 65) before anything is sent.
        if !signer.adoptCachedToken() { _ = try keyFile.privateKey() }
        InputFiles.warnIfShared(auth.keyFile)
        return signer
    }

    func transportConfiguration(_ c: SendCommand) -> CurlTransportConfiguration {
        CurlTransportConfiguration(
            baseURL: baseURL, caCertificateFile: caCertificate, concurrency: c.concurrency, connections: c.connections,
            connectTimeout: min(c.timeout, 10), timeout: c.timeout, verbose: c.verbose, showSecrets: c.showSecrets)
    }
}

/// The device tokens of one run: from the flags, or streamed from a file.
enum DeviceTokens: Sequence {
    case list([DeviceToken])
    case file(TokenFile)

    var count: Int {
        switch self {
        case let .list(tokens): return tokens.count
        case let .file(file): return file.count
        }
    }

    enum Iterator: IteratorProtocol {
        case list(IndexingIterator<[DeviceToken]>)
        case file(TokenFile.Iterator)

        mutating func next() -> DeviceToken? {
            switch self {
            case var .list(iterator):
                let token = iterator.next()
                self = .list(iterator)
                return token
            case let .file(iterator):
                return iterator.next()
            }
        }
    }

    func makeIterator() -> Iterator {
        switch self {
        case let .list(tokens): return .list(tokens.makeIterator())
        case let .file(file): return .file(file.makeIterator())
        }
    }
}
