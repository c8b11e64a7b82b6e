public import PushCore

// What each of APNs' reasons means and what to do about it: shared by the sender's results and
// the mock's log and web view.

extension RejectionReason {
    /// One line: what it means, then what to do (in domain words: the command line names its own flags).
    public var explanation: Words {
        if let words = requestExplanation ?? credentialExplanation ?? deliveryExplanation ?? channelExplanation { return words }
        switch self {
        case .noReason(let status):
            return Words(
                "HTTP \(status) without an APNs reason: APNs always names one, so something between pushctl and APNs answered (a proxy, a load balancer, a captive portal); check the proxy settings, or try again later",
                es:
                    "HTTP \(status) sin motivo de APNs: APNs siempre indica uno, así que respondió algo entre pushctl y APNs (un proxy, un balanceador de carga, un portal cautivo); revisa la configuración del proxy, o inténtalo más tarde"
            )
        case .unknown(let name):
            return Words(
                "APNs answered '\(name)', a reason pushctl does not know; see Apple's 'Handling notification responses from APNs'",
                es:
                    "APNs respondió '\(name)', un motivo que pushctl no conoce; consulta 'Handling notification responses from APNs' en la documentación de Apple"
            )
        default:
            return Words("APNs answered '\(apnsName)'", es: "APNs respondió '\(apnsName)'")
        }
    }

    /// What is wrong with the request itself (400, 404, 405, 413).
    private var requestExplanation: Words? {
        switch self {
        case .badCollapseId:
            return Words(
                "apns-collapse-id is longer than 64 bytes; shorten it",
                es: "apns-collapse-id tiene más de 64 bytes; acórtalo")
        case .badDeviceToken:
            return Words(
                "the device token is not valid for this environment; this token may belong to the other environment (sandbox vs production): a build from Xcode uses sandbox, TestFlight and the App Store use production",
                es:
                    "el token del dispositivo no es válido en este entorno; puede ser del otro (sandbox o producción): una app instalada desde Xcode usa sandbox, TestFlight y la App Store usan producción"
            )
        case .badExpirationDate:
            return Words(
                "apns-expiration is not a valid UNIX time (send seconds since 1970, or 0), or a broadcast to a channel without storage has one other than 0",
                es:
                    "apns-expiration no es una hora UNIX válida (envía segundos desde 1970, o 0), o una difusión a un canal sin almacenamiento lleva una distinta de 0"
            )
        case .badMessageId:
            return Words(
                "apns-id is not a UUID; send a canonical UUID (8-4-4-4-12 hex) or leave it out",
                es: "apns-id no es un UUID; envía un UUID canónico (8-4-4-4-12 en hexadecimal) o no lo envíes")
        case .badPriority:
            return Words(
                "apns-priority is not 10, 5 or 1, or not allowed for this push type (background pushes must be 5)",
                es: "apns-priority no es 10, 5 ni 1, o no se permite con este tipo de notificación (las de background deben ir con 5)")
        case .badTopic:
            return Words(
                "apns-topic is not valid for this push type; check the bundle id and the suffix the push type needs (e.g. .voip)",
                es: "apns-topic no es válido para este tipo de notificación; comprueba el bundle id y el sufijo que ese tipo necesita (p. ej. .voip)")
        case .deviceTokenNotForTopic:
            return Words(
                "the device token belongs to another app; check that the topic is the bundle id of the app that registered it",
                es: "el token del dispositivo es de otra app; comprueba que el topic sea el bundle id de la app que lo registró")
        case .duplicateHeaders:
            return Words(
                "a header was sent twice; send each apns-* header once",
                es: "se envió una cabecera dos veces; envía cada cabecera apns-* una sola vez")
        case .invalidPushType:
            return Words(
                "apns-push-type is not a value Apple knows; use alert, background, voip, …",
                es: "apns-push-type no es un valor que Apple conozca; usa alert, background, voip, …")
        case .missingDeviceToken:
            return Words(
                "the request path has no device token; give the device token",
                es: "la ruta de la petición no lleva token del dispositivo; indica el token del dispositivo")
        case .missingTopic:
            return Words(
                "apns-topic is required with token authentication, and with a certificate that lists several topics; give your app's bundle id as the topic",
                es: "apns-topic es obligatorio al autenticar con token, y con un certificado que cubre varios topics; indica como topic el bundle id de tu app")
        case .payloadEmpty:
            return Words(
                "the payload is empty; send a JSON object such as {\"aps\":{\"alert\":\"Hello\"}}",
                es: "la carga útil está vacía; envía un objeto JSON como {\"aps\":{\"alert\":\"Hola\"}}")
        case .topicDisallowed:
            return Words(
                "pushing to this topic is not allowed: a certificate covers only the topics it lists (pushctl cert inspect shows them), a topic-specific key only its topics",
                es:
                    "no se permite enviar a este topic: un certificado solo cubre los topics que lista (pushctl cert inspect los muestra), y una clave de topic concreto solo los suyos"
            )
        case .badPath:
            return Words(
                "the request path is not /3/device/<token>; check the endpoint",
                es: "la ruta de la petición no es /3/device/<token>; comprueba el endpoint")
        case .methodNotAllowed:
            return Words(
                "only POST is allowed; check that the endpoint is APNs",
                es: "solo se admite POST; comprueba que el endpoint sea APNs")
        case .payloadTooLarge:
            return Words(
                "the payload is over the limit (4096 bytes; 5120 for voip); shorten it",
                es: "la carga útil supera el límite (4096 bytes; 5120 para voip); acórtala")
        default: return nil
        }
    }

    /// What is wrong with the key, the token or the certificate (403, 429 for tokens).
    private var credentialExplanation: Words? {
        switch self {
        case .badCertificate:
            return Words(
                "the client certificate is not an APNs push certificate, or was revoked; make an \"Apple Push Notification service SSL\" certificate in your Apple Developer account",
                es:
                    "el certificado de cliente no es un certificado de notificaciones de APNs, o fue revocado; crea un certificado \"Apple Push Notification service SSL\" en tu cuenta de Apple Developer"
            )
        case .badCertificateEnvironment:
            return Words(
                "the certificate is for the other environment (pushctl cert inspect shows which); send to the environment it is for, or use a Sandbox & Production certificate",
                es:
                    "el certificado es del otro entorno (pushctl cert inspect dice cuál); envía al entorno que le corresponde, o usa un certificado Sandbox & Production"
            )
        case .expiredProviderToken:
            return Words(
                "the provider token (JWT) is older than 60 minutes, or its iat is in the future; check this machine's clock and sign a new token",
                es: "el token del proveedor (JWT) tiene más de 60 minutos, o su iat está en el futuro; comprueba el reloj de este equipo y firma un token nuevo"
            )
        case .forbidden:
            return Words(
                "APNs refused this request; check the key's permissions in your Apple Developer account",
                es: "APNs rechazó esta petición; comprueba los permisos de la clave en tu cuenta de Apple Developer")
        case .invalidProviderToken:
            return Words(
                "the provider token (JWT) is not valid: check the key id, the team id, that the .p8 file is that key's, and this machine's clock",
                es:
                    "el token del proveedor (JWT) no es válido: comprueba el id de clave (key id), el id de equipo (team id), que el archivo .p8 sea el de esa clave y el reloj de este ordenador"
            )
        case .missingProviderToken:
            return Words(
                "no provider token was sent; sign one with your .p8 key, key id and team id",
                es: "no se envió token del proveedor; fírmalo con tu clave .p8, su key id y tu team id")
        case .unrelatedKeyIdInToken:
            return Words(
                "the key id in the token is not related to this team or topic; check the key id, the team id and the topic",
                es: "el id de clave del token no corresponde a este equipo ni a este topic; comprueba el id de clave, el id de equipo y el topic")
        case .badEnvironmentKeyIdInToken:
            return Words(
                "the key is not enabled for this environment; check the key's environment in your Apple Developer account, or use the other one",
                es: "la clave no está habilitada para este entorno; comprueba su entorno en tu cuenta de Apple Developer, o usa el otro")
        case .tooManyProviderTokenUpdates:
            return Words(
                "the provider token was changed too often; reuse one token for 20–60 minutes (pushctl caches it unless told not to)",
                es:
                    "el token del proveedor se cambió demasiadas veces; reutiliza un mismo token entre 20 y 60 minutos (pushctl lo guarda en caché salvo que le digas lo contrario)"
            )
        default: return nil
        }
    }

    /// The device token, the rate and the server (410, 429, 5xx, GOAWAY reasons).
    private var deliveryExplanation: Words? {
        switch self {
        case .unregistered:
            return Words(
                "the device token is no longer active for this topic (app uninstalled or notifications turned off); stop sending to it and delete it",
                es: "el token del dispositivo ya no está activo para este topic (app desinstalada o notificaciones desactivadas); deja de enviarle y bórralo")
        case .expiredToken:
            return Words(
                "the device token has expired; stop sending to it and delete it",
                es: "el token del dispositivo ha caducado; deja de enviarle y bórralo")
        case .tooManyRequests:
            return Words(
                "too many notifications to this device in a short time; wait before sending to it again",
                es: "demasiadas notificaciones a este dispositivo en poco tiempo; espera antes de volver a enviarle")
        case .internalServerError:
            return Words(
                "APNs had an internal error; try again later",
                es: "APNs tuvo un error interno; inténtalo más tarde")
        case .serviceUnavailable:
            return Words(
                "APNs is unavailable for now; try again later",
                es: "APNs no está disponible por ahora; inténtalo más tarde")
        case .shutdown:
            return Words(
                "the APNs server is shutting down; send again on a new connection",
                es: "el servidor de APNs se está apagando; vuelve a enviar por una conexión nueva")
        case .idleTimeout:
            return Words(
                "the connection was idle too long; send again on a new connection",
                es: "la conexión estuvo inactiva demasiado tiempo; vuelve a enviar por una conexión nueva")
        default: return nil
        }
    }

    /// The broadcast channel API.
    private var channelExplanation: Words? {
        switch self {
        case .featureNotEnabled:
            return Words(
                "broadcast push is not enabled for this app: turn on the Broadcast capability for the bundle id in your Apple Developer account",
                es:
                    "las notificaciones de difusión no están habilitadas para esta app: activa la capacidad Broadcast del bundle id en tu cuenta de Apple Developer"
            )
        case .missingChannelId:
            return Words(
                "the request has no apns-channel-id; give the channel id (pushctl channel list shows them)",
                es: "la petición no lleva apns-channel-id; indica el id del canal (pushctl channel list los muestra)")
        case .badChannelId:
            return Words(
                "apns-channel-id is not a channel id (base64, as pushctl channel create printed it); check for a copy-paste slip",
                es: "apns-channel-id no es un id de canal (base64, tal como lo mostró pushctl channel create); revisa si se coló un error al copiarlo")
        case .channelNotRegistered:
            return Words(
                "no such channel in this environment (deleted, or made in the other one); pushctl channel list shows the ids",
                es: "no existe ese canal en este entorno (se borró, o se creó en el otro); pushctl channel list muestra los ids")
        case .cannotCreateChannelConfig:
            return Words(
                "the app has reached its limit of 10,000 channels in this environment; delete unused ones (pushctl channel delete)",
                es: "la app ha llegado a su límite de 10.000 canales en este entorno; borra los que no uses (pushctl channel delete)")
        case .badRequestParams:
            return Words(
                "the request's parameters are not valid (message-storage-policy 0 or 1, push-type LiveActivity)",
                es: "los parámetros de la petición no son válidos (message-storage-policy 0 o 1, push-type LiveActivity)")
        case .badRequestPayload:
            return Words(
                "the request's body is not the JSON this call expects",
                es: "el cuerpo de la petición no es el JSON que espera esta llamada")
        case .missingPushType:
            return Words(
                "apns-push-type is missing; broadcasts are sent as liveactivity",
                es: "falta apns-push-type; las difusiones se envían como liveactivity")
        case .topicMismatch:
            return Words(
                "the bundle id does not match the key's or certificate's app",
                es: "el bundle id no coincide con la app de la clave o del certificado")
        default: return nil
        }
    }
}

extension RejectionCause {
    /// What it means and what to do: APNs' reason's explanation, or what a refused line means.
    public var explanation: Words {
        switch self {
        case .apns(let reason): reason.explanation
        case .invalidLine:
            Words(
                "a line of the followed input was neither a device token nor a request, so it was not sent; fix the line and send it again",
                es:
                    "una línea de la entrada seguida no era ni un token de dispositivo ni una petición, así que no se envió; corrige la línea y vuelve a enviarla"
            )
        }
    }
}
