public import PushCore
import PushCurl

/// `--dry-run`: the request as it would go out, and the same request as a curl command.
public struct DryRun {
    let request: SendSetup
    let showSecrets: Bool
    /// How the program names its settings (pushctl: its flags), in the lines that point at them.
    let naming: SettingNaming

    public init(request: SendSetup, showSecrets: Bool, naming: SettingNaming = .plain) {
        self.request = request
        self.showSecrets = showSecrets
        self.naming = naming
    }

    /// The first request as it would go out, then the same as a `curl` command.
    public var lines: [String] {
        var notifications = request.notifications.makeIterator()
        guard let first = notifications.next() else { return [] }
        let shape = first.request.shape
        let url = request.plan.destination.baseURL + first.request.path
        let auth =
            showSecrets ? ((try? request.plan.authorization.authorization()) ?? nil) ?? "" : "bearer [JWT redacted; \(naming.name(.showSecrets)) shows it]"
        let body = shape.body?.bytes ?? []
        var out = ["\(shape.method.rawValue) \(url)"]
        if let path = request.certificatePath {
            out.append(
                "(no authorization header: the client certificate '\(OutsideText.display(path))' authenticates, \(request.certificate.map { OutsideText.display($0.certificate.subject, limit: 120) } ?? ""))"
            )
        } else {
            out.append("authorization: \(auth)")
        }
        out += shape.headerLines
        out += ["", String(decoding: body, as: UTF8.self), ""]
        let count = request.notifications.count
        if count > 1 {
            out.append(
                request.template == nil
                    ? "… and \(count - 1) more notification(s) from the requests file"
                    : "… and the same to \(count - 1) more device token(s)")
        }
        let prefix = APNsHeader.pushType + ": "
        let typeLine: String = shape.headerLines.first { $0.hasPrefix(prefix) } ?? ""
        let limit: Int = PushType(rawValue: String(typeLine.dropFirst(prefix.count)))?.payloadLimit ?? 4096
        out.append("\(body.count) bytes of payload (limit \(limit)); nothing was sent (\(naming.name(.dryRun))).")
        out.append("")
        out.append("The same request with curl:")
        let jwt = showSecrets ? auth : "bearer $JWT"
        var curl = ["curl --http2 --request \(shape.method.rawValue)"]
        if let ca = request.plan.destination.caCertificate { curl.append("--cacert \(shellQuote(ca))") }
        if let proxy = request.proxy.url {
            curl.append("--proxy \(shellQuote(Redaction.url(proxy)))")
            if request.proxy.credentials != nil { curl.append("--proxy-user \"$PROXY_USER\"") }
        }
        if let path = request.certificatePath {
            if path.lowercased().hasSuffix(".p12") || path.lowercased().hasSuffix(".pfx") {
                curl.append("--cert-type P12 --cert \(shellQuote(path)):\"$PUSHCTL_CERT_PASSWORD\"")
            } else {
                curl.append("--cert \(shellQuote(path))")
                if let key = request.certificateKeyPath { curl.append("--key \(shellQuote(key))") }
            }
        } else {
            curl.append("--header \"authorization: \(jwt)\"")
        }
        curl += shape.headerLines.map { "--header \(shellQuote($0))" }
        curl.append("--header 'content-type:'")  // curl would otherwise add application/x-www-form-urlencoded
        if let file = request.payloadFile {
            curl.append("--data-binary @\(shellQuote(file))")
        } else {
            curl.append("--data-binary \(shellQuote(String(decoding: body, as: UTF8.self)))")
        }
        curl.append(shellQuote(url))
        out.append(curl.joined(separator: " \\\n  "))
        if !showSecrets && request.certificatePath == nil { out.append("(first: JWT=$(pushctl jwt \(naming.name(.keyFile)) … \(naming.name(.teamID)) …))") }
        return out
    }

    func shellQuote(_ s: String) -> String { DryRun.quoted(s) }

    /// `s` as one shell word: bare when it is plain, else in single quotes.
    public static func quoted(_ s: String) -> String { Redaction.shellWord(s) }
}
