import ArgumentParser
import Dispatch
import Foundation
import PushApp
import PushCore
import PushCrypto
import PushCurl
import PushEngine
import PushFiles
import PushMock
import PushSystem
import PushWords
import PushctlCommandLine

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Walk through the whole flow offline: key, JWT, HTTP/2 request, APNs' answers.",
        discussion: """
            Makes a throwaway key, starts a local APNs (pushctl mock) on loopback and narrates
            each step of sending a push. Needs no network and no Apple account.

            Examples:
              pushctl demo
              pushctl demo --pause     # wait for Enter between steps (for class)
              pushctl demo --pause --web   # and watch each request land in a browser
            """
    )

    @Flag(help: "Wait for Enter between steps (only when standard input is a terminal).")
    var pause = false

    @Flag(help: "Show the requests live in a browser: prints the web view's URL, and at the end waits for Enter (only on a terminal).")
    var web = false

    @Option(name: .customLong("web-port"), help: ArgumentHelp("The web view's port on 127.0.0.1 (0 picks a free one).", valueName: "port"))
    var webPort = 0
    @OptionGroup var language: LanguageOption

    func validate() throws {
        guard (0...65535).contains(webPort) else {
            throw ValidationError(
                Words("--web-port must be between 0 and 65535; got \(webPort)", es: "--web-port debe estar entre 0 y 65535; se recibió \(webPort)"))
        }
        if webPort != 0 && !web { throw ValidationError(Words("--web-port needs --web", es: "--web-port necesita --web")) }
    }

    func run() throws {
        // A new folder only this user can enter (mkdtemp, 0700), never one already there: a name
        // anyone could predict in /tmp may be someone else's folder, or a link to one.
        guard let made = FileSystem.makeTemporaryFolder(pathPrefix: FileManager.default.temporaryDirectory.appendingPathComponent("pushctl-demo-").path)
        else {
            let reason = SystemError.reason(Errno.current)
            throw InputError(
                Words("cannot make the demo's folder: \(reason)", es: "no se puede crear la carpeta de la demo: \(reason)"),
                hint: Words("set TMPDIR to a writable directory", es: "define TMPDIR como una carpeta en la que se pueda escribir"),
                kind: .cannotCreateOutput)
        }
        let work = URL(fileURLWithPath: made, isDirectory: true)
        // The folder holds a private key: Ctrl-C (or SIGTERM) must not leave it behind.
        let cleanup = CleanupOnSignal(removing: work)
        defer {
            try? FileManager.default.removeItem(at: work)
            withExtendedLifetime(cleanup) {}
        }

        let teamID = try AppleIdentifier(.teamID, "TEAM123456")
        let keyID = try AppleIdentifier(.keyID, "DEMO123456")
        let key = ES256PrivateKey.generate()
        let keyPath = work.appendingPathComponent("AuthKey_\(keyID).p8").path
        try writeDemoFile(keyPath, key.pkcs8PEM, mode: 0o600)
        let topic = "com.example.demo"
        let device = try DeviceToken(parsing: String(repeating: "d3", count: 32))
        let dead = try DeviceToken(parsing: String(repeating: "de", count: 32))

        // The app the notifications are for, as its source folder: step 8 reads it as `--app` does.
        let app = try DemoApp.write(in: work.appendingPathComponent("DemoApp").path)

        var faults = MockFaults()
        faults.failTokens[dead] = .unregistered
        // The other way to authenticate: a certificate shaped like Apple's, from a throwaway CA.
        let certificates = try TestCertificates.make(
            topics: [ProviderCertificate.Topic(name: topic, kinds: ["app"])], development: true, production: true,
            validFrom: -60, validity: 86_400, password: "demo")
        var configuration = MockAPNsConfiguration(
            providerKeys: [try MockProviderKey(keyID: keyID.value, pem: key.pkcs8PEM)], teamID: teamID.value, faults: faults)
        configuration.clientCAPEMs = [String(decoding: certificates.caPEM, as: UTF8.self)]
        configuration.language = LanguageSetting.language
        let view = web ? MockWebView(language: LanguageSetting.language, lens: app.lens) : nil
        if let view { configuration.onRecord = view.publish }
        let settings = configuration
        let server: MockAPNsServer
        do { server = try waitFor { try await MockAPNsServer.start(settings) } } catch {
            _ = try? waitFor { await view?.shutdown() }
            throw error
        }
        let stop = { @Sendable in
            await view?.shutdown()
            try await server.shutdown()
        }
        let caPath = work.appendingPathComponent("mock-ca.pem").path
        do { try writeDemoFile(caPath, server.caCertificatePEM, mode: 0o644) } catch {
            _ = try? waitFor { try await stop() }
            throw error
        }

        do {
            let webURL = try view.map { view in try openWebView(view, caPEM: server.caCertificatePEM) }
            try narrate(
                server: server, key: key, keyPath: keyPath, keyID: keyID, teamID: teamID, caPath: caPath,
                topic: topic, device: device, dead: dead, certificates: certificates, view: view, app: app)
            if let webURL { keepWebView(webURL) }
        } catch {
            _ = try? waitFor { try await stop() }
            throw error
        }
        try waitFor { try await stop() }
    }

    /// Serves the web view on loopback and says where, before the first step.
    private func openWebView(_ view: MockWebView, caPEM: String) throws -> String {
        let port: Int
        do {
            port = try waitFor { try await view.listen(host: "127.0.0.1", port: webPort, caCertificatePEM: caPEM) }
        } catch let error as InputError {
            Console.error(error.description)
            throw ExitCode(ExitStatus(error.kind).rawValue)
        }
        let url = "http://127.0.0.1:\(port)/"
        Console.out(
            Words(
                "Live view of what the local APNs receives: \(url) (open it in a browser)",
                es: "Vista en directo de lo que recibe el APNs local: \(url) (ábrela en un navegador)"
            ).description)
        return url
    }

    /// At the end, keeps the web view open until Enter, when a person is there to press it.
    private func keepWebView(_ url: String) {
        Console.out("")
        guard Terminal.isTerminal(Descriptors.standardInput) else {
            Console.out(
                Words(
                    "The web view at \(url) stops with the demo (no terminal to wait on).",
                    es: "La vista web de \(url) se detiene con la demo (no hay terminal en la que esperar)."
                ).description)
            return
        }
        Console.writeOut(
            Array(
                Console.paint(
                    Words(
                        "The web view stays at \(url) until you press Enter.",
                        es: "La vista web sigue en \(url) hasta que pulses Intro."
                    ).description, .dim
                ).utf8))
        _ = readLine()
    }

    /// The demo's files live in its private folder; failing to write one stops the demo with the reason.
    private func writeDemoFile(_ path: String, _ text: String, mode: Int) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode]) else {
            throw InputError(
                Words("cannot write the demo's file \(path)", es: "no se puede escribir el archivo de la demo \(path)"),
                hint: Words("set TMPDIR to a writable directory", es: "define TMPDIR como una carpeta en la que se pueda escribir"),
                kind: .cannotCreateOutput)
        }
    }

    private func narrate(
        server: MockAPNsServer, key: ES256PrivateKey, keyPath: String, keyID: AppleIdentifier, teamID: AppleIdentifier,
        caPath: String, topic: String, device: DeviceToken, dead: DeviceToken, certificates: TestCertificates,
        view: MockWebView?, app: DemoApp
    ) throws {
        let narrator = Narrator(pause: pause)
        let token = try UnsignedProviderToken(keyID: keyID, teamID: teamID, issuedAt: Int64(Date().timeIntervalSince1970)).signed(by: key)
        let authorization = FixedAuthorization(token: token.compact)
        let local = try Destination.endpoint(server.url, caCertificate: caPath)
        let connection = ConnectionSettings(concurrency: 10)

        explainKeyAndToken(narrator: narrator, token: token, keyPath: keyPath, keyID: keyID, teamID: teamID)

        // The class reads this body on the projector: in its language.
        let title = Words("Hello", es: "Hola").description
        let body = Words("From pushctl demo", es: "Desde la demo de pushctl").description
        let alertPayload = Payload(
            json: .object([("aps", .object([("alert", .object([("title", .string(title)), ("body", .string(body))])), ("sound", .string("default"))]))]))
        let alert = try PushTemplate(PushSpec(topic: topic), payload: alertPayload)
        narrator.step(
            3, Words("The HTTP/2 request", es: "La petición HTTP/2"),
            [
                Words(verbatim: "POST \(server.url)/3/device/\(device.hex)"),
                Words(
                    "  (the path ends with the device token your app got from didRegisterForRemoteNotificationsWithDeviceToken)",
                    es: "  (la ruta termina con el token del dispositivo que tu app recibió en didRegisterForRemoteNotificationsWithDeviceToken)"),
                Words("  authorization: bearer <the JWT above>  who is sending", es: "  authorization: bearer <el JWT de arriba>  quién envía"),
            ] + alert.headers.map { Words(verbatim: Self.column("  \($0.0): \($0.1)", 28)) + Self.meaning($0.0) } + [
                Words(verbatim: "  body: \(String(decoding: alert.payload.bytes, as: UTF8.self))"),
                Words(
                    "Over HTTP/2 many such requests share one TLS connection, each on its own stream.",
                    es: "Con HTTP/2 muchas peticiones así comparten una sola conexión TLS, cada una en su propio stream."),
            ])

        narrator.step(
            4, Words("An alert", es: "Una alerta"),
            [
                Words(
                    "Sending it (libcurl, HTTP/2 over TLS, to the local APNs)…",
                    es: "Enviándola (libcurl, HTTP/2 sobre TLS, al APNs local)…")
            ])
        try send(alert, to: [device], narrator: narrator, authorization: authorization, to: local, over: connection)
        narrator.say(
            Words(
                "200 means APNs accepted it; apns-id names this notification, apns-unique-id finds it in Apple's delivery log (sandbox).",
                es:
                    "200 significa que APNs la aceptó; apns-id identifica esta notificación y apns-unique-id la encuentra en el registro de entregas de Apple (sandbox)."
            ))

        let silent = try PushTemplate(
            PushSpec(topic: topic), payload: Payload(json: .object([("aps", .object([("content-available", .integer(1))])), ("sync", .string("inbox"))])))
        narrator.step(
            5, Words("A silent background push", es: "Una notificación silenciosa en segundo plano"),
            [
                Words(
                    "aps holds only content-available: 1, so pushctl sends apns-push-type: \(silent.pushType.rawValue) and apns-priority: \(silent.priority.rawValue).",
                    es:
                        "aps solo lleva content-available: 1, así que pushctl envía apns-push-type: \(silent.pushType.rawValue) y apns-priority: \(silent.priority.rawValue)."
                ),
                Words(
                    "Apple requires priority 5 for these (10 is an error) and delivers only a few per hour.",
                    es: "Apple exige prioridad 5 para estas (10 es un error) y solo entrega unas pocas por hora."),
            ])
        try send(silent, to: [device], narrator: narrator, authorization: authorization, to: local, over: connection)

        refusedBeforeSending(narrator: narrator, topic: topic, device: device, view: view)
        try sendToDeadToken(alert, dead: dead, narrator: narrator, authorization: authorization, to: local, over: connection)

        try liveActivityThePhoneCannotRead(
            narrator: narrator, app: app, device: device, topic: topic, authorization: authorization, to: local, over: connection)
        try yourTurn(narrator: narrator, alert: alert, device: device, topic: topic, to: local, over: connection, certificates: certificates)
    }

    /// Step 8: a Live Activity update APNs accepts and the phone cannot decode (a missing key, a
    /// Date in UNIX time), caught by reading the app's own declaration, then sent fixed.
    private func liveActivityThePhoneCannotRead(
        narrator: Narrator, app: DemoApp, device: DeviceToken, topic: String, authorization: FixedAuthorization, to local: Destination,
        over connection: ConnectionSettings
    ) throws {
        let now = Int64(Date().timeIntervalSince1970)
        let unixEnd = now + 30 * 60
        func update(_ state: [(String, JSONValue)]) -> JSONValue {
            .object([("aps", .object([("event", .string("update")), ("timestamp", .integer(now)), ("content-state", .object(state))]))])
        }
        let broken = update([("endsAt", .integer(unixEnd))])
        narrator.step(
            8, Words("A Live Activity the phone cannot read", es: "Una Live Activity que el teléfono no puede leer"),
            [
                Words(
                    "APNs answers 200 to any well-formed update; only the app knows what its ContentState decodes. This demo's app declares:",
                    es:
                        "APNs responde 200 a cualquier actualización bien formada; solo la app sabe qué decodifica su ContentState. La app de esta demo declara:"
                )
            ] + DemoApp.declaration.split(separator: "\n").map { Words(verbatim: "    " + $0) } + [
                Words(verbatim: "  content-state: \(broken["aps"]?["content-state"]?.compact ?? "")"),
                Words(
                    "pushctl reads the app's files (pushctl check --app FOLDER, or send --app) and says what the phone will do:",
                    es: "pushctl lee los archivos de la app (pushctl check --app CARPETA, o send --app) y dice qué hará el teléfono:"),
            ])
        let findings = app.check.findings(for: broken, options: AppCheck.Options(pushType: .liveactivity, environment: .sandbox))
        for finding in findings {
            let colour: Console.Colour = finding.severity == .willFail ? .red : .yellow
            narrator.say(Words(verbatim: "  " + Console.paint("•", colour) + " ") + finding.text)
        }
        narrator.say(
            Words(
                "send --app refuses it (exit 65) unless --force; sent anyway, the web view shows it in red, as the phone drops it:",
                es:
                    "send --app la rechaza (sale con 65) salvo con --force; enviada de todos modos, la vista web la muestra en rojo, como el teléfono la descarta:"
            ))
        let liveTopic = topic + (PushType.liveactivity.topicSuffix ?? "")
        try send(
            try PushTemplate(PushSpec(topic: liveTopic, pushType: .liveactivity), payload: Payload(json: broken)), to: [device], narrator: narrator,
            authorization: authorization, to: local, over: connection)
        // The fix: every key the struct needs, and the date as the phone's decoder reads it.
        let phoneDate =
            findings.compactMap { finding -> Int64? in
                if case .dateLooksLikeUnixTime(_, _, _, let send) = finding.problem { return send }
                return nil
            }.first ?? (unixEnd - 978_307_200)
        let fixed = update([("score", .string("2 – 1")), ("endsAt", .integer(phoneDate))])
        narrator.say(
            Words(
                "Fixed: \"score\" added, and endsAt as seconds since 2001-01-01 (what a default JSONDecoder reads for a Date):",
                es: "Corregida: se añade \"score\", y endsAt en segundos desde 2001-01-01 (lo que un JSONDecoder por defecto lee en un Date):"))
        narrator.say(Words(verbatim: "  content-state: \(fixed["aps"]?["content-state"]?.compact ?? "")"))
        let left = app.check.findings(for: fixed, options: AppCheck.Options(pushType: .liveactivity, environment: .sandbox))
        for finding in left { narrator.say(Words(verbatim: "  • ") + finding.text) }
        if left.isEmpty { narrator.say(Words("  nothing found: the phone decodes it.", es: "  nada que señalar: el teléfono la decodifica.")) }
        try send(
            try PushTemplate(PushSpec(topic: liveTopic, pushType: .liveactivity), payload: Payload(json: fixed)), to: [device], narrator: narrator,
            authorization: authorization, to: local, over: connection)
    }

    /// Step 7: a token whose app was deleted, answered 410.
    private func sendToDeadToken(
        _ alert: PushTemplate, dead: DeviceToken, narrator: Narrator, authorization: FixedAuthorization, to local: Destination,
        over connection: ConnectionSettings
    ) throws {
        narrator.step(
            7, Words("A dead device token", es: "Un token del dispositivo muerto"),
            [
                Words(
                    "When the app is deleted, its token stops working. Sending to one:",
                    es: "Cuando se borra la app, su token deja de funcionar. Enviando a uno:")
            ])
        try send(alert, to: [dead], narrator: narrator, authorization: authorization, to: local, over: connection)
        narrator.say(
            Words(
                "410 is final: remove the token from your database (`pushctl send --unregistered-out dead.txt` lists them).",
                es: "410 es definitivo: borra el token de tu base de datos (`pushctl send --unregistered-out dead.txt` los lista)."))
    }

    /// Steps 1 and 2: the key Apple gives, and the provider token signed with it.
    private func explainKeyAndToken(narrator: Narrator, token: ProviderToken, keyPath: String, keyID: AppleIdentifier, teamID: AppleIdentifier) {
        narrator.step(
            1, Words("The key", es: "La clave"),
            [
                Words(
                    "Apple gives you a .p8 file once: a P-256 private key in PKCS#8 PEM. Its Key ID names it.",
                    es: "Apple te da un archivo .p8 una sola vez: una clave privada P-256 en PKCS#8 PEM. Su Key ID la identifica."),
                Words(
                    "This demo made a throwaway one: \(keyPath) (key id \(keyID), team \(teamID)).",
                    es: "Esta demo ha creado una de usar y tirar: \(keyPath) (key id \(keyID), equipo \(teamID))."),
                Words(
                    "Never commit or share a real .p8: whoever has it can push to your users.",
                    es: "Nunca subas a un repositorio ni compartas un .p8 real: quien lo tenga puede enviar notificaciones a tus usuarios."),
            ])

        narrator.step(
            2, Words("The provider token (JWT)", es: "El token del proveedor (JWT)"),
            [
                Words(
                    "Every request carries a token signed with the key; APNs checks it with the public half.",
                    es: "Cada petición lleva un token firmado con la clave; APNs lo comprueba con la mitad pública.")
            ])
        // The key was step 1; the token's own steps become 2.1 … 2.7.
        for line in ProviderTokenExplanation(token: token, keyFile: "AuthKey_\(keyID).p8", label: { "2.\($0 - 1)" }).lines.dropFirst() { narrator.say(line) }
    }

    /// Step 6: a payload over Apple's limit is refused before anything is sent.
    private func refusedBeforeSending(narrator: Narrator, topic: String, device: DeviceToken, view: MockWebView?) {
        narrator.step(
            6, Words("A payload that is too big", es: "Una carga útil demasiado grande"),
            [
                Words(
                    "APNs accepts at most 4096 bytes of payload (5120 for VoIP). pushctl checks before sending:",
                    es: "APNs acepta como mucho 4096 bytes de carga útil (5120 para VoIP). pushctl lo comprueba antes de enviar:")
            ])
        let shell = #"{"aps":{"alert":""}}"#.utf8.count
        let big = Payload(json: .object([("aps", .object([("alert", .string(String(repeating: "x", count: 4097 - shell)))]))]))
        do {
            _ = try PushTemplate(PushSpec(topic: topic), payload: big)
        } catch {
            narrator.say(Words(verbatim: "  " + Console.paint(Words("refused:", es: "rechazada:").description, .red) + " \(error.message)"))
            // Nothing reaches the mock, so the web view hears of it from the demo.
            view?.publishNotSent(
                topic: topic, deviceToken: device.hex, payloadBytes: big.bytes.count, limit: PushType.alert.payloadLimit,
                message: error.message)
            narrator.say(
                Words(
                    "  Apple's limit keeps notifications small: large data belongs in your app's own download, started by the push.",
                    es:
                        "  El límite de Apple mantiene pequeñas las notificaciones: los datos grandes son para que tu app los descargue cuando llegue la notificación."
                ))
        }
        narrator.say(
            Words(
                "Nothing was sent: `pushctl send` exits 65 for input like this, so a script can tell.",
                es: "No se envió nada: `pushctl send` termina con 65 ante una entrada así, para que un script lo sepa."))

    }

    /// Step 8: the same alert over a certificate, then how to do it with a real iPhone.
    private func yourTurn(
        narrator: Narrator, alert: PushTemplate, device: DeviceToken, topic: String,
        to local: Destination, over connection: ConnectionSettings, certificates: TestCertificates
    ) throws {
        narrator.step(
            9, Words("Your turn, with a real iPhone: a key or a certificate", es: "Te toca, con un iPhone de verdad: una clave o un certificado"),
            [
                Words(
                    "APNs takes two kinds of credentials. Everything above used a key (.p8) and a JWT.",
                    es: "APNs admite dos tipos de credenciales. Todo lo anterior usó una clave (.p8) y un JWT."),
                Words(
                    "The other is a certificate: TLS presents it, and no authorization header is sent.",
                    es: "La otra es un certificado: TLS lo presenta, y no se envía cabecera authorization."),
                Words(
                    "The same alert over a test certificate for \(certificates.certificate.uid ?? topic) (made by this demo, not Apple's):",
                    es: "La misma alerta con un certificado de prueba para \(certificates.certificate.uid ?? topic) (creado por esta demo, no es de Apple):"),
            ])
        var overCertificate = connection
        overCertificate.clientCertificate = TLSClientCertificate(certificatePEM: certificates.certificatePEM, privateKeyPEM: certificates.privateKeyPEM)
        try send(alert, to: [device], narrator: narrator, authorization: CertificateAuthorization(), to: local, over: overCertificate)
        let steps = [
            Words(verbatim: ""),
            Words(
                "With a key (recommended: it never expires, one key for all your apps):",
                es: "Con una clave (lo recomendado: no caduca, y una sola clave sirve para todas tus apps):"),
            Words(
                "1. In your Apple Developer account: Keys › + › Apple Push Notifications service; download AuthKey_<KEYID>.p8.",
                es: "1. En tu cuenta de Apple Developer: Keys › + › Apple Push Notifications service; descarga AuthKey_<KEYID>.p8."),
            Words(
                "2. Run your app from Xcode on the phone and print the device token it registers.",
                es: "2. Ejecuta tu app desde Xcode en el teléfono e imprime el token del dispositivo que registra."),
            Words(
                "3. Send (sandbox is the default for apps run from Xcode):",
                es: "3. Envía (sandbox es lo predeterminado para apps ejecutadas desde Xcode):"),
            // The commands to paste: every line within 60 columns (a projector's terminal), so none
            // is wrapped where the shell would read it as two.
            Words(verbatim: "   pushctl send --key-file AuthKey_<KEYID>.p8 \\"),
            Words("     --team-id <TEAMID> --topic <your.bundle.id> \\", es: "     --team-id <TEAMID> --topic <tu.bundle.id> \\"),
            Words(verbatim: "     --device-token <TOKEN> \\"),
            Words("     --title Hello --body 'From pushctl'", es: "     --title Hola --body 'Desde pushctl'"),
            Words(
                "With a certificate (one app, renewed every year): make an Apple Push Notification service SSL certificate for the app, export it with its key from Keychain Access as push.p12, then:",
                es:
                    "Con un certificado (una app, se renueva cada año): crea un certificado Apple Push Notification service SSL para la app, expórtalo con su clave desde Acceso a Llaveros como push.p12, y luego:"
            ),
            Words("   pushctl cert inspect push.p12  # topics, expiry date", es: "   pushctl cert inspect push.p12  # topics, caducidad"),
            Words(verbatim: "   pushctl send --cert push.p12 \\"),
            Words("     --device-token <TOKEN> --title Hello", es: "     --device-token <TOKEN> --title Hola"),
            Words(
                "Try both first against a local APNs: `pushctl mock --help`, `pushctl cert generate --help`.",
                es: "Prueba las dos primero con un APNs local: `pushctl mock --help`, `pushctl cert generate --help`."),
            Words(
                "Live Activities: `pushctl send --live-activity update --content-state '{…}'` (the lint catches what a device would silently drop); broadcasts to many activities: `pushctl channel create`, then `send --channel-id`.",
                es:
                    "Live Activities: `pushctl send --live-activity update --content-state '{…}'` (el lint detecta lo que un dispositivo descartaría sin avisar); envíos a muchas actividades: `pushctl channel create`, y luego `send --channel-id`."
            ),
        ]
        for step in steps { narrator.say(step) }
    }

    private func send(
        _ template: PushTemplate, to tokens: [DeviceToken], narrator: Narrator,
        authorization: any AuthorizationSource, to local: Destination, over connection: ConnectionSettings
    ) throws {
        let renderer = ResultRenderer(
            format: .text, sink: StandardOutput.shared,
            style: TextResultStyle(
                colour: Console.useColour(on: Descriptors.standardOutput), wholeTokens: false, language: LanguageSetting.language, naming: FlagNames.naming))
        do {
            let plan = SendPlan(
                notifications: .list(template, tokens, duplicates: 0), destination: local, connection: connection,
                authorization: authorization, policy: RetryPolicy())
            _ = try SendRun(plan: plan).run { result in
                narrator.say(Words(verbatim: "  " + renderer.line(for: result)))
            }
        } catch {
            Console.error(error.description)
            throw ExitCode(ExitStatus(error.kind).rawValue)
        }
    }

    /// `text` padded to `width` columns, or followed by two spaces when it is wider (never cut).
    static func column(_ text: String, _ width: Int) -> String {
        text.count < width ? text + String(repeating: " ", count: width - text.count) : text + "  "
    }

    static func meaning(_ header: String) -> Words {
        switch header {
        case APNsHeader.pushType: return Words("what kind of push (must match the payload)", es: "qué tipo (debe cuadrar con la carga útil)")
        case APNsHeader.topic: return Words("which app (its bundle id)", es: "qué app (su bundle id)")
        case APNsHeader.priority: return Words("10 = now, 5 = when power allows", es: "10 = ya, 5 = cuando la batería lo permita")
        case APNsHeader.collapseID: return Words("newer replaces older with the same id", es: "la más nueva sustituye a la anterior con el mismo id")
        case APNsHeader.expiration: return Words("how long APNs may keep trying", es: "cuánto tiempo puede seguir intentándolo APNs")
        case APNsHeader.id: return Words("your id for this notification", es: "tu id para esta notificación")
        default: return Words(verbatim: "")
        }
    }
}

/// Prints the demo's steps; with --pause, waits for Enter between them when a person is there.
/// Tells the demo on stdout, wrapped to the terminal's width at word boundaries. With `pause` on
/// a terminal it waits for Enter between steps, and within a step whenever the screen is full,
/// so nothing scrolls off before it was read.
final class Narrator {
    let pause: Bool
    /// Rows printed since the last wait.
    private var printed = 0

    init(pause: Bool) { self.pause = pause }

    private var pausing: Bool { pause && Terminal.isTerminal(Descriptors.standardInput) }

    func step(_ number: Int, _ title: Words, _ lines: [Words]) {
        if number > 1 { wait() }
        emit("")
        let heading = Words("Step \(number) of 9 — ", es: "Paso \(number) de 9 — ") + title
        for row in TextLayout.wrap(heading.description, width: Console.width(of: Descriptors.standardOutput) ?? Int.max / 2) {
            emit(Console.paint(row, .bold))
        }
        lines.forEach(say)
    }

    func say(_ words: Words) { say(words.description) }

    func say(_ line: String) { Console.wrapped(line, fitting: Descriptors.standardOutput).forEach(emit) }

    private func emit(_ row: String) {
        // Leave room for the prompt: a full screen waits before the next row.
        if pausing, printed >= Console.rows(of: Descriptors.standardOutput) - 2 { wait() }
        Console.out(row)
        printed += 1
    }

    func wait() {
        printed = 0
        guard pausing else { return }
        Console.writeOut(Array(Console.paint(Words("  (Enter to continue)", es: "  (Intro para seguir)").description, .dim).utf8))
        _ = readLine()
    }
}

/// While it lives, SIGINT and SIGTERM remove a folder and end the process (130 or 143, as a shell
/// reports a process the signal killed). Caught on a queue of its own, so the main thread may be
/// blocked (say, in `readLine` for --pause) when the signal comes.
private final class CleanupOnSignal {
    private let queue = DispatchQueue(label: "pushctl.demo.signals")
    private var sources: [any DispatchSourceSignal] = []

    init(removing folder: URL) {
        for which in [Signal.interrupt, .terminate] {
            // Ignored first, so that the default action (death, the folder left behind) never runs.
            Signals.ignore(which)
            let source = DispatchSource.makeSignalSource(signal: which.number, queue: queue)
            source.setEventHandler {
                try? FileManager.default.removeItem(at: folder)
                let how = which == .interrupt ? Words("interrupted", es: "interrumpida") : Words("terminated", es: "terminada")
                Console.err("\n" + Words("pushctl demo: \(how); removed \(folder.path)", es: "pushctl demo: \(how); se borró \(folder.path)").description)
                CurrentProcess.exit(128 + which.number)
            }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
        for which in [Signal.interrupt, .terminate] { Signals.restoreDefault(which) }
    }
}
