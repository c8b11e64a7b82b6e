public import PushCore

// What a send was given: its recipients and payload, its input files, a Live Activity's fields,
// the Simulator it delivers to.

extension RunInputName {
    /// "the device tokens", "tokens.txt": the same in both languages, as the run names its input.
    public var words: Words {
        switch self {
        case .deviceTokens: return Words(verbatim: "the device tokens")
        case .file(let path): return Words.path(path)
        case .channels: return Words(verbatim: "the channels")
        case .channelCall: return Words(verbatim: "the channel call")
        }
    }
}

extension RunInputProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .missingTopic:
            return Words(
                "missing \(Setting.topic.either("or")): your app's bundle id, e.g. com.example.app",
                es: "falta \(Setting.topic.either("o")): el bundle id de tu app, p. ej. com.example.app")
        case .missingChannelTopic:
            return Words(
                "missing \(Setting.topic) (or PUSHCTL_TOPIC): your app's bundle id, e.g. com.example.app",
                es: "falta \(Setting.topic) (o PUSHCTL_TOPIC): el bundle id de tu app, p. ej. com.example.app")
        case .missingDeviceToken:
            return Words(
                "missing \(Setting.deviceToken) (or \(Setting.tokensFile), or \(Setting.requestsFile)): the hex token your app got from APNs",
                es: "falta \(Setting.deviceToken) (o \(Setting.tokensFile), o \(Setting.requestsFile)): el token hexadecimal que tu app recibió de APNs")
        case .missingPayload:
            return Words(
                "missing payload: give \(Setting.payload) FILE, \(Setting.payloadJSON) JSON, or builder flags such as \(Setting.title) and \(Setting.body)",
                es: "falta la carga útil: da \(Setting.payload) ARCHIVO, \(Setting.payloadJSON) JSON, u opciones como \(Setting.title) y \(Setting.body)")
        case .payloadFileIsJSON(let shown):
            return Words(
                "\(Setting.payload) takes a file, and '\(shown)' is JSON: give the JSON itself with \(Setting.payloadJSON)",
                es: "\(Setting.payload) espera un archivo, y '\(shown)' es JSON: pasa el JSON tal cual con \(Setting.payloadJSON)")
        case .apnsIDForSeveral(let count):
            return Words(
                "\(Setting.apnsID) names one notification, but there are \(count) device tokens",
                es: "\(Setting.apnsID) identifica una sola notificación, pero hay \(count) tokens del dispositivo")
        case .outputIsInput(let shown, let input):
            let noun = input == .requestsFile ? "requests file" : "tokens file"
            return Words(
                "'\(shown)' is the \(noun) itself; writing results to it would destroy the list being sent",
                es: "'\(shown)' es el propio archivo de entrada; escribir resultados en él destruiría la lista que se envía")
        case .journalNeedsDigest:
            return Words(
                "a journal needs the requests file's digest, and the file was read without it",
                es: "un diario necesita el resumen del archivo de peticiones, y el archivo se leyó sin él")
        case .engineFailed(let detail):
            return Words(verbatim: detail)
        case .noDeviceTokens(let path):
            return Words.path(path)
                + Words(
                    " has no device tokens (blank lines and # comments are skipped)",
                    es: " no tiene tokens del dispositivo (se saltan las líneas en blanco y los comentarios #)")
        case .noNotifications(let name):
            return Words("\(name) has no notifications (one JSON object per line)", es: "\(name) no tiene notificaciones (un objeto JSON por línea)")
        case .lineTooLong(let limit), .followedLineTooLong(let limit):
            return Words("longer than \(limit) bytes", es: "más larga de \(limit) bytes")
        case .stoppedReading(let path):
            return Words("stopped while reading ", es: "parado mientras se leía ") + Words.path(path)
        case .cannotRead(let path, let reason):
            return Words("cannot read ", es: "no se puede leer ") + Words.path(path) + Words(verbatim: ": ") + reason.words
        case .changedDuringRun(let name, let count, let sent):
            return name.words
                + Words(
                    " had \(count) notifications when checked, but \(sent) were sent: it changed during the run",
                    es: " tenía \(count) notificaciones al comprobarlo, pero se enviaron \(sent): cambió durante el envío")
        case .notUnixSeconds(let name, let given, let example):
            let shown = OutsideText.display(given)
            return Words(
                "\(name) must be UNIX seconds (a whole number, e.g. \(example)); got '\(shown)'",
                es: "\(name) debe ir en segundos UNIX (un número entero, p. ej. \(example)); se recibió '\(shown)'")
        case .relevanceScoreNotNumber(let shown):
            return Words(
                "\(Setting.relevanceScore) must be a number; got '\(shown)'", es: "\(Setting.relevanceScore) debe ser un número; se recibió '\(shown)'")
        case .jsonArgumentTooLarge(let setting, let file):
            let source = Self.source(setting, file: file)
            return Words("\(source) is over 64 KB; a whole push is at most 4 KB", es: "\(source) pasa de 64 KB; una notificación entera ocupa como mucho 4 KB")
        case .jsonArgumentNotJSON(let setting, let file, let diagnosis):
            let source = Self.source(setting, file: file)
            return Words("\(source) is not valid JSON: ", es: "\(source) no es JSON válido: ") + diagnosis.words
        case .xcrunMissing:
            return Words(
                "xcrun is not on PATH: `\(Setting.simulator)` runs `xcrun simctl push`, which comes with Xcode on macOS",
                es: "xcrun no está en el PATH: `\(Setting.simulator)` ejecuta `xcrun simctl push`, que viene con Xcode en macOS")
        case .simctlFailed(let status, let device):
            return Words(
                "xcrun simctl push exited with \(status): is the Simulator '\(device)' booted, and the app installed on it?",
                es: "xcrun simctl push terminó con \(status): ¿está arrancado el Simulador '\(device)' y la app instalada en él?")
        case .cannotRun(let program, let reason):
            return Words("cannot run \(program): ", es: "no se puede ejecutar \(program): ") + reason.words
        }
    }

    public var hintWords: Words? {
        switch self {
        case .missingPayload:
            return Words("see `pushctl send --help`", es: "consulta `pushctl send --help`")
        case .payloadFileIsJSON:
            return Words(
                #"for example: \#(Setting.payloadJSON) '{"aps":{"alert":"Hello"}}'"#,
                es: #"por ejemplo: \#(Setting.payloadJSON) '{"aps":{"alert":"Hola"}}'"#)
        case .apnsIDForSeveral:
            return Words("leave it out and APNs gives each notification its own id", es: "quítalo y APNs da a cada notificación su propio id")
        case .outputIsInput:
            return Words("write the results to another file", es: "escribe los resultados en otro archivo")
        case .lineTooLong:
            return Words(
                "check that this is the right file (one entry per line, LF or CRLF line ends)",
                es: "comprueba que es el archivo correcto (una entrada por línea, con finales LF o CRLF)")
        case .changedDuringRun:
            return Words(
                "do not rewrite the file while pushctl reads it; send the rest again",
                es: "no reescribas el archivo mientras pushctl lo lee; envía otra vez el resto")
        case .notUnixSeconds(let setting, let given, _):
            // "as UNIX seconds, that date (…) is 1796083200: --stale-date 1796083200", the setting named as it is shown.
            guard let date = DateGiven.suggestion(given, name: setting.plainName) else { return nil }
            return Words(
                "as UNIX seconds, that date (\(date.shown)) is \(date.seconds): \(setting) \(date.seconds)",
                es: "en segundos UNIX, esa fecha (\(date.shown)) es \(date.seconds): \(setting) \(date.seconds)")
        case .jsonArgumentNotJSON(_, _, let diagnosis):
            return diagnosis.named
                ? nil
                : Words(
                    "give a JSON object, e.g. '{\"score\":3}', or @FILE to read one",
                    es: "da un objeto JSON, p. ej. '{\"score\":3}', o @ARCHIVO para leerlo de un archivo")
        case .xcrunMissing:
            return Words(
                "on macOS, install Xcode (xcode-select --install for the tools); elsewhere, write the file with \(Setting.simulatorFile) and drag it onto a Simulator",
                es:
                    "en macOS, instala Xcode (xcode-select --install para las herramientas); en otro sistema, escribe el archivo con \(Setting.simulatorFile) y arrástralo al Simulador"
            )
        case .simctlFailed:
            return Words("xcrun simctl list devices booted shows the booted ones", es: "xcrun simctl list devices booted muestra los que están arrancados")
        case .missingTopic, .missingChannelTopic, .missingDeviceToken, .journalNeedsDigest, .engineFailed, .noDeviceTokens, .noNotifications,
            .followedLineTooLong, .stoppedReading, .cannotRead, .relevanceScoreNotNumber, .jsonArgumentTooLarge, .cannotRun:
            return nil
        }
    }

    /// The setting that was given JSON, or its file: "--content-state file 'state.json'".
    private static func source(_ setting: Setting, file: String?) -> Words {
        guard let file else { return .named(setting) }
        let shown = OutsideText.display(file)
        return Words("\(setting) file '\(shown)'", es: "el archivo de \(setting) '\(shown)'")
    }
}
