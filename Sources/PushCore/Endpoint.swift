/// Where to send instead of Apple's hosts (`--endpoint`, e.g. `pushctl mock`'s URL).
public enum Endpoint {
    /// `https://host[:port]`, checked strictly: the URL is pasted into every request, so a path,
    /// query, fragment, user name, space or control character would change what is sent.
    /// Trailing slashes are dropped. Returns the URL as it will be used.
    public static func baseURL(parsing text: String) throws(InputError) -> String {
        let shown = Redaction.url(text, limit: OutsideText.defaultLimit)
        func refuse(_ why: EndpointProblem.Why, meant: String? = nil) -> InputError {
            InputError(EndpointProblem.notAnHTTPSURL(shown: shown, why, meant: meant))
        }
        guard text.utf8.count <= 300 else { throw refuse(.tooLong) }
        guard text.lowercased().hasPrefix("https://") else {
            // `127.0.0.1:8443` or `http://…`: the same host and port over https, when that is a URL.
            let bare = text.lowercased().hasPrefix("http://") ? String(text.dropFirst("http://".count)) : text
            throw refuse(.notHTTPS, meant: bare.contains("://") ? nil : try? baseURL(parsing: "https://" + bare))
        }
        var rest = Substring(text.dropFirst("https://".count))
        while rest.hasSuffix("/") { rest.removeLast() }
        if let bad = rest.unicodeScalars.first(where: { OutsideText.isControl($0) || $0 == " " }) {
            throw refuse(bad == " " ? .space : .controlCharacter)
        }
        // Characters, not strings: a string's `contains` is a substring search, whose first use costs
        // a single push a scan of the runtime's conformance records.
        let parts: [(Character, EndpointProblem.Why)] = [("/", .path), ("?", .query), ("#", .fragment), ("@", .userName)]
        for (character, what) in parts where rest.contains(character) {
            // A request's whole URL pasted (`…/3/device/<token>`): its scheme, host and port.
            let base = character == "/" ? rest.prefix { $0 != "/" } : nil
            throw refuse(what, meant: base.flatMap { try? baseURL(parsing: "https://" + $0) })
        }
        var host = rest
        var port: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw refuse(.unclosedIPv6) }
            host = rest[...close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw refuse(.textAfterIPv6) }
                port = after.dropFirst()
            }
            guard host.dropFirst().dropLast().utf8.allSatisfy({ $0.isASCIIHexDigit || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }), host.count > 2
            else {
                throw refuse(.invalidIPv6)
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            port = rest[rest.index(after: colon)...]
        }
        guard !host.isEmpty else { throw refuse(.noHost) }
        if !host.hasPrefix("[") {
            guard host.utf8.count <= 253,
                host.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x2E || $0 == 0x5F })
            else { throw refuse(.hostCharacters) }
        }
        if let port {
            guard !port.isEmpty, port.count <= 5, port.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(port), (1...65535).contains(number)
            else {
                throw refuse(.port)
            }
        }
        return "https://" + String(rest)
    }
}

/// What is wrong with an endpoint.
public enum EndpointProblem: InputProblem {
    /// Not `https://host[:port]`, for `why`; `meant` is the URL it likely means, when there is one.
    case notAnHTTPSURL(shown: String, Why, meant: String?)

    public enum Why: Sendable, Equatable, CaseIterable {
        case tooLong, notHTTPS, space, controlCharacter
        /// It has a path, a query, a fragment or a user name: give only the scheme, host and port.
        case path, query, fragment, userName
        case unclosedIPv6, textAfterIPv6, invalidIPv6, noHost, hostCharacters, port
    }
}
