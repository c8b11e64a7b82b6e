import PushCore
import PushCrypto
import PushCurl
import PushFiles
import PushWords

extension Doctor {
    /// A real notification through `SendRun`: to the endpoint, or to the sandbox and, when its
    /// answer points at the other environment, to production (`detectEnvironment`), to find which
    /// environment the device token belongs to.
    func testPush(_ authorization: (any AuthorizationSource)?, certificate: ClientIdentity?) -> DoctorCheck {
        guard let text = options.deviceToken, let topic = topic ?? certificate?.certificate.defaultTopic else {
            return DoctorCheck(
                subject: .testPush, status: .skip,
                found: Words("no \(Setting.deviceToken) given: no notification sent", es: "no se dio \(Setting.deviceToken): no se envió ninguna notificación"),
                hint: Words(
                    "add \(Setting.topic) BUNDLE_ID \(Setting.deviceToken) HEX to send a real test alert",
                    es: "añade \(Setting.topic) BUNDLE_ID \(Setting.deviceToken) HEX para enviar una alerta de prueba real"))
        }
        guard let authorization else {
            return DoctorCheck(
                subject: .testPush, status: .fail,
                found: Words(
                    "not sent: it needs a working key or certificate (see their checks)",
                    es: "no se envió: hace falta una clave o un certificado que funcione (mira sus comprobaciones)"),
                hint: Words(
                    "give \(Setting.keyFile), \(Setting.teamID) (and \(Setting.keyID) unless the file is AuthKey_<KEYID>.p8)",
                    es: "da \(Setting.keyFile), \(Setting.teamID) (y \(Setting.keyID) si el archivo no se llama AuthKey_<KEYID>.p8)"))
        }
        let answers: [PushResult]
        do {
            let token = try DeviceToken(parsing: text)
            let template = try PushTemplate(
                PushSpec(topic: topic),
                payload: Payload(
                    json: .object([
                        ("aps", .object([("alert", .object([("title", .string("pushctl doctor")), ("body", .string("A test notification"))]))]))
                    ])))
            let destination: Destination =
                if let endpoint { try .endpoint(endpoint, caCertificate: caCertificate) } else { try .apple(.sandbox, caCertificate: caCertificate) }
            var plan = SendPlan(
                notifications: .list(template, [token], duplicates: 0), destination: destination,
                connection: connection(certificate: certificate), authorization: authorization,
                policy: RetryPolicy(maxRetries: 0, requestTimeout: options.timeout))
            plan.detectEnvironment = endpoint == nil
            answers = try Self.send(plan)
        } catch {
            return DoctorCheck(subject: .testPush, status: .fail, found: Self.notSent + error.words, hint: error.hintWords)
        }
        return verdict(answers, topic: topic)
    }

    /// Each environment's answer, in the order asked: the one result, or the first and the other
    /// environment's when the first pointed there.
    static func send(_ plan: SendPlan) throws(InputError) -> [PushResult] {
        let last = LastResult()
        let run = try SendRun(plan: plan)
        _ = try run.run(observers: [last])
        if let tried = run.secondTries.first { return [tried.first, tried.other].map(Self.asAnswered) }
        return last.result.map { [Self.asAnswered($0)] } ?? []
    }

    /// The answer as the server gave it, without the marks of environment detection.
    static func asAnswered(_ result: PushResult) -> PushResult {
        var plain = result
        plain.detectedEnvironment = false
        plain.environment = nil
        plain.note = nil
        return plain
    }

    /// Accepted by one environment, refused for a reason of its own, or by both for the other's.
    func verdict(_ answers: [PushResult], topic: String) -> DoctorCheck {
        // Each place with its name in json and as a person reads it.
        let places: [(name: String, words: Words, url: String)] =
            endpoint.map { [("the endpoint", Words("the endpoint", es: "el endpoint"), $0)] }
            ?? APNsEnvironment.allCases.map {
                ($0.rawValue, $0 == .production ? Words("production", es: "producción") : Words(verbatim: $0.rawValue), "https://" + $0.host)
            }
        var tried: [Words] = []
        for (place, result) in zip(places, answers) {
            var details: [(String, JSONValue)] = [("environment", .string(place.name)), ("result", result.json())]
            if result.status == 200 {
                let which =
                    endpoint != nil
                    ? Words("accepted by \(place.url)", es: "aceptada por \(place.url)")
                    : place.name == "sandbox"
                        ? Words(
                            "accepted by sandbox: the token is from a development build (run from Xcode)",
                            es: "aceptada por sandbox: el token es de una compilación de desarrollo (ejecutada desde Xcode)")
                        : Words(
                            "accepted by production: the token is from a TestFlight or App Store build; send with \(Setting.production)",
                            es: "aceptada por producción: el token es de una compilación de TestFlight o de la App Store; envía con \(Setting.production)")
                details.append(("accepted", .bool(true)))
                return DoctorCheck(
                    subject: .testPush, status: .pass,
                    found: which + Words(verbatim: result.apnsID.map { ", apns-id \($0)" } ?? ""), details: details)
            }
            tried.append(
                place.words + Words(verbatim: ": " + (result.status.map { "\($0) " } ?? ""))
                    + (result.reason.map { Words(verbatim: $0.apnsName) } ?? result.explanationWords))
            // Only a token or key of the other environment is worth a second try.
            guard let reason = result.reason, reason.pointsAtOtherEnvironment else {
                details.append(("accepted", .bool(false)))
                return DoctorCheck(
                    subject: .testPush, status: .fail, found: Self.refused + Words.joined(tried, separator: Words(verbatim: "; ")),
                    hint: result.unreachableCause.map { hint(for: $0, target: place.url) } ?? result.explanationWords,
                    details: details)
            }
        }
        let shownTopic = OutsideText.display(topic, limit: 80)
        return DoctorCheck(
            subject: .testPush, status: .fail, found: Self.refused + Words.joined(tried, separator: Words(verbatim: "; ")),
            hint: endpoint == nil
                ? Words(
                    "neither environment knows this token for \(shownTopic): check that it is this app's token, copied whole",
                    es: "ningún entorno conoce este token para \(shownTopic): comprueba que es el token de esta app, copiado entero")
                : Words("check the token and \(Setting.topic)", es: "comprueba el token y \(Setting.topic)"))
    }

    static let notSent = Words("not sent: ", es: "no se envió: ")
    static let refused = Words("refused, ", es: "rechazada, ")
}

/// The one result of a test push.
private final class LastResult: ResultObserver {
    var result: PushResult?
    func record(_ result: PushResult) { self.result = result }
}
