/// Where to send instead of Apple's hosts (`--endpoint`, e.g. `pushctl mock`'s URL).
public enum Endpoint {
    /// `https://host[:port]`, checked strictly: the URL is pasted into every request, so a path,
    /// query, fragment, user name, space or control character would change what is sent.
    /// Trailing slashes are dropped. Returns the URL as it will be used.
    public static func baseURL(parsing text: String) throws(InputError) -> String {
        let shown = OutsideText.display(text)
        func refuse(_ why: Words, meant: String? = nil) -> InputError {
            InputError(Words("the endpoint '\(shown)' is not an https://host[:port] URL: ", es: "el endpoint '\(shown)' no es una URL https://host[:puerto]: ") + why,
                       hint: meant.map { Words("write it as \($0)", es: "escríbelo como \($0)") }
                           ?? Words("APNs is HTTPS only, e.g. https://127.0.0.1:8443 for pushctl mock",
                                    es: "APNs solo habla HTTPS, p. ej. https://127.0.0.1:8443 para pushctl mock"))
        }
        guard text.utf8.count <= 300 else { throw refuse(Words("it is too long", es: "es demasiado larga")) }
        guard text.lowercased().hasPrefix("https://") else {
            // `127.0.0.1:8443` or `http://…`: the same host and port over https, when that is a URL.
            let bare = text.lowercased().hasPrefix("http://") ? String(text.dropFirst("http://".count)) : text
            throw refuse(Words("it must start with https://", es: "debe empezar por https://"),
                         meant: bare.contains("://") ? nil : try? baseURL(parsing: "https://" + bare))
        }
        var rest = Substring(text.dropFirst("https://".count))
        while rest.hasSuffix("/") { rest.removeLast() }
        if let bad = rest.unicodeScalars.first(where: { OutsideText.isControl($0) || $0 == " " }) {
            throw refuse(bad == " " ? Words("it holds a space", es: "contiene un espacio") : Words("it holds a control character", es: "contiene un carácter de control"))
        }
        // Characters, not strings: a string's `contains` is a substring search, whose first use costs
        // a single push a scan of the runtime's conformance records.
        let parts: [(Character, Words)] = [("/", Words("a path", es: "una ruta")), ("?", Words("a query", es: "una consulta")),
                                           ("#", Words("a fragment", es: "un fragmento")), ("@", Words("a user name", es: "un nombre de usuario"))]
        for (character, what) in parts where rest.contains(character) {
            // A request's whole URL pasted (`…/3/device/<token>`): its scheme, host and port.
            let base = character == "/" ? rest.prefix { $0 != "/" } : nil
            throw refuse(Words("it has ", es: "tiene ") + what + Words("; give only the scheme, host and port", es: "; da solo el esquema, el host y el puerto"),
                         meant: base.flatMap { try? baseURL(parsing: "https://" + $0) })
        }
        var host = rest
        var port: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw refuse(Words("an IPv6 address needs its closing ]", es: "a una dirección IPv6 le falta su ] de cierre")) }
            host = rest[...close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw refuse(Words("unexpected text after the IPv6 address", es: "hay texto inesperado tras la dirección IPv6")) }
                port = after.dropFirst()
            }
            guard host.dropFirst().dropLast().utf8.allSatisfy({ $0.isASCIIHexDigit || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }), host.count > 2 else {
                throw refuse(Words("the IPv6 address is not valid", es: "la dirección IPv6 no es válida"))
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            port = rest[rest.index(after: colon)...]
        }
        guard !host.isEmpty else { throw refuse(Words("it has no host", es: "no tiene host")) }
        if !host.hasPrefix("[") {
            guard host.utf8.count <= 253,
                  host.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x2E || $0 == 0x5F })
            else { throw refuse(Words("the host name may hold only letters, digits, '-', '.' and '_'", es: "el nombre del host solo puede tener letras, dígitos, '-', '.' y '_'")) }
        }
        if let port {
            guard !port.isEmpty, port.count <= 5, port.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(port), (1...65535).contains(number) else {
                throw refuse(Words("the port must be a number from 1 to 65535", es: "el puerto debe ser un número del 1 al 65535"))
            }
        }
        return "https://" + String(rest)
    }
}
