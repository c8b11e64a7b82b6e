import ArgumentParser
import Dispatch
import PushctlSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PushCore
import PushEngine
import PushCrypto
import PushCurl

/// The credentials `send --channel-id` and `channel` use, resolved as `send` resolves them.
struct CallCredentials {
    let authorization: any AuthorizationSource
    let certificate: ClientIdentity?
    let certificatePath: String?
    /// --topic, PUSHCTL_TOPIC, or the certificate's bundle id.
    let topic: String?

    init(_ flags: some CredentialFlags, topic flagTopic: String?, env: [String: String], quiet: Bool) throws(InputError) {
        let loaded = try CertificateChecks.load(flags, env: env, quiet: quiet)
        certificatePath = loaded?.path
        certificate = loaded?.identity
        topic = flagTopic ?? env["PUSHCTL_TOPIC"].nonEmpty ?? certificate?.certificate.uid
        authorization = certificate != nil ? CertificateAuthorization() : try SendRequest.authorization(flags, env: env)
    }

    func requireEnvironment(_ environment: APNsEnvironment?) throws(InputError) {
        if let certificate, let certificatePath, let environment {
            try CertificateChecks.requireEnvironment(certificate.certificate, environment, path: certificatePath)
        }
    }
}

/// How results of calls that are not for a device are shown.
enum CallOutput {
    static func line(_ label: String, _ r: CallResult) -> String {
        let mark: String
        switch r.outcome {
        case .accepted: mark = Console.paint("✓", .green)
        case .rejected: mark = Console.paint("✗", .red)
        default: mark = Console.paint("!", .yellow)
        }
        var text = "\(mark) \(label)  \(r.status.map(String.init) ?? "---")"
        if r.outcome == .accepted {
            if let id = r.requestID { text += "  apns-request-id \(id)" }
            if let id = r.apnsUniqueID { text += "  unique-id \(id)" }
        } else {
            text += (r.reason.map { " \($0)" } ?? "") + ": " + r.explanation
        }
        return text
    }

    static func json(_ r: CallResult, extra: [(String, JSONValue)]) -> JSONValue {
        func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        return .object(extra + [
            ("status", r.status.map { .integer(Int64($0)) } ?? .null),
            ("outcome", .string(r.outcome.rawValue)),
            ("reason", optional(r.reason)),
            ("explanation", .string(r.explanation)),
            ("apnsRequestId", optional(r.requestID)),
            ("apnsUniqueId", optional(r.apnsUniqueID)),
            ("attempts", .integer(Int64(r.attempts))),
        ])
    }
}

/// `send --channel-id ID …`: one broadcast, POSTed to each channel.
enum BroadcastRun {
    static func run(_ c: SendCommand, env: [String: String]) throws {
        let credentials = try CallCredentials(c, topic: c.topic, env: env, quiet: c.quiet)
        guard let topic = credentials.topic else {
            throw InputError("missing --topic (or PUSHCTL_TOPIC): your app's bundle id, e.g. com.example.app", kind: .usage)
        }
        let now = Int64(time(nil))
        let (payload, _) = try SendRequest.payload(c, now: now)
        var spec = PushSpec(topic: topic, pushType: c.pushType, priority: c.priority, expiration: c.expiration, name: { "--" + $0.rawValue })
        spec.lint = !c.noLint
        spec.now = now
        let template = try BroadcastTemplate(spec, payload: payload, requestID: c.requestId)
        var channels: [String] = []
        for id in c.channelIds {
            let checked = try BroadcastAPI.channelID(id, name: "--channel-id")
            if !channels.contains(checked) { channels.append(checked) }
        }
        let (baseURL, caCertificate, environment) = try SendRequest.endpoint(c, env: env)
        try credentials.requireEnvironment(environment)
        let proxy = try ProxySetting(url: c.proxy ?? env["PUSHCTL_PROXY"].nonEmpty, userFile: c.proxyUserFile)
        if !c.quiet { template.warnings.forEach(Console.warn) }

        if c.dryRun {
            let request = template.request(channelID: channels[0])
            var out = ["\(request.shape.method.rawValue) \(baseURL)\(request.path)"]
            out.append(credentials.certificatePath != nil ? "(no authorization header: the client certificate authenticates)" : "authorization: bearer [JWT redacted]")
            out += request.shape.headerLines
            out += ["", String(decoding: payload.bytes, as: UTF8.self), ""]
            if channels.count > 1 { out.append("… and the same to \(channels.count - 1) more channel(s)") }
            out.append("\(payload.bytes.count) bytes of payload (limit \(BroadcastAPI.payloadLimit)); nothing was sent (--dry-run).")
            out.forEach(Console.out)
            return
        }

        let configuration = SendRequest.transportConfiguration(
            baseURL: baseURL, caCertificate: caCertificate, proxy: proxy, certificate: credentials.certificate,
            concurrency: 1, connections: 1, timeout: c.timeout, verbose: c.verbose, showSecrets: c.showSecrets)
        let runner = try CallRunner(authorization: credentials.authorization, configuration: configuration,
                                    policy: RetryPolicy(maxRetries: c.retries, requestTimeout: c.timeout))
        var summary = BatchSummary()
        summary.noun = (Words("channel", es: "canal"), Words("channels", es: "canales"))
        var documents: [JSONValue] = []
        let started = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        for channel in channels {
            let result = runner.perform(template.request(channelID: channel))
            summary.add(result)
            let json = CallOutput.json(result, extra: [("channelId", .string(channel))])
            switch c.output {
            case .text: if !c.quiet { Console.out(CallOutput.line("channel \(channel)", result)) }
            case .jsonl: Console.out(json.compact)
            case .json: documents.append(json)
            }
        }
        summary.elapsedSeconds = Double(DispatchTime.now().uptimeNanoseconds) / 1e9 - started
        let status = ExitStatus(summary.outcome)
        switch c.output {
        case .text: if !c.quiet { Console.say(summary.line) }
        case .jsonl: Console.out(summary.json(exitStatus: status.rawValue).compact)
        case .json: Console.out(JSONValue.object([("results", .array(documents)), ("summary", summary.json(exitStatus: status.rawValue))]).pretty)
        }
        if status != .ok { throw ExitCode(status.rawValue) }
    }
}
