public import PushCore
import PushCrypto
public import PushWords

/// The notifications of one run: one template to tokens from the flags or a file, a requests
/// file whose every line is its own notification, one broadcast to channels, or one channel call.
public enum NotificationSource: Sequence {
    case list(PushTemplate, [DeviceToken], duplicates: Int)
    case file(PushTemplate, DeviceTokenFile)
    case requests(RequestsFile)
    /// The same broadcast to each channel (`send --channel-id`), in the order given.
    case broadcast(BroadcastTemplate, channels: [String])
    /// One channel management call (`pushctl channel …`) and its request.
    case channelCall(BroadcastAPI.ChannelCall, PushRequest)
    /// `--follow`: lines read as they arrive (`FollowInput`).
    case follow(FollowInput)

    /// One template to tokens as the user typed them: each parsed (Xcode's `<ab cd …>` is fine), a
    /// token given twice sent once, only `shard`'s part kept. The warnings are for the user: repeats
    /// skipped, tokens of an unusual length.
    public static func tokens(_ texts: [String], template: PushTemplate, shard: Shard?) throws(InputError) -> (NotificationSource, warnings: [Words]) {
        var list: [DeviceToken] = []
        // One token (a push from the terminal) needs no set of those seen.
        var seen: Set<DeviceToken>? = texts.count > 1 ? [] : nil
        var repeats = 0
        for text in texts {
            let token = try DeviceToken(parsing: text)
            if let shard, !shard.contains(token) { continue }
            if seen?.insert(token).inserted ?? true { list.append(token) } else { repeats += 1 }
        }
        var warnings: [Words] = []
        if repeats > 0 {
            warnings.append(
                repeats == 1
                    ? Words(
                        "1 repeated device token skipped: each token is sent once",
                        es: "se omitió 1 token del dispositivo repetido: cada token se envía una vez")
                    : Words(
                        "\(repeats) repeated device tokens skipped: each token is sent once",
                        es: "se omitieron \(repeats) tokens del dispositivo repetidos: cada token se envía una vez"))
        }
        let unusual = list.filter(\.hasUnusualLength)
        if unusual.count == 1 {
            warnings.append(
                Words(
                    "device token \(unusual[0].short) has \(unusual[0].hex.count) hex digits; Apple's are usually 64 (sending anyway)",
                    es:
                        "el token del dispositivo \(unusual[0].short) tiene \(unusual[0].hex.count) dígitos hexadecimales; los de Apple suelen tener 64 (se envía igualmente)"
                ))
        } else if unusual.count > 1 {
            warnings.append(
                Words(
                    "\(unusual.count) device tokens do not have the usual 64 hex digits (sending anyway)",
                    es: "\(unusual.count) tokens del dispositivo no tienen los 64 dígitos hexadecimales habituales (se envían igualmente)"))
        }
        return (.list(template, list, duplicates: repeats), warnings)
    }

    /// What the user should hear about the notification before the run: its template's warnings
    /// for this many notifications (a requests file's lines warn for themselves).
    public var templateWarnings: [Words] { template?.warnings(sending: count).map(\.words) ?? [] }

    /// What will be sent: distinct tokens, lines, channels, or the one call.
    public var count: Int {
        switch self {
        case .list(_, let tokens, _): return tokens.count
        case .file(_, let file): return file.count
        case .requests(let file): return file.count
        case .broadcast(_, let channels): return channels.count
        case .channelCall: return 1
        case .follow(let input): return input.count
        }
    }

    /// The one notification every token gets (nil for a requests file, whose lines carry their
    /// own, and for what is not sent to devices).
    public var template: PushTemplate? {
        switch self {
        case .list(let template, _, _), .file(let template, _): return template
        case .follow(let input): return input.sharedTemplate
        case .requests, .broadcast, .channelCall: return nil
        }
    }

    /// The part of the list this run sends, when it sends one part.
    public var shard: Shard? {
        switch self {
        case .list, .broadcast, .channelCall: return nil
        case .file(_, let file): return file.shard
        case .requests(let file): return file.shard
        case .follow(let input): return input.shard
        }
    }

    /// SHA-256 of what is sent to (the tokens in order, or the requests file's lines): what a journal
    /// tells its run by. Reads a tokens file once more; nil for a requests file read without it, and
    /// for broadcasts and channel calls (no journal: nothing of theirs to resume).
    public func digest() -> String? {
        let stream = SHA256Stream()
        switch self {
        case .list(_, let tokens, _):
            for token in tokens { stream.update(token.hex + "\n") }
        case .file(_, let file):
            file.file.digest(into: stream)
        case .requests(let file):
            // Taken during the check: a requests file is read once.
            return file.linesDigest
        case .broadcast, .channelCall, .follow:
            return nil
        }
        return stream.finishHex()
    }

    /// Repeated tokens skipped (each token is sent once; a requests file's lines are all sent).
    public var duplicates: Int {
        switch self {
        case .list(_, _, let duplicates): return duplicates
        case .file(_, let file): return file.duplicates
        case .requests, .broadcast, .channelCall, .follow: return 0
        }
    }

    /// Every checked notification got a result, or the source changed under the run (a file
    /// rewritten while it was sent): a clear error, never a quiet exit 0.
    public func verifyAllSent(_ results: Int) throws(InputError) {
        guard results != count else { return }
        let name: RunInputName
        switch self {
        case .list: name = .deviceTokens
        case .file(_, let file): name = .file(file.displayName)
        case .requests(let file): name = .file(file.displayName)
        case .broadcast: name = .channels
        case .channelCall: name = .channelCall
        case .follow(let input): name = .file(input.displayName)
        }
        throw InputError(RunInputProblem.changedDuringRun(name, count: count, sent: results), kind: .temporaryFailure)
    }

    /// Every notification, each carrying its place in the list (what a journal keys results by).
    /// A concrete iterator, not a type-erased chain: it runs once per push. (An index, not an
    /// `IndexingIterator`: that generic type's metadata costs a single push a scan of the
    /// runtime's conformance records.)
    public struct Iterator: IteratorProtocol {
        private enum Base {
            case list([DeviceToken], next: Int)
            case file(DeviceTokenFile.Iterator)
            case requests(RequestsFile.Iterator)
            /// Requests made up front (a broadcast's, one a channel; a channel call): the same layout
            /// as `list`, so a push's copy of `Base` stays a retain, not an outlined switch.
            case made([RunRequest], next: Int)
            case follow(FollowInput)
        }
        private var base: Base
        /// Kept beside the tokens, not in `Base`: a template bound out of an enum case is a copy,
        /// a retain and a release of each of its parts a push.
        private let template: PushTemplate?
        private var position = -1

        fileprivate init(_ source: NotificationSource) {
            template = source.template
            switch source {
            case .list(_, let tokens, _): base = .list(tokens, next: 0)
            case .file(_, let file): base = .file(file.makeIterator())
            case .requests(let file): base = .requests(file.makeIterator())
            case .broadcast(let template, let channels):
                base = .made(
                    channels.indices.map { RunRequest(subject: .channel(channels[$0]), request: template.request(channelID: channels[$0]), position: $0) },
                    next: 0)
            case .channelCall(let call, let request):
                base = .made([RunRequest(subject: .channelCall(call), request: request)], next: 0)
            case .follow(let input): base = .follow(input)
            }
        }

        public mutating func next() -> RunRequest? {
            // Counted first: a nil ends the list.
            position += 1
            switch base {
            case .list(let tokens, let index):
                guard index < tokens.count, let template else { return nil }
                base = .list(tokens, next: index + 1)
                return RunRequest(device: tokens[index], shape: template.shape, position: position)
            case .file(let tokens):
                guard let token = tokens.next(), let template else { return nil }
                return RunRequest(device: token, shape: template.shape, position: position)
            case .requests(let lines):
                guard let line = lines.next() else { return nil }
                var request = RunRequest(line)
                request.position = position
                return request
            case .made(let requests, let index):
                guard index < requests.count else { return nil }
                base = .made(requests, next: index + 1)
                return requests[index]
            case .follow(let input):
                // Each line's place is the input's own (a refused line takes one too).
                return input.next()
            }
        }
    }

    public func makeIterator() -> Iterator { Iterator(self) }

    /// A followed input, whose requests arrive while the run goes on.
    public var arriving: FollowInput? { if case .follow(let input) = self { input } else { nil } }
}
