public import PushCore

// Broadcast push and channel management.

extension BroadcastProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .topicHasSuffix(let name, let shown, let pushType, _):
            return Words(
                "\(name) '\(shown)' carries the \(pushType.rawValue) push type's suffix; broadcasts and channels take the bare bundle id (APNs answers TopicDisallowed)",
                es:
                    "\(name) '\(shown)' lleva el sufijo del tipo \(pushType.rawValue); las difusiones y los canales llevan el bundle id sin más (APNs responde TopicDisallowed)"
            )
        case .notAChannelID(let name, let shown):
            return Words(
                "\(name) '\(shown)' is not a channel id (base64, as `pushctl channel create` prints it)",
                es: "\(name) '\(shown)' no es un id de canal (base64, tal como lo imprime `pushctl channel create`)")
        case .requestIDNotUUID(let name, let shown):
            return Words("\(name) '\(shown)' is not a UUID", es: "\(name) '\(shown)' no es un UUID")
        case .pushTypeNotLiveActivity(let name, let shown):
            return Words(
                "broadcasts are Live Activity updates: \(name) must be liveactivity (or left out); got '\(shown)'",
                es: "las difusiones son actualizaciones de Live Activity: \(name) debe ser liveactivity (o no ponerse); se recibió '\(shown)'")
        case .priority(let name, let shown):
            return Words("\(name) for a broadcast is 10 or 5; got '\(shown)'", es: "\(name) en una difusión es 10 o 5; se recibió '\(shown)'")
        case .expiration(let name, let shown, _):
            return Words("\(name) must be UNIX seconds (0 or more); got '\(shown)'", es: "\(name) va en segundos UNIX (0 o más); se recibió '\(shown)'")
        case .tooLarge(let size):
            let over = size - BroadcastAPI.payloadLimit
            return Words(
                "the payload is \(size) bytes, \(over) over APNs' limit of 5120 bytes for broadcasts",
                es: "la carga útil ocupa \(size) bytes, \(over) más que el límite de APNs de 5120 bytes para las difusiones")
        case .startsActivity:
            return Words("a broadcast cannot start a Live Activity (event start)", es: "una difusión no puede iniciar una Live Activity (event start)")
        }
    }

    public var hintWords: Words? {
        switch self {
        case .topicHasSuffix(_, _, _, let bundleID):
            return Words("use \(bundleID)", es: "usa \(bundleID)")
        case .notAChannelID:
            return Words("pushctl channel list shows the app's channel ids", es: "pushctl channel list muestra los ids de canal de la app")
        case .requestIDNotUUID:
            return Words("use the 8-4-4-4-12 hex form, or leave it out", es: "usa la forma hexadecimal 8-4-4-4-12, o quítalo")
        case .expiration(_, _, let date):
            return date?.words
        case .startsActivity:
            return Words(
                "start it with a push-to-start to each device (\(Setting.liveActivity) start), then update it through the channel",
                es: "iníciala con un push-to-start a cada dispositivo (\(Setting.liveActivity) start), y luego actualízala por el canal")
        case .pushTypeNotLiveActivity, .priority, .tooLarge:
            return nil
        }
    }
}
