import Dispatch
import PushctlSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PushCore
import PushEngine

/// `--dry-run`: the request as it would go out, and the same request as a curl command.
struct DryRun {
    let request: SendRequest
    let showSecrets: Bool

    var lines: [String] {
        var notifications = request.notifications.makeIterator()
        guard let first = notifications.next() else { return [] }
        let shape = first.request.shape
        let url = request.baseURL + first.request.path
        let auth = showSecrets ? ((try? request.authorization.authorization()) ?? nil) ?? "" : "bearer [JWT redacted; --show-secrets shows it]"
        let body = shape.body?.bytes ?? []
        var out = ["\(shape.method.rawValue) \(url)"]
        if let path = request.certificatePath {
            out.append("(no authorization header: the client certificate '\(OutsideText.display(path))' authenticates, \(request.certificate.map { OutsideText.display($0.certificate.subject, limit: 120) } ?? ""))")
        } else {
            out.append("authorization: \(auth)")
        }
        out += shape.headerLines
        out += ["", String(decoding: body, as: UTF8.self), ""]
        let count = request.notifications.count
        if count > 1 {
            out.append(request.template == nil
                ? "… and \(count - 1) more notification(s) from the requests file"
                : "… and the same to \(count - 1) more device token(s)")
        }
        let prefix = APNsHeader.pushType + ": "
        let typeLine: String = shape.headerLines.first { $0.hasPrefix(prefix) } ?? ""
        let limit: Int = PushType(rawValue: String(typeLine.dropFirst(prefix.count)))?.payloadLimit ?? 4096
        out.append("\(body.count) bytes of payload (limit \(limit)); nothing was sent (--dry-run).")
        out.append("")
        out.append("The same request with curl:")
        let jwt = showSecrets ? auth : "bearer $JWT"
        var curl = ["curl --http2 --request \(shape.method.rawValue)"]
        if let ca = request.caCertificate { curl.append("--cacert \(shellQuote(ca))") }
        if let proxy = request.proxy {
            curl.append("--proxy \(shellQuote(ProxySetting.masked(proxy.url)))")
            if proxy.credentials != nil { curl.append("--proxy-user \"$PROXY_USER\"") }
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
        if !showSecrets && request.certificatePath == nil { out.append("(first: JWT=$(pushctl jwt --key-file … --team-id …))") }
        return out
    }

    func shellQuote(_ s: String) -> String {
        s.allSatisfy({ $0.isLetter || $0.isNumber || "-_./:@=".contains($0) }) ? s : "'" + s.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}

/// `  12,345/100,000  (12%)  4,321/s  3 not accepted` on stderr, redrawn at most 10 times a second.
final class ProgressBar {
    let total: Int
    private var done = 0
    private var notAccepted = 0
    private let started = DispatchTime.now().uptimeNanoseconds
    private var lastDraw: UInt64 = 0

    init(total: Int) { self.total = total }

    func add(_ result: PushResult) {
        done += 1
        if result.outcome != .accepted { notAccepted += 1 }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastDraw > 100_000_000 || done == total else { return }
        lastDraw = now
        let seconds = Double(now - started) / 1e9
        let rate = seconds > 0 ? Int(Double(done) / seconds) : 0
        let width = 24
        let filled = total > 0 ? width * done / total : 0
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        var line = "\r\(bar) \(done)/\(total) (\(total > 0 ? 100 * done / total : 0)%)  \(rate)/s"
        if notAccepted > 0 { line += "  \(notAccepted) not accepted" }
        if rate > 0 && done < total {
            let left = (total - done) / rate
            line += left < 120 ? "  ETA \(left) s" : "  ETA \(left / 60) min"
        }
        Console.writeErr(Array((line + "\u{1B}[K").utf8))
    }

    func clear() { Console.writeErr(Array("\r\u{1B}[K".utf8)) }
}
