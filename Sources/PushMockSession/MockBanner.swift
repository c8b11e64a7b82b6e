import PushCore
import PushMock
import PushWords

extension MockSettings {
    /// What the mock prints once it listens: where, what it checks, the faults and limits it plays,
    /// and how to send to it.
    func banner(caPath: String, caPEM: String, keys: [MockProviderKey], faults: MockFaults, classroom: Classroom) -> String {
        var lines = [
            Words(
                "pushctl mock listening on \(classroom.endpoint) (HTTP/2 over TLS, ALPN h2)",
                es: "pushctl mock escuchando en \(classroom.endpoint) (HTTP/2 sobre TLS, ALPN h2)"
            ).text(language, naming: naming)
        ]
        let team =
            teamID.map { Words("; iss must be \($0)", es: "; iss debe ser \($0)").text(language, naming: naming) }
            ?? Words("; any team", es: "; cualquier equipo").text(language, naming: naming)
        if let keyDirectory {
            let ids = keys.map(\.keyID).joined(separator: ", ")
            let named = keys.isEmpty ? "" : Words(", and key \(ids)", es: ", y la clave \(ids)").text(language, naming: naming)
            lines.append(
                Words(
                    "  provider tokens: ES256 signatures checked with the keys in \(keyDirectory) (KEYID.pem, each student's public half, read as they arrive)\(named)\(team)",
                    es:
                        "  tokens del proveedor: firmas ES256 comprobadas con las claves de \(keyDirectory) (KEYID.pem, la mitad pública de cada alumno, leídas según llegan)\(named)\(team)"
                ).text(language, naming: naming))
        } else if keys.isEmpty {
            lines.append(
                Words(
                    "  provider tokens: shape only (no \(Setting.keyFile)): ES256 header, kid, iss, iat are checked, signatures are NOT\(team)",
                    es: "  tokens del proveedor: solo la forma (sin \(Setting.keyFile)): se comprueban la cabecera ES256, kid, iss e iat; las firmas NO\(team)"
                ).text(language, naming: naming))
        } else {
            let ids = keys.map(\.keyID).joined(separator: ", ")
            lines.append(
                Words(
                    "  provider tokens: ES256 signatures (raw or DER) checked with key \(ids)\(team)",
                    es: "  tokens del proveedor: firmas ES256 (raw o DER) comprobadas con la clave \(ids)\(team)"
                ).text(language, naming: naming))
        }
        lines.append(Words("  CA certificate: \(caPath)", es: "  certificado de la CA: \(caPath)").text(language, naming: naming))
        lines += classroom.lines(caPEM: caPEM, language: language)
        let otherCAs = clientCAPaths.joined(separator: ", ")
        lines.append(
            clientCAPaths.isEmpty
                ? Words(
                    "  client certificates: accepted when signed by the mock's CA; environment \(environment.rawValue)",
                    es: "  certificados de cliente: aceptados si los firma la CA del mock; entorno \(environment.rawValue)"
                ).text(language, naming: naming)
                : Words(
                    "  client certificates: accepted when signed by the mock's CA or \(otherCAs); environment \(environment.rawValue)",
                    es: "  certificados de cliente: aceptados si los firma la CA del mock o \(otherCAs); entorno \(environment.rawValue)"
                ).text(language, naming: naming))
        lines.append(
            Words(
                "  streams: \(initialStreams) per connection until a request with a valid token, then \(maxStreams)",
                es: "  streams: \(initialStreams) por conexión hasta una petición con un token válido, después \(maxStreams)"
            ).text(language, naming: naming))
        lines += Self.faultLines(faults)
        lines += limitLines
        if let logPath {
            let shown = OutsideText.display(logPath, limit: 200)
            lines.append(
                Words(
                    "  log: \(shown) (one JSON line per request; at \(logMaxSizeMiB) MiB it becomes \(shown).1)",
                    es: "  registro: \(shown) (una línea JSON por petición; al llegar a \(logMaxSizeMiB) MiB pasa a \(shown).1)"
                ).text(language, naming: naming))
        }

        lines += sendLines(classroom: classroom, caPath: caPath)
        lines.append(Words("Ctrl-C stops it.", es: "Ctrl-C lo detiene.").text(language, naming: naming))
        return lines.joined(separator: "\n")
    }

    /// A line for each fault the mock plays.
    private static func faultLines(_ faults: MockFaults) -> [String] {
        var lines: [String] = []
        for (token, reason) in faults.failTokens.sorted(by: { $0.key.hex < $1.key.hex }) {
            lines.append("  fault: \(token.short) answers \(reason.status) \(reason.apnsName)")
        }
        for (token, rule) in faults.failFirstAttempts.sorted(by: { $0.key.hex < $1.key.hex }) {
            lines.append("  fault: \(token.short) answers \(rule.reason.status) \(rule.reason.apnsName) to its first \(rule.attempts) request(s)")
        }
        if let n = faults.goAwayAfterRequests { lines.append("  fault: GOAWAY after \(n) requests on each connection") }
        if let n = faults.closeAfterRequests { lines.append("  fault: connections dropped after \(n) requests") }
        if let n = faults.refuseEveryNthStream { lines.append("  fault: every \(n)th stream refused (REFUSED_STREAM)") }
        if faults.goAwayErrorCode != 0 { lines.append("  fault: the GOAWAY carries error \(MockFaults.describeHTTP2ErrorCode(faults.goAwayErrorCode))") }
        if faults.responseDelayMilliseconds > 0 { lines.append("  fault: answers delayed \(faults.responseDelayMilliseconds) ms") }
        if let answer = faults.answer {
            let scope = faults.answerCount.map { "the first \($0) request(s) that pass the checks" } ?? "every request that passes the checks"
            lines.append("  fault: \(scope) answered \(answer.status) with a \(answer.body.count)-byte body (no apns-id)")
        }
        if let value = faults.retryAfter { lines.append("  fault: retry-after: \(value) on every answer that is not 200") }
        if faults.padBodyBytes > 0 { lines.append("  fault: every answer's body padded with \(faults.padBodyBytes) spaces") }
        if faults.silent { lines.append("  fault: silent: requests are read, never answered; connections never closed") }
        if faults.resetStreams { lines.append("  fault: every request reset with RST_STREAM(INTERNAL_ERROR)") }
        if let reason = faults.goAwayInstead {
            lines.append("  fault: no answers: GOAWAY {\"reason\":\"\(reason.apnsName)\"} on each connection's first request")
        }
        return lines
    }

    /// How to send to it: the key to make (a class folder, or any key for a shape-only mock) and
    /// the send command, pasteable as printed. pushctl's settings are named as the program names
    /// them (`MockSettings.naming`): this library spells no flag.
    private func sendLines(classroom: Classroom, caPath: String) -> [String] {
        var lines: [String] = []
        let ca = classroom.caFile == nil ? caPath : "mock-ca.pem"
        var send = ["pushctl send \(naming.name(.endpoint)) \(classroom.endpoint) \(naming.name(.caCertificate)) \(ca)"]
        if let key = keyFiles.first {
            if let equals = key.firstIndex(of: "="), AppleIdentifier.isWellFormed(String(key[..<equals])) {
                send.append("\(naming.name(.keyFile)) \(key[key.index(after: equals)...]) \(naming.name(.keyID)) \(key[..<equals])")
            } else {
                send.append("\(naming.name(.keyFile)) \(key)")
            }
        } else {
            // Pasteable as printed: any key will do, since this mock checks only the token's shape.
            send.append("\(naming.name(.keyFile)) AuthKey_ABC123DEFG.p8")
        }
        send.append("\(naming.name(.teamID)) \(teamID ?? "DEF123GHIJ") \(naming.name(.topic)) com.example.app")
        send.append("\(naming.name(.deviceToken)) \(String(repeating: "0123456789abcdef", count: 4)) \(naming.name(.title)) Hello")
        lines.append(
            classroom.caFile == nil
                ? Words("Send to it with:", es: "Envíale notificaciones con:").text(language, naming: naming)
                : Words(
                    "Send to it (from any machine, with the mock-ca.pem curl fetched):",
                    es: "Envíale notificaciones (desde cualquier máquina, con el mock-ca.pem que descargó curl):"
                ).text(language, naming: naming))
        if let keyDirectory {
            lines.append(
                Words(
                    "  pushctl key generate \(Setting.keyID) ABC123DEFG   # your own key; the .p8 stays with you",
                    es: "  pushctl key generate \(Setting.keyID) ABC123DEFG   # tu propia clave; el .p8 se queda contigo"
                ).text(language, naming: naming))
            lines.append(
                Words(
                    "  cp ABC123DEFG.pem \(keyDirectory)/   # the public half, for the mock (or hand it to the teacher)",
                    es: "  cp ABC123DEFG.pem \(keyDirectory)/   # la mitad pública, para el mock (o dásela al profesor)"
                ).text(language, naming: naming))
        } else if keyFiles.isEmpty {
            lines.append(
                Words(
                    "  pushctl key generate \(Setting.keyID) ABC123DEFG   # any key: this mock checks only the token's shape",
                    es: "  pushctl key generate \(Setting.keyID) ABC123DEFG   # cualquier clave: este mock solo comprueba la forma del token"
                ).text(language, naming: naming))
        }
        lines.append("  " + send.joined(separator: " "))
        return lines
    }

    /// The banner's lines for the limits that differ from APNs' defaults.
    private var limitLines: [String] {
        var lines: [String] = []
        if tokenUpdateIntervalSeconds != 20 * 60 {
            lines.append(
                tokenUpdateIntervalSeconds == 0
                    ? Words(
                        "  limit: tokens may change any time (no TooManyProviderTokenUpdates)",
                        es: "  límite: los tokens pueden cambiar en cualquier momento (sin TooManyProviderTokenUpdates)"
                    ).text(language, naming: naming)
                    : Words(
                        "  limit: a token may change every \(tokenUpdateIntervalSeconds) s on a connection",
                        es: "  límite: un token puede cambiar cada \(tokenUpdateIntervalSeconds) s en una conexión"
                    ).text(language, naming: naming))
        }
        if let badTokenLimit {
            lines.append(
                Words(
                    "  limit: GOAWAY after \(badTokenLimit) BadDeviceToken answers on a connection",
                    es: "  límite: GOAWAY tras \(badTokenLimit) respuestas BadDeviceToken en una conexión"
                ).text(language, naming: naming))
        }
        if idleTimeoutSeconds == 0 {
            lines.append(
                Words("  limit: idle connections are never closed", es: "  límite: las conexiones inactivas no se cierran nunca").text(language, naming: naming)
            )
        } else if idleTimeoutSeconds * 1000 != Double(MockProtocolLimits.defaultIdleTimeoutMilliseconds) {
            lines.append(
                Words(
                    "  limit: 400 IdleTimeout after \(idleTimeoutSeconds) s without a frame; idle connections closed",
                    es: "  límite: 400 IdleTimeout tras \(idleTimeoutSeconds) s sin ningún frame; las conexiones inactivas se cierran"
                ).text(language, naming: naming))
        }
        if maxConnectionsPerAddress != 1000 {
            lines.append(
                Words(
                    "  limit: \(maxConnectionsPerAddress) connections at once from one address",
                    es: "  límite: \(maxConnectionsPerAddress) conexiones a la vez desde una dirección"
                ).text(language, naming: naming))
        }
        return lines
    }
}
