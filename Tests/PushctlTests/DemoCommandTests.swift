import Foundation
import Testing

@Suite struct DemoCommandTests {
    @Test("demo runs the whole flow offline, in order, and never waits without a terminal even with --pause")
    func demo() throws {
        let started = Date()
        let result = try CLI.pushctl(["demo", "--pause"], stdin: "")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 30)
        let out = result.stdout
        var cursor = out.startIndex
        for expected in [
            "Step 1 of 9 — The key", "AuthKey_DEMO123456.p8", "Step 2 of 9", "2.1 Header", "r: ", "s: ",
            "Step 3 of 9", "POST https://127.0.0.1:", "apns-push-type: alert",
            "Step 4 of 9", "200  apns-id", "unique-id",
            "Step 5 of 9", "apns-push-type: background and apns-priority: 5", "200  apns-id",
            "Step 6 of 9", "the payload is 4097 bytes, 1 over APNs' limit of 4096 bytes",
            "Step 7 of 9", "410 Unregistered",
            "Step 8 of 9 — A Live Activity the phone cannot read", "var endsAt: Date", #"content-state: {"endsAt":"#,
            #"will fail on the phone: aps.content-state.score: MatchAttributes.ContentState needs "score""#,
            "will look wrong: aps.content-state.endsAt:", "if you meant UNIX time, send ", "200  apns-id",
            #"content-state: {"score":"2 – 1","endsAt":"#, "nothing found: the phone decodes it.", "200  apns-id",
            "Step 9 of 9", "over a test certificate", "pushctl send --key-file AuthKey_<KEYID>.p8", "pushctl send --cert push.p12",
        ] {
            let found = try #require(out.range(of: expected, range: cursor..<out.endIndex), "missing or out of order: \(expected)")
            cursor = found.upperBound
        }
        #expect(!out.contains("\u{1B}["), "no colour without a terminal")
        #expect(!out.contains("Enter to continue"))
    }

    @Test(
        "the commands the demo ends with paste as printed on a 60-column projector: no line of them is wrapped, in either language",
        arguments: ["en", "es"])
    func commandsFit(language: String) throws {
        let demo = try CLI.pushctl(["demo", "--lang", language], stdin: "", env: ["COLUMNS": "60"])
        #expect(demo.status == 0, "\(demo.stderr)")
        let (topic, title, body, comment) =
            language == "es"
            ? ("<tu.bundle.id>", "Hola", "Desde pushctl", "topics, caducidad") : ("<your.bundle.id>", "Hello", "From pushctl", "topics, expiry date")
        for block in [
            "\n   pushctl send --key-file AuthKey_<KEYID>.p8 \\\n     --team-id <TEAMID> --topic \(topic) \\\n     --device-token <TOKEN> \\\n     --title \(title) --body '\(body)'\n",
            "\n   pushctl cert inspect push.p12  # \(comment)\n",
            "\n   pushctl send --cert push.p12 \\\n     --device-token <TOKEN> --title \(title)\n",
        ] {
            #expect(demo.stdout.contains(block), "not as printed: \(block)\n\(demo.stdout.suffix(1500))")
        }
    }

    @Test("the demo and jwt --explain in Spanish when the locale says so; the machine parts (JSON, headers, tokens) unchanged")
    func spanish() throws {
        let demo = try CLI.pushctl(["demo"], stdin: "", env: ["LANG": "es_ES.UTF-8"])
        #expect(demo.status == 0, "\(demo.stderr)")
        var cursor = demo.stdout.startIndex
        for expected in [
            "Paso 1 de 9 — La clave", "2.1 Cabecera", #"{"alg":"ES256","kid":"DEMO123456"}"#, "Paso 3 de 9 — La petición HTTP/2",
            "apns-push-type: alert", "Paso 5 de 9 — Una notificación silenciosa", "Paso 6 de 9", "rechazada:",
            "No se envió nada", "Paso 7 de 9", "410 Unregistered", "Paso 8 de 9 — Una Live Activity que el teléfono no puede leer",
            "fallará en el teléfono: aps.content-state.score", "se verá mal: aps.content-state.endsAt", "nada que señalar: el teléfono la decodifica.",
            "Paso 9 de 9", "Con una clave",
        ] {
            let found = try #require(demo.stdout.range(of: expected, range: cursor..<demo.stdout.endIndex), "missing or out of order: \(expected)")
            cursor = found.upperBound
        }
        #expect(!demo.stdout.contains("Step "), "no English step left")
        #expect(demo.stdout.contains(#"{"aps":{"alert":{"title":"Hola","body":"Desde la demo de pushctl"}"#), "the alert the class reads is Spanish too")
        #expect(demo.stdout.contains("     --title Hola --body 'Desde pushctl'"), "\(demo.stdout)")
        let dir = try TemporaryDirectory()
        let explain = try CLI.pushctl(["jwt", "--explain", "--key-file", try dir.generateKey(), "--team-id", "DEF123GHIJ", "--lang", "es"])
        #expect(explain.status == 0 && explain.stderr.contains("2. Cabecera — JSON con el algoritmo") && explain.stdout.hasPrefix("eyJ"), "\(explain.stderr)")
    }
}
