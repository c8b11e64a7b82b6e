public import PushCore

// Settings given together that contradict each other (`OptionConflict`).

extension OptionConflict: WordedProblem {
    public var words: Words {
        switch self {
        case .certificateAndToken:
            return Words(
                "\(Setting.certificate) authenticates with a certificate; \(Setting.keyFile) and \(Setting.jwt) with a provider token: give one way",
                es: "\(Setting.certificate) autentica con un certificado; \(Setting.keyFile) y \(Setting.jwt), con un token del proveedor: elige una forma")
        case .bothEnvironments:
            return Words(
                "\(Setting.sandbox) and \(Setting.production) exclude each other", es: "\(Setting.sandbox) y \(Setting.production) se excluyen entre sí")
        case .endpointAndEnvironment:
            return Words(
                "\(Setting.endpoint) replaces \(Setting.environment); give one", es: "\(Setting.endpoint) sustituye a \(Setting.environment); da solo uno")
        case .resumeWithoutJournal:
            return Words(
                "\(Setting.resume) carries on the run a journal holds: give \(Setting.journal) PATH too",
                es: "\(Setting.resume) continúa el envío que guarda un diario: indica también \(Setting.journal) RUTA")
        case .skipInDoubtWithoutResume:
            return Words(
                "\(Setting.skipInDoubt) decides what a resumed run does: give \(Setting.journal) PATH \(Setting.resume) too",
                es: "\(Setting.skipInDoubt) decide qué hace un envío reanudado: indica también \(Setting.journal) RUTA \(Setting.resume)")
        case .noCollapseIDWithoutJournal, .rateAndSpread, .rateNotNumber, .spreadNotDuration, .followNeedsFile, .notWithFollow:
            return pacingWords
        case .notWithSimulator(let setting):
            return Words(
                "the Simulator gets one notification for one app; \(setting) does not go with \(Setting.simulatorFile) or \(Setting.simulator)",
                es: "el Simulador recibe una notificación para una app; \(setting) no va con \(Setting.simulatorFile) ni con \(Setting.simulator)")
        case .metricsPushNotURL(let shown):
            return Words(
                "\(Setting.metricsPush) is a Pushgateway's http:// or https:// URL (e.g. http://pushgateway:9091); got '\(shown)'",
                es: "\(Setting.metricsPush) es la URL http:// o https:// de un Pushgateway (p. ej. http://pushgateway:9091); se recibió '\(shown)'")
        case .metricsWithBroadcast:
            return Words(
                "\(Setting.metricsFile) and \(Setting.metricsPush) count device pushes; a broadcast (\(Setting.channelID)) has none",
                es:
                    "\(Setting.metricsFile) y \(Setting.metricsPush) cuentan notificaciones a dispositivos; una difusión (\(Setting.channelID)) no tiene ninguna"
            )
        case .journalWithBroadcast:
            return Words(
                "\(Setting.journal) keeps the results of device pushes; a broadcast (\(Setting.channelID)) has one result per channel and none to resume",
                es: "\(Setting.journal) guarda los resultados de notificaciones a dispositivos; una difusión (\(Setting.channelID)) no tiene nada que reanudar")
        case .detectWithEndpoint:
            return Words(
                "\(Setting.detectEnvironment) tries Apple's other host; it does not go with \(Setting.endpoint)",
                es: "\(Setting.detectEnvironment) prueba el otro servidor de Apple; no va con \(Setting.endpoint)")
        case .detectNeedsDeviceTokens:
            return Words(
                "\(Setting.detectEnvironment) works with \(Setting.deviceToken) and \(Setting.tokensFile)",
                es: "\(Setting.detectEnvironment) funciona con \(Setting.deviceToken) y \(Setting.tokensFile)")
        case .connectToForm(let shown):
            return Words(
                "\(Setting.connectTo) is HOST:PORT:CONNECT-HOST:CONNECT-PORT (e.g. api.push.apple.com:443:10.0.0.5:443); got '\(shown)'",
                es: "\(Setting.connectTo) es HOST:PUERTO:HOST-DESTINO:PUERTO-DESTINO (p. ej. api.push.apple.com:443:10.0.0.5:443); se recibió '\(shown)'")
        case .portNotApple:
            return Words(
                "\(Setting.port) is 443 or 2197 (the ports APNs listens on); for another server use \(Setting.endpoint)",
                es: "\(Setting.port) es 443 o 2197 (los puertos en los que escucha APNs); para otro servidor usa \(Setting.endpoint)")
        case .outOfRange(let setting, let lowest, let highest, let given):
            return Words(
                "\(setting) must be between \(lowest) and \(highest); got \(given)",
                es: "\(setting) debe estar entre \(lowest) y \(highest); se recibió \(given)")
        case .secondsOutOfRange(let setting, let highest, let given):
            return Words(
                "\(setting) must be more than 0 and at most \(highest) seconds; got \(given)",
                es: "\(setting) debe ser mayor que 0 y como mucho \(highest) segundos; se recibió \(given)")
        case .standardInputTwice(let recipients):
            return Words(
                "\(Setting.payload) - and \(recipients) - cannot both read standard input; give one of them as a file",
                es: "\(Setting.payload) - y \(recipients) - no pueden leer los dos la entrada estándar; da uno de ellos como archivo")
        case .channelsWithDevices, .broadcastHeaders, .requestIDWithoutChannels, .payloadTwice, .recipientsTwice, .requestsFileCarriesPayloads,
            .apnsIDWithRequestsFile:
            return sourceWords
        case .liveActivityNeeded, .liveActivityEvent, .liveActivityPushType, .notWithLiveActivity:
            return liveActivityWords
        }
    }

    /// The contradictions of where a send goes and what it sends.
    private var sourceWords: Words {
        switch self {
        case .channelsWithDevices:
            return Words(
                "\(Setting.channelID) broadcasts to channels; leave out \(Setting.deviceToken), \(Setting.tokensFile) and \(Setting.requestsFile)",
                es: "\(Setting.channelID) difunde a canales; quita \(Setting.deviceToken), \(Setting.tokensFile) y \(Setting.requestsFile)")
        case .broadcastHeaders:
            return Words(
                "broadcasts take no \(Setting.collapseID) or \(Setting.apnsID) (use \(Setting.requestID))",
                es: "las difusiones no llevan \(Setting.collapseID) ni \(Setting.apnsID) (usa \(Setting.requestID))")
        case .requestIDWithoutChannels:
            return Words(
                "\(Setting.requestID) is for broadcasts (\(Setting.channelID)); a device push takes \(Setting.apnsID)",
                es: "\(Setting.requestID) es para difusiones (\(Setting.channelID)); una notificación a un dispositivo lleva \(Setting.apnsID)")
        case .payloadTwice:
            return Words(
                "give the payload one way: \(Setting.payload), \(Setting.payloadJSON), or the builder flags (\(Setting.title), \(Setting.body), …)",
                es:
                    "da la carga útil de una sola forma: \(Setting.payload), \(Setting.payloadJSON) o las opciones que la construyen (\(Setting.title), \(Setting.body), …)"
            )
        case .recipientsTwice:
            return Words(
                "give the recipients one way: \(Setting.deviceToken), \(Setting.tokensFile) or \(Setting.requestsFile)",
                es: "da los destinatarios de una sola forma: \(Setting.deviceToken), \(Setting.tokensFile) o \(Setting.requestsFile)")
        case .requestsFileCarriesPayloads:
            return Words(
                "\(Setting.requestsFile) lines carry their own payloads; leave out \(Setting.payload), \(Setting.payloadJSON) and the builder flags",
                es:
                    "las líneas de \(Setting.requestsFile) llevan su propia carga útil; quita \(Setting.payload), \(Setting.payloadJSON) y las opciones que la construyen"
            )
        case .apnsIDWithRequestsFile:
            return Words(
                "\(Setting.apnsID) names one notification; with \(Setting.requestsFile) give \"apns-id\" on a line",
                es: "\(Setting.apnsID) identifica una sola notificación; con \(Setting.requestsFile) pon \"apns-id\" en una línea")
        default:
            return Words(verbatim: "")
        }
    }

    /// The contradictions of a journaled, paced or followed run.
    private var pacingWords: Words {
        switch self {
        case .noCollapseIDWithoutJournal:
            return Words(
                "\(Setting.noCollapseID) turns off the collapse ids a journaled run adds: give \(Setting.journal) PATH too",
                es: "\(Setting.noCollapseID) desactiva los collapse id que añade un envío con diario: indica también \(Setting.journal) RUTA")
        case .rateAndSpread:
            return Words(
                "\(Setting.rate) and \(Setting.spread) both set the pace: give one",
                es: "\(Setting.rate) y \(Setting.spread) fijan los dos el ritmo: da solo uno")
        case .rateNotNumber(let shown):
            return Words(
                "\(Setting.rate) is notifications a second, a decimal number from 0.001 to 1000000 (e.g. 100 or 0.5); got '\(shown)'",
                es: "\(Setting.rate) son notificaciones por segundo, un número decimal de 0.001 a 1000000 (p. ej. 100 o 0.5); se recibió '\(shown)'")
        case .spreadNotDuration(let shown):
            return Words(
                "\(Setting.spread) is a duration above 0 and at most 30 days: seconds, or a number with s, m or h (e.g. 90s, 15m, 2h); got '\(shown)'",
                es:
                    "\(Setting.spread) es una duración mayor que 0 y como mucho 30 días: segundos, o un número con s, m o h (p. ej. 90s, 15m, 2h); se recibió '\(shown)'"
            )
        case .followNeedsFile:
            return Words(
                "\(Setting.follow) reads \(Setting.tokensFile) or \(Setting.requestsFile) as lines arrive (- for standard input)",
                es: "\(Setting.follow) lee \(Setting.tokensFile) o \(Setting.requestsFile) a medida que llegan las líneas (- para la entrada estándar)")
        case .notWithFollow(let setting):
            return Words(
                "\(setting) needs the whole list, and \(Setting.follow) reads a stream once as it arrives: leave one out",
                es: "\(setting) necesita la lista entera, y \(Setting.follow) lee un flujo una sola vez a medida que llega: quita uno de los dos")
        default:
            return Words(verbatim: "")
        }
    }

    /// The Live Activity flags' contradictions.
    private var liveActivityWords: Words {
        switch self {
        case .liveActivityNeeded(let flag):
            return Words(
                "\(flag) builds a Live Activity: give \(Setting.liveActivity) start|update|end too",
                es: "\(flag) construye una Live Activity: da también \(Setting.liveActivity) start|update|end")
        case .liveActivityEvent(let shown):
            return Words(
                "\(Setting.liveActivity) is start, update or end; got '\(shown)'", es: "\(Setting.liveActivity) es start, update o end; se recibió '\(shown)'")
        case .liveActivityPushType(let shown):
            return Words(
                "\(Setting.liveActivity) sends push type liveactivity; leave out \(Setting.pushType) \(shown)",
                es: "\(Setting.liveActivity) envía el tipo liveactivity; quita \(Setting.pushType) \(shown)")
        case .notWithLiveActivity(let flag):
            return Words(
                "\(Setting.liveActivity) builds the payload; \(flag) does not go with it (\(Setting.title), \(Setting.body) and \(Setting.sound) make its alert)",
                es:
                    "\(Setting.liveActivity) construye la carga útil; \(flag) no va con ella (\(Setting.title), \(Setting.body) y \(Setting.sound) forman su alerta)"
            )
        default:
            return Words(verbatim: "")
        }
    }
}
