/// How a secret the user gave is shown: the one rule for every place pushctl echoes an argument,
/// a URL or a `pkcs11:` URI (warnings, errors, dry runs, `doctor`, the resume hint, CI annotations,
/// step summaries, libcurl's trace). What it returns is display text: bounded, and stripped of
/// control characters (`OutsideText`).
///
/// - A URL's password is masked, and so is a whole userinfo that has no user name or no password
///   (`http://:TOKEN@host` and `http://TOKEN@host` are token proxies' forms: the "user" is the secret).
/// - A `pkcs11:` URI's `pin-value` is masked wherever it stands (path or query).
/// - A command line's secret arguments (`--jwt`, `--signer`, a URL with credentials, a URI with a PIN)
///   are shown as the variable that would carry them (`"$PUSHCTL_JWT"`), so the line still runs.
public enum Redaction {
    /// What stands where a secret was.
    public static let mask = "***"

    /// Secrets shorter than this are not looked for in free text (a one-letter user name would mask
    /// every such letter); the URL and URI rules still mask them where they stand.
    public static let minimumSecretLength = 4

    /// `text` (a URL) as messages show it: `scheme://user:***@host…`, or `scheme://***@host…` when
    /// the userinfo has no user name or no password.
    public static func url(_ text: some StringProtocol, limit: Int = 200) -> String {
        OutsideText.display(maskingUserInfo(String(text)), limit: limit)
    }

    /// The credentials a URL carries, as free text may name them: its whole userinfo, the user name
    /// and the password (empty when it has none).
    public static func credentials(in url: String) -> [String] {
        guard let range = userInfoRange(in: Substring(url)) else { return [] }
        let userInfo = url[range]
        return [String(userInfo)] + userInfo.split(separator: ":", maxSplits: 1).map(String.init)
    }

    /// Whether a URL carries credentials (any userinfo before its host).
    public static func hasCredentials(_ text: some StringProtocol) -> Bool {
        userInfoRange(in: Substring(text)) != nil
    }

    /// A `pkcs11:` URI as messages show it, every `pin-value` masked (bounded, no control characters).
    public static func pkcs11(_ text: some StringProtocol, limit: Int = 200) -> String {
        OutsideText.display(maskingPIN(String(text), inURI: true), limit: limit)
    }

    /// Whether a `pkcs11:` URI carries a PIN (`pin-value`, in its path or its query).
    public static func carriesPIN(_ text: some StringProtocol) -> Bool {
        pkcs11Attributes(Substring(text)).contains { $0.lowercased().hasPrefix("pin-value=") }
    }

    /// A line of free text (libcurl's trace, an error another library wrote) with every URL's
    /// userinfo and every `pin-value` masked, and each of `secrets` (a PIN, a password, a token the
    /// caller knows) replaced wherever it appears. Not bounded: the caller bounds the line.
    public static func scrub(_ text: String, secrets: [String] = []) -> String {
        var out = text
        // Longest first, so a password is not left half-shown by a shorter secret inside it.
        for secret in secrets.sorted(by: { $0.count > $1.count }) where secret.count >= minimumSecretLength {
            out = out.replacing(secret, with: mask)
        }
        out = maskingEveryUserInfo(out)
        return maskingPIN(out)
    }

    // MARK: A command line

    /// What a setting's value is, for the command line's display.
    public enum ArgumentKind: Sendable, Equatable {
        /// Shown as given.
        case plain
        /// Always a secret: shown as the variable that carries it (`"$PUSHCTL_JWT"`).
        case secret(variable: String)
        /// A URL: a secret when it carries credentials (then shown as `variable`, or masked).
        case url(variable: String?)
        /// A key file or a `pkcs11:` URI: a secret when it carries a PIN.
        case keyLocation(variable: String?)
    }

    /// `value`, given to a flag of `kind`, as a command line may show it: a secret becomes its
    /// variable as a shell word (`"$PUSHCTL_SIGNER"`), or is masked when no variable carries it.
    /// Nil: the value is no secret (the caller quotes it as it is).
    public static func argument(_ value: String, kind: ArgumentKind) -> String? {
        func variableWord(_ name: String) -> String { "\"$\(name)\"" }
        switch kind {
        case .plain:
            return nil
        case .secret(let variable):
            return variableWord(variable)
        case .url(let variable):
            guard hasCredentials(value) else { return nil }
            return variable.map(variableWord) ?? quoted(url(value, limit: 400))
        case .keyLocation(let variable):
            guard value.lowercased().hasPrefix("pkcs11:"), carriesPIN(value) else { return nil }
            return variable.map(variableWord) ?? quoted(pkcs11(value, limit: 400))
        }
    }

    /// The variables a command line from `commandLine(_:kinds:)` stands its secrets in for
    /// (`"$PUSHCTL_JWT"`), in order, once each: what to set before running it.
    public static func variables(in command: String) -> [String] {
        var found: [String] = []
        var rest = Substring(command)
        while let start = rest.firstRange(of: "\"$") {
            let name = rest[start.upperBound...].prefix { $0 == "_" || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") }
            if !name.isEmpty, !found.contains(String(name)) { found.append(String(name)) }
            rest = rest[start.upperBound...]
        }
        return found
    }

    /// `arguments` (the program first) as one shell line with every secret redacted: `kinds` names
    /// the flags that may carry one (`--flag value` and `--flag=value` forms). What follows a `--`
    /// is shown as given.
    public static func commandLine(_ arguments: [String], kinds: [String: ArgumentKind]) -> String {
        var words: [String] = []
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            defer { index += 1 }
            if index == 0 || optionsEnded {
                words.append(quoted(argument))
                continue
            }
            if argument == "--" {
                optionsEnded = true
                words.append(argument)
                continue
            }
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--"), let kind = kinds[String(argument[..<equals])] {
                let flag = String(argument[..<equals])
                let value = String(argument[argument.index(after: equals)...])
                words.append(Self.argument(value, kind: kind).map { flag + "=" + $0 } ?? quoted(argument))
                continue
            }
            if let kind = kinds[argument], index + 1 < arguments.count {
                let value = arguments[index + 1]
                words += [argument, Self.argument(value, kind: kind) ?? quoted(value)]
                index += 1
                continue
            }
            words.append(quoted(argument))
        }
        return words.joined(separator: " ")
    }

    /// `s` shown (control characters as escapes, bounded) as one shell word: a line that is
    /// displayed, then copied.
    public static func quoted(_ s: String) -> String { shellWord(OutsideText.display(s, limit: 2048)) }

    /// `s` as one shell word: bare when it is plain, else in single quotes.
    public static func shellWord(_ s: String) -> String {
        s.allSatisfy({ $0.isLetter || $0.isNumber || "-_./:@=".contains($0) }) && !s.isEmpty
            ? s : "'" + s.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    // MARK: The rules

    /// Where the userinfo of the URL that starts `text` stands (`scheme://USERINFO@`), if it has one.
    /// Without a scheme (`user:password@host:port`, which libcurl takes from `https_proxy`) the text
    /// is read as an authority. A password with an unencoded `/` (`u:pa/ss@host`) still counts: a
    /// colon before the first slash that is not a port's is a userinfo's.
    static func userInfoRange(in text: Substring) -> Range<Substring.Index>? {
        let start = text.firstRange(of: "://")?.upperBound ?? text.startIndex
        let end = text[start...].firstIndex { $0.isWhitespace || $0 == "'" || $0 == "\"" } ?? text.endIndex
        let span = text[start..<end]
        let slash = span.firstIndex { "/?#".contains($0) } ?? span.endIndex
        if let at = span[..<slash].lastIndex(of: "@") { return start..<at }
        guard let colon = span[..<slash].firstIndex(of: ":"), let at = span[slash...].firstIndex(of: "@") else { return nil }
        let afterColon = span[span.index(after: colon)..<slash]
        guard afterColon.isEmpty || !afterColon.allSatisfy({ $0 >= "0" && $0 <= "9" }) else { return nil }
        return start..<at
    }

    static func maskingUserInfo(_ text: String) -> String {
        let whole = Substring(text)
        guard let range = userInfoRange(in: whole) else { return text }
        return String(whole[..<range.lowerBound]) + maskedUserInfo(whole[range]) + String(whole[range.upperBound...])
    }

    /// `user:***` when there is a user name and a password; `***` otherwise.
    static func maskedUserInfo(_ userInfo: Substring) -> String {
        guard let colon = userInfo.firstIndex(of: ":"), colon > userInfo.startIndex else { return mask }
        return String(userInfo[..<colon]) + ":" + mask
    }

    /// Every `scheme://userinfo@` in a free text masked, and every scheme-less `user:password@`
    /// word (`'u:pw@127.0.0.1:3128'`, as libcurl quotes a proxy it cannot read).
    static func maskingEveryUserInfo(_ text: String) -> String {
        guard text.contains("@") else { return text }
        var out = ""
        var rest = Substring(text)
        while let at = rest.firstIndex(of: "@") {
            // The word the '@' ends: back to a space, a quote, a bracket or an '='.
            let wordStart = rest[..<at].lastIndex { $0.isWhitespace || "'\"(<[=".contains($0) }.map { rest.index(after: $0) } ?? rest.startIndex
            let word = rest[wordStart..<at]
            let userInfoStart = word.firstRange(of: "://")?.upperBound ?? (word.contains(":") ? wordStart : nil)
            if let userInfoStart, userInfoStart < at {
                out += rest[..<userInfoStart] + maskedUserInfo(rest[userInfoStart..<at])
            } else {
                out += rest[..<at]
            }
            out += "@"
            rest = rest[rest.index(after: at)...]
        }
        return out + rest
    }

    /// Every `pin-value=…` (any case) masked. In a URI the value runs to the next `;` or `&` (or the
    /// `?` that ends the path); in free text also to a quote or a space.
    static func maskingPIN(_ text: String, inURI: Bool = false) -> String {
        let key = Array("pin-value=".utf8)
        let bytes = Array(text.utf8)
        guard bytes.count >= key.count else { return text }
        let question = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        var out: [UInt8] = []
        var index = 0
        var masked = false
        while index < bytes.count {
            let matches =
                index + key.count <= bytes.count
                && zip(key, bytes[index..<index + key.count]).allSatisfy { k, b in k == b || (b >= 0x41 && b <= 0x5A && k == b | 0x20) }
            guard matches else {
                out.append(bytes[index])
                index += 1
                continue
            }
            let inPath = index < question
            out += bytes[index..<index + key.count] + Array(mask.utf8)
            index += key.count
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ";") || byte == UInt8(ascii: "&") { break }
                if byte == UInt8(ascii: "?") && (inPath || !inURI) { break }
                if !inURI && (byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D) { break }
                index += 1
            }
            masked = true
        }
        return masked ? String(decoding: out, as: UTF8.self) : text
    }

    /// A `pkcs11:` URI's attributes, path and query alike.
    static func pkcs11Attributes(_ text: Substring) -> [Substring] {
        guard text.lowercased().hasPrefix("pkcs11:") else { return [] }
        return text.dropFirst("pkcs11:".count).split(whereSeparator: { ";?&".contains($0) })
    }
}
