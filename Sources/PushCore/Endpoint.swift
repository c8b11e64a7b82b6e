/// Where to send instead of Apple's hosts (`--endpoint`, e.g. `pushctl mock`'s URL).
public enum Endpoint {
    /// `https://host[:port]`, checked strictly: the URL is pasted into every request, so a path,
    /// query, fragment, user name, space or control character would change what is sent.
    /// Trailing slashes are dropped. Returns the URL as it will be used.
    public static func baseURL(parsing text: String) throws(InputError) -> String {
        let shown = OutsideText.display(text)
        func refuse(_ why: String) -> InputError {
            InputError("the endpoint '\(shown)' is not an https://host[:port] URL: \(why)",
                       hint: "APNs is HTTPS only, e.g. https://127.0.0.1:8443 for pushctl mock")
        }
        guard text.utf8.count <= 300 else { throw refuse("it is too long") }
        guard text.lowercased().hasPrefix("https://") else { throw refuse("it must start with https://") }
        var rest = Substring(text.dropFirst("https://".count))
        while rest.hasSuffix("/") { rest.removeLast() }
        if let bad = rest.unicodeScalars.first(where: { OutsideText.isControl($0) || $0 == " " }) {
            throw refuse(bad == " " ? "it holds a space" : "it holds a control character")
        }
        for (character, what) in [("/", "a path"), ("?", "a query"), ("#", "a fragment"), ("@", "a user name")] where rest.contains(character) {
            throw refuse("it has \(what); give only the scheme, host and port")
        }
        var host = rest
        var port: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw refuse("an IPv6 address needs its closing ]") }
            host = rest[...close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw refuse("unexpected text after the IPv6 address") }
                port = after.dropFirst()
            }
            guard host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit && $0.isASCII || $0 == ":" || $0 == "." }), host.count > 2 else {
                throw refuse("the IPv6 address is not valid")
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            port = rest[rest.index(after: colon)...]
        }
        guard !host.isEmpty else { throw refuse("it has no host") }
        if !host.hasPrefix("[") {
            guard host.utf8.count <= 253,
                  host.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x2E || $0 == 0x5F })
            else { throw refuse("the host name may hold only letters, digits, '-', '.' and '_'") }
        }
        if let port {
            guard !port.isEmpty, port.count <= 5, port.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(port), (1...65535).contains(number) else {
                throw refuse("the port must be a number from 1 to 65535")
            }
        }
        return "https://" + rest
    }
}
