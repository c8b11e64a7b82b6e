internal import CCurl
import PushCore
import PushSystem

/// A GOAWAY as the server sent it.
public struct GoAwayNotice: Sendable, Equatable {
    public let errorCode: UInt32
    public let lastStreamID: UInt32
    /// The debug data, as sent (at most 1 KiB kept).
    public let debugData: [UInt8]

    /// APNs' `{"reason":"…"}` in the debug data, if it is there.
    public var reason: String? {
        guard let json = try? JSONValue.parse(debugData) else { return nil }
        return json["reason"]?.stringValue
    }
}

/// libcurl reports a GOAWAY's error code in its trace but drops its debug data, where APNs puts
/// the reason it closes a connection (`{"reason":"BadCertificateEnvironment"}`). When requests
/// keep dying with their connections, the probe opens one more connection through libcurl
/// (CONNECT_ONLY: the same TLS, client certificate, CA and proxy settings), speaks just enough
/// HTTP/2 over it to send one harmless request (`GET /`, which APNs answers with an error and
/// which carries no notification), and reads frames until the server answers or says GOAWAY.
/// Bounded: one connection, at most `timeout` seconds, 256 KiB read.
enum GoAwayProbe {
    static func run(
        configuration: CurlTransportConfiguration, trust: (file: String, directory: String?)?,
        timeout: Double = 2
    ) -> GoAwayNotice? {
        guard let handle = curl_easy_init() else { return nil }
        // The CONNECT_TO list outlives the handle.
        var connectTo: HeaderList?
        defer {
            curl_easy_cleanup(handle)
            withExtendedLifetime(connectTo) {}
        }
        // The same way to the server as the transport's (proxy, no_proxy, CA, client
        // certificate, CONNECT_TO), then a bare TLS connection offering only h2.
        do {
            let bare = BareEasyHandle(raw: handle)
            try bare.require(CURLOPT_URL, configuration.baseURL + "/")
            try bare.require(CURLOPT_CONNECT_ONLY, 1)
            try bare.require(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
            guard pushctl_easy_setopt_alpn_h2_only(handle) == CURLE_OK else { return nil }
            connectTo = try CurlTransport.connection(bare, configuration, trust: trust, connectTimeout: min(configuration.connectTimeout, timeout))
        } catch {
            return nil
        }
        // (Whether TLS agreed on h2 cannot be asked here: libcurl 7.88 hides the SSL of a CONNECT_ONLY
        // handle. A server that did not would not answer in HTTP/2 frames, and nothing is found.)
        guard curl_easy_perform(handle) == CURLE_OK else { return nil }
        var socket: curl_socket_t = -1
        guard pushctl_easy_active_socket(handle, &socket) == CURLE_OK, socket >= 0 else { return nil }

        let host = GoAwayProbe.authority(ofBaseURL: configuration.baseURL)
        guard
            send(
                handle, socket: socket,
                bytes: HTTP2Frames.preface + HTTP2Frames.settings(ack: false)
                    + HTTP2Frames.getRoot(authority: host))
        else { return nil }

        let start = Clocks.monotonicSeconds()
        var deadline = start + timeout
        var buffer: [UInt8] = []
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let now = Clocks.monotonicSeconds()
            guard now < deadline else { return nil }
            _ = Polling.wait(for: socket, .readable, milliseconds: Int32(max(1, min(1000, (deadline - now) * 1000))))
            var received = 0
            let code = chunk.withUnsafeMutableBytes { curl_easy_recv(handle, $0.baseAddress, $0.count, &received) }
            if code == CURLE_AGAIN { continue }
            guard code == CURLE_OK, received > 0 else { return nil }  // closed without a GOAWAY
            total += received
            guard total <= 256 * 1024 else { return nil }
            buffer += chunk[0..<received]
            while let frame = HTTP2Frames.next(&buffer) {
                switch frame.type {
                case 0x7:
                    return HTTP2Frames.goAway(frame.payload)
                case 0x4 where frame.flags & 0x1 == 0:
                    _ = send(handle, socket: socket, bytes: HTTP2Frames.settings(ack: true))
                case 0x6 where frame.flags & 0x1 == 0 && frame.payload.count == 8:
                    _ = send(handle, socket: socket, bytes: HTTP2Frames.frame(type: 0x6, flags: 0x1, stream: 0, payload: frame.payload))
                case 0x1 where frame.stream == 1, 0x3 where frame.stream == 1:
                    // Answered (or reset): the connection is usable. A GOAWAY may still follow at once.
                    deadline = min(deadline, Clocks.monotonicSeconds() + 0.3)
                default:
                    break
                }
            }
        }
    }

    /// `host[:port]` of `https://host[:port]`.
    static func authority(ofBaseURL url: String) -> String {
        guard let range = url.firstRange(of: "://") else { return url }
        return String(url[range.upperBound...].prefix { $0 != "/" })
    }

    private static func send(_ handle: UnsafeMutableRawPointer, socket: curl_socket_t, bytes: [UInt8]) -> Bool {
        var offset = 0
        var spins = 0
        while offset < bytes.count {
            var sent = 0
            let code = bytes[offset...].withUnsafeBytes { curl_easy_send(handle, $0.baseAddress, $0.count, &sent) }
            if code == CURLE_AGAIN {
                spins += 1
                guard spins < 50 else { return false }
                _ = Polling.wait(for: socket, .writable, milliseconds: 100)
                continue
            }
            guard code == CURLE_OK else { return false }
            offset += sent
        }
        return true
    }
}

/// The few HTTP/2 frames the probe writes and reads (RFC 9113 §4.1), and an HPACK block made of
/// static-table entries and one literal (RFC 7541), without Huffman coding.
enum HTTP2Frames {
    struct Frame {
        let type: UInt8
        let flags: UInt8
        let stream: UInt32
        let payload: [UInt8]
    }

    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    static func frame(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8]) -> [UInt8] {
        let n = payload.count
        return [
            UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF), type, flags,
            UInt8(stream >> 24 & 0x7F), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF),
        ] + payload
    }

    static func settings(ack: Bool) -> [UInt8] { frame(type: 0x4, flags: ack ? 0x1 : 0, stream: 0, payload: []) }

    /// HEADERS on stream 1, END_STREAM | END_HEADERS: GET / on https, with :authority.
    static func getRoot(authority: String) -> [UInt8] {
        let value = Array(authority.utf8.prefix(255))
        // :method GET, :scheme https, :path / from the static table (indexes 2, 7, 4); :authority
        // (index 1) as a literal without indexing.
        var block: [UInt8] = [0x82, 0x87, 0x84, 0x01]
        block += integer(value.count, prefixBits: 7, flags: 0)
        block += value
        return frame(type: 0x1, flags: 0x5, stream: 1, payload: block)
    }

    /// HPACK's prefixed integer.
    static func integer(_ value: Int, prefixBits: Int, flags: UInt8) -> [UInt8] {
        let limit = (1 << prefixBits) - 1
        if value < limit { return [flags | UInt8(value)] }
        var out: [UInt8] = [flags | UInt8(limit)]
        var rest = value - limit
        while rest >= 128 {
            out.append(UInt8(rest % 128 + 128))
            rest /= 128
        }
        out.append(UInt8(rest))
        return out
    }

    /// Takes the next whole frame off the front of `buffer`, if one is there.
    static func next(_ buffer: inout [UInt8]) -> Frame? {
        guard buffer.count >= 9 else { return nil }
        let length = Int(buffer[0]) << 16 | Int(buffer[1]) << 8 | Int(buffer[2])
        guard buffer.count >= 9 + length else { return nil }
        let stream = UInt32(buffer[5] & 0x7F) << 24 | UInt32(buffer[6]) << 16 | UInt32(buffer[7]) << 8 | UInt32(buffer[8])
        let frame = Frame(type: buffer[3], flags: buffer[4], stream: stream, payload: Array(buffer[9..<(9 + length)]))
        buffer.removeFirst(9 + length)
        return frame
    }

    static func goAway(_ payload: [UInt8]) -> GoAwayNotice? {
        guard payload.count >= 8 else { return nil }
        let last = UInt32(payload[0] & 0x7F) << 24 | UInt32(payload[1]) << 16 | UInt32(payload[2]) << 8 | UInt32(payload[3])
        let code = UInt32(payload[4]) << 24 | UInt32(payload[5]) << 16 | UInt32(payload[6]) << 8 | UInt32(payload[7])
        return GoAwayNotice(errorCode: code, lastStreamID: last, debugData: Array(payload[8...].prefix(1024)))
    }
}
