import ArgumentParser
import Dispatch
import PushctlSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PushSystem
import PushCore
import PushWords
import PushFiles
import PushEngine
import PushCrypto
import PushCurl

extension Credentials {
    /// --topic, PUSHCTL_TOPIC, or the certificate's bundle id: the app of a channel call or broadcast.
    func topic(_ values: SettingValues) -> String? { values.value(.topic) ?? certificate?.certificate.uid }
}

/// How results of calls that are not for a device are shown on a terminal's stream.
enum CallOutput {
    static func line(_ r: PushResult, on fd: Int32 = Descriptors.standardOutput) -> String {
        ResultRenderer.line(for: r, style: TextResultStyle(colour: Console.useColour(on: fd), width: Console.width(of: fd)))
    }

    /// json's explanations: English unless the user chose a language.
    static var jsonLanguage: Language { Language.chosenExplicitly ? Language.current : .en }
}

/// `send --channel-id ID …`: one broadcast, POSTed to each channel, as the engine's plan.
enum BroadcastRun {
    static func run(_ c: SendCommand, env: EnvironmentVariables) throws {
        let values = c.settings
        let credentials = try Credentials.resolve(values, c.credentialOptions(quiet: c.quiet))
        guard let topic = credentials.topic(values) else {
            throw InputError(Words("missing --topic (or PUSHCTL_TOPIC): your app's bundle id, e.g. com.example.app", es: "falta --topic (o PUSHCTL_TOPIC): el bundle id de tu app, p. ej. com.example.app"), kind: .usage)
        }
        let now = WallClock.now()
        let (payload, _) = try SendSetup.payload(c.payloadInput, now: now)
        var spec = PushSpec(topic: topic, pushType: c.pushType, priority: c.priority.map(GivenNumber.text), expiration: c.expiration.map(GivenNumber.text), name: { "--" + $0.rawValue })
        spec.lint = !c.noLint
        spec.now = now
        let template = try BroadcastTemplate(spec, payload: payload, requestID: c.requestId)
        var channels: [String] = []
        for id in c.channelIds {
            let checked = try BroadcastAPI.channelID(id, name: "--channel-id")
            if !channels.contains(checked) { channels.append(checked) }
        }
        let destination = try Destination.resolve(values, service: .push, port: c.port)
        try credentials.requireEnvironment(destination.environment)
        var connection = c.connection
        try ProxyPolicy(values, credentialsFile: c.proxyUserFile).apply(to: &connection)
        connection.clientCertificate = credentials.clientCertificate
        connection.concurrency = 1
        connection.connections = 1
        if !c.quiet { template.warnings.map(\.words).forEach(Console.warn) }

        if c.dryRun {
            let request = template.request(channelID: channels[0])
            var out = ["\(request.shape.method.rawValue) \(destination.baseURL)\(request.path)"]
            out.append(credentials.certificatePath != nil ? "(no authorization header: the client certificate authenticates)" : "authorization: bearer [JWT redacted]")
            out += request.shape.headerLines
            out += ["", String(decoding: payload.bytes, as: UTF8.self), ""]
            if channels.count > 1 { out.append("… and the same to \(channels.count - 1) more channel(s)") }
            out.append("\(payload.bytes.count) bytes of payload (limit \(BroadcastAPI.payloadLimit)); nothing was sent (--dry-run).")
            out.forEach(Console.out)
            return
        }

        let plan = SendPlan(notifications: .broadcast(template, channels: channels), destination: destination, connection: connection,
                            authorization: credentials.authorization, policy: RetryPolicy(maxRetries: c.retries, requestTimeout: c.timeout))
        // The results as a device send writes them: one renderer, one shape of result.
        let renderer = ResultRenderer(format: c.output, sink: StandardOutput.shared, quiet: c.quiet,
                                      style: TextResultStyle(colour: Console.useColour(on: Descriptors.standardOutput), width: Console.width(of: Descriptors.standardOutput)),
                                      jsonLanguage: CallOutput.jsonLanguage)
        let shown = ClosureObserver { result in
            renderer.render(result)
            if c.output == .text { renderer.flush() }
        }
        let summary = try SendRun(plan: plan).run(observers: [shown] + (c.quiet ? [] : [StopNotice()]), stop: SignalStop(),
                                                  grace: min(SendCommand.stopGrace, c.timeout))
        let status: Int32 = summary.stoppedBy.map(SignalStop.exitStatus) ?? ExitStatus(summary.outcome).rawValue
        renderer.finish(summary, exitStatus: status)
        if !c.quiet { Console.say(summary.line) }
        if status != 0 { throw ExitCode(status) }
    }
}
