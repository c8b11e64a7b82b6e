public import PushCore

// Results: what each answer (or its absence) means, the notes a result carries, the summary
// line, and a result as JSON with its explanation in a language. Rendered once per result line,
// never on a push's way: the dispatcher makes codes, and an accepted JSON line needs no words.

extension ResultExplanation {
    public var words: Words {
        switch self {
        case .accepted:
            return PushResult.acceptedExplanation
        case .callAccepted:
            return Words("accepted by APNs", es: "aceptada por APNs")
        case .answered(let reason, let lastValid, let limit):
            var explanation = reason.explanation
            if let ms = lastValid {
                let date = UTCDate.format(unixSeconds: ms / 1000)
                explanation = Words("since \(date), ", es: "desde el \(date), ") + explanation
            }
            return limit.map { explanation + Words(verbatim: "; ") + $0.words } ?? explanation
        case .failed(let failure, let attempts, let limit):
            let notSent = Words(" (not sent)", es: " (no se envió)")
            // Its words already begin "not sent: ".
            if case .abandoned(.notSent) = failure { return failure.words }
            if case .unreachable = failure { return failure.words + (attempts == 0 ? notSent : Words(verbatim: "")) }
            let count =
                attempts == 0
                ? notSent
                : attempts > 1 ? Words(" (after \(attempts) attempts)", es: " (tras \(attempts) intentos)") : Words(verbatim: "")
            return failure.words + count + (limit.map { Words(verbatim: "; ") + $0.words } ?? Words(verbatim: ""))
        case .stopped(let note, let request):
            return note.words(request)
        case .recorded(let text):
            return Words(verbatim: text)
        }
    }
}

extension StopNote {
    /// What a stopped run says of a notification, `request` ("SIGTERM") having stopped it.
    public func words(_ request: String) -> Words {
        switch self {
        case .notSent:
            return Words("not sent: the run was stopped (\(request)) before it", es: "no se envió: el envío se detuvo (\(request)) antes")
        case .notSentAgain:
            return Words(
                "not accepted, and not sent again: the run was stopped (\(request)) before its retry; safe to send again",
                es: "no aceptada, y no se volvió a enviar: el envío se detuvo (\(request)) antes de reintentarla; se puede volver a enviar")
        case .inDoubt:
            return Words(
                "sent, but not answered before the run was stopped (\(request)): APNs may have it",
                es: "enviada, pero sin respuesta antes de que el envío se detuviera (\(request)): puede que APNs la tenga")
        case .timedOut:
            return Words(
                "its last attempt timed out, and the run was stopped (\(request)) before a retry: APNs may have it",
                es: "su último intento agotó el tiempo y el envío se detuvo (\(request)) antes de reintentarla: puede que APNs la tenga")
        }
    }
}

extension RetryLimit {
    public var words: Words {
        switch self {
        case .retryAfterTooLong(let seconds, let longest):
            return Words(
                "the server asked to wait \(seconds) s (Retry-After), longer than pushctl waits (\(longest) s); try again later",
                es: "el servidor pidió esperar \(seconds) s (Retry-After), más de lo que espera pushctl (\(longest) s); inténtalo más tarde")
        case .timeSpent(let seconds):
            return Words(
                "gave up after \(seconds) s, the time allowed for one notification's retries",
                es: "abandonada tras \(seconds) s, el tiempo que se permite para los reintentos de una notificación")
        }
    }
}

extension TransportFailure {
    /// What happened, in every language (the detail is libcurl's or the server's, as it came).
    public var words: Words {
        switch self {
        case .unreachable(let m, _): return Words("could not reach APNs: \(m)", es: "no se pudo conectar con APNs: \(m)")
        case .timedOut(let m): return Words("no answer in time: \(m)", es: "sin respuesta a tiempo: \(m)")
        case .connectionLost(let m): return Words("connection lost before an answer: \(m)", es: "se perdió la conexión antes de la respuesta: \(m)")
        case .refused(let m): return Words("the server takes no requests: \(m)", es: "el servidor no acepta peticiones: \(m)")
        case .other(let m): return Words(verbatim: m)
        case .abandoned(let reason): return reason.words
        }
    }
}

extension AbandonReason {
    public var words: Words {
        switch self {
        case .silentServer(let silence):
            return Words(
                "the server has answered nothing for \(silence) s; gave up on the notifications not yet answered",
                es: "el servidor lleva \(silence) s sin responder nada; se abandonan las notificaciones aún sin respuesta")
        case .unansweredServer(let silence, let last):
            return Words("the server has answered no request for \(silence) s (", es: "el servidor lleva \(silence) s sin responder ninguna petición (")
                + last.words
                + Words("); gave up on the notifications not yet answered", es: "); se abandonan las notificaciones aún sin respuesta")
        case .notSent(let problem):
            return Words("not sent: ", es: "no se envió: ") + problem.words
        }
    }
}

/// A note said in words by a module above the core (the engine), carried with a result.
public final class SaidNote: ResultNote {
    public let words: Words

    public init(_ words: Words) { self.words = words }
}

extension PushResult {
    public static let acceptedExplanation = Words(
        "accepted by APNs; delivery to the device is up to APNs and the device's state",
        es: "aceptada por APNs; la entrega al dispositivo depende de APNs y del estado del dispositivo")

    /// What the answer means and what to do, in every language.
    public var explanationWords: Words { explanationCode.words }

    /// More to say than the explanation (e.g. what the other environment answered), in words.
    public var note: Words? {
        get {
            // Most results carry no note: no cast for them (a result line is written per push).
            guard let noteCode else { return nil }
            return (noteCode as? SaidNote)?.words
        }
        set { noteCode = newValue.map(SaidNote.init) }
    }

    /// `json` as one compact line, its explanation in `language`.
    public func jsonLine(_ language: Language = .en, naming: SettingNaming = .plain) -> String {
        var bytes: [UInt8] = []
        appendJSONLine(to: &bytes, language: language, naming: naming)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `json` as one compact line (no newline). The common case (accepted, ids of plain
    /// printable ASCII) is written byte by byte; anything else goes through `JSONValue`, which
    /// escapes what it must.
    public func appendJSONLine(to out: inout [UInt8], language: Language = .en, naming: SettingNaming = .plain) {
        func plain(_ s: String?) -> Bool {
            guard var s else { return true }
            // Over the contiguous bytes, one table load a byte: the UTF-8 view's iterator, or a
            // chain of comparisons, does several times the work for each byte of every result line.
            return s.withUTF8 { bytes in PushResult.plainByte.withUnsafeBufferPointer { plain in bytes.allSatisfy { plain[Int($0)] } } }
        }
        guard subject.kind == .device, outcome == .accepted, status == 200, !detectedEnvironment, !resumed, noteCode == nil,
            plain(apnsID), plain(apnsUniqueID)
        else {
            out.append(contentsOf: json(language, naming: naming).compact.utf8)
            return
        }
        func field(_ s: String?) {
            if let s {
                out.append(0x22)
                out.append(contentsOf: s.utf8)
                out.append(0x22)
            } else {
                out.append(contentsOf: "null".utf8)
            }
        }
        out.append(contentsOf: #"{"token":""#.utf8)
        out.append(contentsOf: subject.name.utf8)
        out.append(contentsOf: #"","status":200,"outcome":"accepted","apnsId":"#.utf8)
        field(apnsID)
        out.append(contentsOf: #","apnsUniqueId":"#.utf8)
        field(apnsUniqueID)
        out.append(contentsOf: language == .es ? PushResult.acceptedTailSpanish : PushResult.acceptedTail)
        out.append(contentsOf: String(attempts).utf8)
        out.append(0x7D)
    }

    /// The bytes a JSON string holds as they are: printable ASCII but `"` and a backslash.
    private static let plainByte: [Bool] = (0...255).map { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }

    private static func tail(_ language: Language) -> [UInt8] {
        Array(#","reason":null,"timestamp":null,"explanation":\#(JSONValue.string(acceptedExplanation.text(language)).compact),"attempts":"#.utf8)
    }
    private static let acceptedTail = tail(.en)
    private static let acceptedTailSpanish = tail(.es)

    /// The fields of `--output json` and `jsonl`, the explanation in `language` (English unless
    /// the user chose one: machine output does not follow the locale): `subject` first (the token,
    /// the channel, or the call), then the answer, then `extra` (what a channel call's answer said:
    /// a channel's settings, the channel list).
    public func json(_ language: Language = .en, naming: SettingNaming = .plain, extra: [(String, JSONValue)] = []) -> JSONValue {
        var marks: [(String, JSONValue)] = []
        if detectedEnvironment { marks.append(("environment", environment.map { JSONValue.string($0.rawValue) } ?? .null)) }
        if let stopped { marks.append(("stopped", .string(stopped.rawValue))) }
        if resumed { marks.append(("resumed", .bool(true))) }
        // The id APNs answered with: apns-id for a device, apns-request-id for the broadcast API.
        let id: (key: String, value: String?) =
            subject.kind == .device || subject.kind == .line ? ("apnsId", apnsID) : ("apnsRequestId", channelAnswer?.requestID)
        return ResultObject.fields(
            subject: subject.jsonFields, status: status, outcome: outcome,
            id: id, uniqueID: apnsUniqueID, reason: reason?.apnsName, timestamp: timestamp,
            explanation: explanationWords.text(language, naming: naming) + (note.map { "; " + $0.text(language, naming: naming) } ?? ""),
            attempts: attempts, marks: marks + extra)
    }
}

extension RequestSubject {
    /// What a result object names first (`ResultObject`): the token, the channel, or the call.
    public var jsonFields: [(String, JSONValue)] {
        switch kind {
        case .device: return [("token", .string(name))]
        case .channel: return [("channelId", .string(name))]
        case .channelCall: return [("call", .string(name))]
        case .line: return [("line", .integer(Int64(name) ?? 0))]
        }
    }

    /// How a line for people names it: the token, "channel ID", "channel create".
    public var label: Words {
        switch kind {
        case .device: Words(verbatim: name)
        case .line: Words("line \(name)", es: "línea \(name)")
        case .channel, .channelCall: Words("channel \(name)", es: "canal \(name)")
        }
    }
}

extension SummaryNoun {
    /// The noun for one.
    public var one: Words {
        switch self {
        case .token: return Words("token", es: "token")
        case .channel: return Words("channel", es: "canal")
        }
    }

    /// The noun for several (or none).
    public var many: Words {
        switch self {
        case .token: return Words("tokens", es: "tokens")
        case .channel: return Words("channels", es: "canales")
        }
    }
}

extension BatchSummary {
    /// One line for people: "3 tokens: 2 accepted, 1 rejected (Unregistered 1) in 210 ms".
    public var line: Words {
        let shardPart = shard.map { Words("shard \($0): ", es: "fragmento \($0): ") } ?? Words(verbatim: "")
        var line = shardPart + counts + Words(" in \(elapsedText)", es: " en \(elapsedText)")
        if tokens - resumed >= 100 {
            line = line + Words(" (\(Int(pushesPerSecond)) pushes/s)", es: " (\(Int(pushesPerSecond)) notificaciones/s)")
        }
        if let stoppedBy {
            line = Words("stopped by \(stoppedBy.name): ", es: "detenido por \(stoppedBy.name): ") + line
        }
        return line
    }

    /// How many reasons a summary line names (the most frequent).
    public static let reasonsShown = 5

    /// What the results count, without the time: "3 tokens: 2 accepted, 1 rejected (Unregistered 1)".
    public var counts: Words {
        var parts = [Words("\(accepted) accepted", es: "\(accepted) \(accepted == 1 ? "aceptada" : "aceptadas")")]
        if rejected > 0 {
            // The most frequent few: a file of thousands of made-up reasons still gives one line.
            let top = topReasons
            let reasons = top.prefix(Self.reasonsShown).map { "\($0.cause.name) \($0.count)" }.joined(separator: ", ")
            let more = top.count - Self.reasonsShown
            parts.append(
                Words(
                    "\(rejected) rejected (\(reasons)\(more > 0 ? ", \(more) more reasons" : ""))",
                    es: "\(rejected) \(rejected == 1 ? "rechazada" : "rechazadas") (\(reasons)\(more > 0 ? ", \(more) motivos más" : ""))"))
        }
        if temporaryFailures > 0 {
            parts.append(
                Words(
                    "\(temporaryFailures) failed temporarily",
                    es: "\(temporaryFailures) con un fallo temporal"))
        }
        if unreachable > 0 {
            parts.append(Words("\(unreachable) not delivered to APNs", es: "\(unreachable) sin llegar a APNs"))
        }
        if notSent > 0 { parts.append(Words("\(notSent) not sent", es: "\(notSent) sin enviar")) }
        if inDoubt > 0 { parts.append(Words("\(inDoubt) in doubt", es: "\(inDoubt) en duda")) }
        if retried > 0 { parts.append(Words.count(retried, Words("retry", es: "reintento"), Words("retries", es: "reintentos"))) }
        if resumed > 0 {
            parts.append(Words("\(resumed) from the journal", es: "\(resumed) del diario"))
        }
        if duplicatesSkipped > 0 {
            parts.append(
                duplicatesSkipped == 1
                    ? Words("1 duplicate token skipped", es: "1 token repetido omitido")
                    : Words("\(duplicatesSkipped) duplicate tokens skipped", es: "\(duplicatesSkipped) tokens repetidos omitidos"))
        }
        return Words.count(tokens, noun.one, noun.many) + Words(verbatim: ": ") + Words.joined(parts, separator: Words(verbatim: ", "))
    }
}

extension ShardProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .outOfRange(let index, let count):
            return Words(
                "a shard is K/N with 1 ≤ K ≤ N ≤ 10000; got \(index)/\(count)", es: "un fragmento es K/N con 1 ≤ K ≤ N ≤ 10000; se recibió \(index)/\(count)")
        case .notKN(let shown):
            return Words(
                "a shard is K/N, e.g. 2/4 (the second of four), auto or auto/N; got '\(shown)'",
                es: "un fragmento es K/N, p. ej. 2/4 (el segundo de cuatro), auto o auto/N; se recibió '\(shown)'")
        case .noEngine:
            return Words(
                "\(Setting.shard) auto reads GitLab's CI_NODE_INDEX and CI_NODE_TOTAL, AWS Batch's AWS_BATCH_JOB_ARRAY_INDEX and AWS_BATCH_JOB_ARRAY_SIZE, or Kubernetes' JOB_COMPLETION_INDEX, and none of them is set",
                es:
                    "\(Setting.shard) auto lee CI_NODE_INDEX y CI_NODE_TOTAL de GitLab, AWS_BATCH_JOB_ARRAY_INDEX y AWS_BATCH_JOB_ARRAY_SIZE de AWS Batch, o JOB_COMPLETION_INDEX de Kubernetes, y no hay ninguna definida"
            )
        case .severalEngines(let names):
            return Words(
                "\(names.joined(separator: " and ")) are all set, so it is not clear which engine's index this run is",
                es: "\(names.joined(separator: " y ")) están definidas a la vez, así que no está claro de qué motor es el índice de este envío")
        case .variableEmpty(let name):
            return Words("\(name) is set but empty", es: "\(name) está definida pero vacía")
        case .variableNotNumber(let name, let shown):
            return Words("\(name) is '\(shown)', not a whole number", es: "\(name) es '\(shown)', no un número entero")
        case .indexOutOfRange(let name, let value, let lowest, let highest):
            return Words(
                "\(name)=\(value) is outside \(lowest) to \(highest), the indexes of \(highest - lowest + 1) \(highest == lowest ? "copy" : "copies")",
                es: "\(name)=\(value) está fuera de \(lowest) a \(highest), los índices de \(highest - lowest + 1) \(highest == lowest ? "copia" : "copias")")
        case .countOutOfRange(let name, let value):
            return Words("\(name)=\(value): a run has 1 to 10000 shards", es: "\(name)=\(value): un envío tiene de 1 a 10000 fragmentos")
        case .countNeeded(let engine, let index):
            if engine == .kubernetes {
                return Words(
                    "Kubernetes gives each pod its index (JOB_COMPLETION_INDEX=\(index)) but not the count",
                    es: "Kubernetes da a cada pod su índice (JOB_COMPLETION_INDEX=\(index)) pero no el total")
            }
            let count = engine.countVariable ?? ""
            return Words("\(engine.indexVariable)=\(index) is set and \(count) is not", es: "\(engine.indexVariable)=\(index) está definida y \(count) no")
        case .countDisagrees(let name, let value, let given):
            return Words(
                "\(Setting.shard) auto/\(given) says \(given) shards, and \(name)=\(value) says \(value)",
                es: "\(Setting.shard) auto/\(given) dice \(given) fragmentos, y \(name)=\(value) dice \(value)")
        }
    }

    public var hintWords: Words? {
        switch self {
        case .noEngine, .severalEngines:
            return Words(
                "give the shard as \(Setting.shard) K/N, or run in a GitLab parallel job, an AWS Batch array job or a Kubernetes Indexed Job",
                es:
                    "indica el fragmento con \(Setting.shard) K/N, o ejecútalo en un trabajo parallel de GitLab, un trabajo en array de AWS Batch o un Indexed Job de Kubernetes"
            )
        case .countNeeded(let engine, _):
            return engine == .kubernetes
                ? Words(
                    "give the count with \(Setting.shard) auto/N, N being the Job's completions",
                    es: "indica el total con \(Setting.shard) auto/N, siendo N las completions del Job")
                : Words("give the count with \(Setting.shard) auto/N", es: "indica el total con \(Setting.shard) auto/N")
        case .countDisagrees:
            return Words(
                "leave out /N (\(Setting.shard) auto), or make it the engine's count", es: "quita /N (\(Setting.shard) auto), o haz que sea el total del motor")
        default:
            return nil
        }
    }
}

extension ShardChoice {
    /// "shard 2/3, from GitLab's CI_NODE_INDEX=2 and CI_NODE_TOTAL=3": what `--shard auto` read
    /// (nil for a shard typed as K/N).
    public var sourceWords: Words? {
        guard let engine else { return nil }
        var read = variables.map { Words(verbatim: $0) }
        if let givenCount, engine.countVariable.map({ name in !variables.contains { $0.hasPrefix(name + "=") } }) ?? true {
            read.append(Words.named(.shard) + Words(verbatim: " auto/\(givenCount)"))
        }
        let en = Words.joined(read, separator: Words(verbatim: " and "))
        let es = Words.joined(read, separator: Words(verbatim: " y "))
        switch engine {
        case .gitLab: return Words("shard \(shard), from GitLab's \(en)", es: "fragmento \(shard), de \(es) de GitLab")
        case .awsBatch: return Words("shard \(shard), from AWS Batch's \(en)", es: "fragmento \(shard), de \(es) de AWS Batch")
        case .kubernetes: return Words("shard \(shard), from Kubernetes' \(en)", es: "fragmento \(shard), de \(es) de Kubernetes")
        }
    }
}
