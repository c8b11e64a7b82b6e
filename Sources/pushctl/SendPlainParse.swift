import ArgumentParser
import PushctlSupport
import PushCore
import PushWords
import PushEngine

extension SendCommand {
    /// `pushctl send` read without the parser's reflection when its line is plain long options
    /// (`PlainLongOptions`): a single push runs 26 M fewer instructions of its 66 M. Nil for anything else, and
    /// for a line `validate()` refuses, so the parser reads it again and says what it says.
    ///
    /// Each option is named once here and once in its declaration; `PlainParseTests` parses lines
    /// both ways and requires the same command, so a new option or default that is missed here
    /// fails there.
    static func plainParse(_ arguments: [String]) -> SendCommand? {
        var words = arguments[...]
        // `pushctl --lang es send …`: the root's option, which the parser hands to send's group too.
        var rootLanguage: String? = nil
        if words.first == "--lang", words.count > 2, words[words.startIndex + 1].utf8.first != UInt8(ascii: "-") {
            rootLanguage = words[words.startIndex + 1]
            words = words.dropFirst(2)
        }
        guard words.first == configuration.commandName else { return nil }
        var line = PlainLongOptions(words.dropFirst())

        var command = SendCommand()
        command.jwt = line.option("jwt")
        command.noJwtCache = line.flag("no-jwt-cache")
        command.auth = .plain(&line)
        command.certificate = .plain(&line)
        command.recipientFlags = .plain(&line)
        command.payloadFlags = .plain(&line)
        command.liveActivityFlags = .plain(&line)
        command.broadcastFlags = .plain(&line)
        command.headerFlags = .plain(&line)
        command.whereFlags = .plain(&line)
        command.runFlags = .plain(&line)
        command.simulatorFlags = .plain(&line)
        command.outputFlags = .plain(&line)
        command.language = .plain(&line)
        if let rootLanguage {
            guard command.language.lang == nil else { return nil }
            command.language.lang = rootLanguage
        }
        guard line.complete, (try? command.validate()) != nil else { return nil }
        return command
    }
}

// Each group's options from a plain line, as `SendCommand.plainParse` reads them.

extension AuthOptions {
    static func plain(_ line: inout PlainLongOptions) -> Self {
        var group = AuthOptions()
        group.keyFile = line.option("key-file")
        group.keyId = line.option("key-id")
        group.teamId = line.option("team-id")
        return group
    }
}

extension CertificateOptions {
    static func plain(_ line: inout PlainLongOptions) -> Self {
        var group = CertificateOptions()
        group.cert = line.option("cert")
        group.certKey = line.option("cert-key")
        group.certPasswordFile = line.option("cert-password-file")
        return group
    }
}

extension RecipientFlags {
    static func plain(_ line: inout PlainLongOptions) -> Self {
        var group = RecipientFlags()
        group.topic = line.option("topic")
        group.deviceTokens = line.options("device-token")
        group.tokensFile = line.option("tokens-file")
        group.requestsFile = line.option("requests-file")
        group.shard = line.option("shard")
        return group
    }
}

extension PayloadFlags {
    static func plain(_ line: inout PlainLongOptions) -> Self {
        var group = PayloadFlags()
        group.payload = line.option("payload")
        group.payloadJson = line.option("payload-json")
        group.title = line.option("title")
        group.subtitle = line.option("subtitle")
        group.body = line.option("body")
        group.badge = line.option("badge")
        group.sound = line.option("sound")
        group.category = line.option("category")
        group.threadId = line.option("thread-id")
        group.contentAvailable = line.flag("content-available")
        group.mutableContent = line.flag("mutable-content")
        group.interruptionLevel = line.option("interruption-level")
        group.custom = line.options("custom")
        return group
    }
}

extension LiveActivityFlags {
    static func plain(_ line: inout PlainLongOptions) -> Self {
        var group = LiveActivityFlags()
        group.liveActivity = line.option("live-activity")
        group.timestamp = line.option("timestamp")
        group.contentState = line.option("content-state")
        group.staleDate = line.option("stale-date")
        group.dismissalDate = line.option("dismissal-date")
        group.relevanceScore = line.option("relevance-score")
        group.attributesType = line.option("attributes-type")
        group.attributes = line.option("attributes")
        group.inputPushToken = line.flag("input-push-token")
        group.inputPushChannel = line.option("input-push-channel")
        group.noLint = line.flag("no-lint")
        return group
    }
}

extension BroadcastFlags {
    static func plain(_ line: inout PlainLongOptions) -> Self {
        var group = BroadcastFlags()
        group.channelIds = line.options("channel-id")
        group.requestId = line.option("request-id")
        return group
    }
}

extension HeaderFlags {
    static func plain(_ line: inout PlainLongOptions) -> Self {
        var group = HeaderFlags()
        group.pushType = line.option("push-type")
        group.priority = line.option("priority")
        group.collapseId = line.option("collapse-id")
        group.expiration = line.option("expiration")
        group.apnsId = line.option("apns-id")
        return group
    }
}

extension WhereFlags {
    static func plain(_ line: inout PlainLongOptions) -> Self {
        var group = WhereFlags()
        group.sandbox = line.flag("sandbox")
        group.production = line.flag("production")
        group.endpoint = line.option("endpoint")
        group.port = line.option("port")
        group.cacert = line.option("cacert")
        group.proxy = line.option("proxy")
        group.proxyUserFile = line.option("proxy-user-file")
        group.connectTo = line.options("connect-to")
        return group
    }
}

extension RunFlags {
    static func plain(_ line: inout PlainLongOptions) -> Self {
        var group = RunFlags()
        group.concurrency = line.option("concurrency")
        group.connections = line.option("connections", default: 1)
        group.retries = line.option("retries", default: 3)
        group.timeout = line.option("timeout", default: 30)
        group.unregisteredOut = line.option("unregistered-out")
        group.detectEnvironment = line.flag("detect-environment")
        group.journal = line.option("journal")
        group.resume = line.flag("resume")
        group.skipInDoubt = line.flag("skip-in-doubt")
        group.metricsFile = line.option("metrics-file")
        group.metricsPush = line.option("metrics-push")
        return group
    }
}

extension SimulatorFlags {
    static func plain(_ line: inout PlainLongOptions) -> Self {
        var group = SimulatorFlags()
        group.simulatorFile = line.option("simulator-file")
        group.simulator = line.option("simulator")
        return group
    }
}

extension OutputFlags {
    static func plain(_ line: inout PlainLongOptions) -> Self {
        var group = OutputFlags()
        group.output = line.option("output", default: ResultFormat.text)
        group.dryRun = line.flag("dry-run")
        group.verbose = line.flag("verbose")
        group.showSecrets = line.flag("show-secrets")
        group.quiet = line.flag("quiet")
        return group
    }
}

extension LanguageOption {
    static func plain(_ line: inout PlainLongOptions) -> Self {
        var group = LanguageOption()
        group.lang = line.option("lang")
        return group
    }
}
