internal import CCurl
import PushCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// libcurl's own trace (connection, TLS, HTTP/2 frames' headers), line by line to a sink the
/// caller chooses, with the authorization value redacted unless the caller asked for secrets.
final class CurlTrace {
    let showSecrets: Bool
    /// What libcurl may print that is secret (a proxy's user name and password): masked in every line.
    let secrets: [String]
    let sink: @Sendable (String) -> Void
    /// What the redaction note calls the setting that shows secrets.
    let showSecretsName: String

    init(showSecrets: Bool, secrets: [String] = [], naming: SettingNaming = .plain, sink: @escaping @Sendable (String) -> Void) {
        self.showSecrets = showSecrets
        self.secrets = secrets
        showSecretsName = naming.name(.showSecrets)
        self.sink = sink
    }

    func attach(to handle: EasyHandle) throws {
        try handle.require(CURLOPT_DEBUGDATA, pointer: Unmanaged.passUnretained(self).toOpaque())
        let code = pushctl_easy_setopt_debug(handle.raw) { _, type, data, size, context in
            let trace = Unmanaged<CurlTrace>.fromOpaque(context!).takeUnretainedValue()
            let bytes = UnsafeRawBufferPointer(start: data, count: size)
            trace.emit(type, String(decoding: bytes, as: UTF8.self), size: size)
            return 0
        }
        guard code == CURLE_OK else { throw CurlSetupError(option: CURLOPT_DEBUGFUNCTION.rawValue, code: code) }
        try handle.require(CURLOPT_VERBOSE, 1)
    }

    func emit(_ type: curl_infotype, _ text: String, size: Int) {
        // "\r\n" is one Character in Swift: split on any newline, not on "\n".
        func lines(_ prefix: String) -> [String] {
            // What the server sent is echoed bounded and without control characters.
            text.split(whereSeparator: \.isNewline).map { prefix + OutsideText.display(redact(String($0)), limit: 400) }
        }
        let out: [String]
        switch type {
        case CURLINFO_TEXT: out = lines("* ")
        case CURLINFO_HEADER_OUT: out = lines("> ")
        case CURLINFO_HEADER_IN: out = lines("< ")
        case CURLINFO_DATA_OUT: out = ["> [\(size) bytes of payload]"]
        case CURLINFO_DATA_IN: out = lines("< ")
        default: return  // TLS record bytes
        }
        guard !out.isEmpty else { return }
        out.forEach(sink)
    }

    /// Replaces the token after every "bearer " (libcurl echoes headers in several forms,
    /// e.g. `h2h3 [authorization: bearer …]`) and every URL's credentials (libcurl names the
    /// proxy variable it uses with its value), unless the user asked for secrets.
    func redact(_ whole: String) -> String {
        guard !showSecrets else { return whole }
        var line = Redaction.scrub(whole, secrets: secrets)
        // "Proxy auth using Basic with user 'TOKEN'": a token proxy's user name is its secret.
        if let user = line.firstRange(of: "with user '"), let close = line[user.upperBound...].firstIndex(of: "'") {
            line = String(line[..<user.upperBound]) + Redaction.mask + String(line[close...])
        }
        // A proxy's credentials (the CONNECT request's Proxy-Authorization) never show.
        if let colon = line.firstIndex(of: ":"), line[..<colon].lowercased().hasSuffix("proxy-authorization") {
            return line[...colon] + " [redacted; \(showSecretsName) shows it]"
        }
        var result = ""
        var rest = Substring(line)
        while let range = CurlTrace.bearer(in: rest) {
            result += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let tokenEnd = rest.firstIndex { !($0.isLetter || $0.isNumber || "-_.".contains($0)) } ?? rest.endIndex
            if tokenEnd > rest.startIndex { result += "[JWT redacted; \(showSecretsName) shows it]" }
            rest = rest[tokenEnd...]
        }
        return result + rest
    }

    /// Where "bearer " (any case) first stands in `text`.
    static func bearer(in text: Substring) -> Range<Substring.Index>? {
        let word = Array("bearer ".utf8)
        let bytes = Array(text.utf8)
        guard bytes.count >= word.count else { return nil }
        for start in 0...(bytes.count - word.count) where zip(word, bytes[start...]).allSatisfy({ $0 == ($1 | 0x20) || $0 == $1 }) {
            let lower = text.utf8.index(text.utf8.startIndex, offsetBy: start)
            let upper = text.utf8.index(lower, offsetBy: word.count)
            return lower..<upper
        }
        return nil
    }
}
