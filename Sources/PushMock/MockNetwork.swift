import Foundation
public import PushCore
import PushSystem
import PushWords

/// Where a mock listening beyond loopback can be reached: this machine's addresses and name, for
/// a server certificate that other machines (a class's laptops) accept, and a URL they can type.
public enum MockNetwork {
    /// One address of one of this machine's network interfaces.
    public struct InterfaceAddress: Sendable, Equatable {
        /// `eth0`, `lo`, `wlan0`…
        public let interface: String
        /// `192.168.1.20`, `fd00::2` (no zone).
        public let address: String
        public let isIPv6: Bool
        public let isLoopback: Bool
        /// `fe80::/10` or `169.254/16`: usable only with the interface named, never printed.
        public let isLinkLocal: Bool

        public init(interface: String, address: String, isIPv6: Bool, isLoopback: Bool, isLinkLocal: Bool) {
            self.interface = interface
            self.address = address
            self.isIPv6 = isIPv6
            self.isLoopback = isLoopback
            self.isLinkLocal = isLinkLocal
        }
    }

    /// Whether a server listening on `host` is for this machine only: `127.0.0.0/8`, `::1`, `localhost`.
    public static func isLoopback(_ host: String) -> Bool {
        let bare = unbracketed(host).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        if let bytes = ipv4Bytes(bare) { return bytes[0] == 127 }
        if let bytes = ipv6Bytes(bare) { return bytes == [UInt8](repeating: 0, count: 15) + [1] }
        return false
    }

    /// Whether `host` means every interface: `0.0.0.0` or `::`.
    public static func isWildcard(_ host: String) -> Bool {
        let bare = unbracketed(host)
        if let bytes = ipv4Bytes(bare) { return bytes.allSatisfy { $0 == 0 } }
        if let bytes = ipv6Bytes(bare) { return bytes.allSatisfy { $0 == 0 } }
        return false
    }

    /// The addresses of this machine's interfaces that are up (getifaddrs), IPv4 and IPv6, in the
    /// system's order.
    public static func interfaceAddresses() -> [InterfaceAddress] {
        Network.interfaceAddresses().map { entry in
            let bytes = entry.address
            if bytes.count == 4 {
                return InterfaceAddress(
                    interface: entry.interface, address: bytes.map(String.init).joined(separator: "."), isIPv6: false,
                    isLoopback: entry.isLoopback || bytes[0] == 127, isLinkLocal: bytes[0] == 169 && bytes[1] == 254)
            }
            return InterfaceAddress(
                interface: entry.interface, address: ipv6Text(bytes), isIPv6: true,
                isLoopback: entry.isLoopback || bytes == [UInt8](repeating: 0, count: 15) + [1],
                isLinkLocal: bytes[0] == 0xFE && (bytes[1] & 0xC0) == 0x80)
        }
    }

    /// This machine's host name (gethostname), if it has one.
    public static func hostName() -> String? {
        guard let name = CurrentProcess.hostName else { return nil }
        return name.isEmpty || !isDNSName(name) ? nil : name
    }

    /// The names a server certificate carries for a server listening on `host`, besides the
    /// `localhost`, `127.0.0.1` and `::1` every mock certificate names: nothing more on loopback;
    /// beyond it, the host name and every address of the machine (and `host` itself). `extra`
    /// (`--san`) is always added. Without duplicates, in that order.
    public static func certificateNames(
        listeningOn host: String, extra: [String],
        addresses: [InterfaceAddress] = interfaceAddresses(), hostName: String? = hostName()
    ) -> [String] {
        var names: [String] = []
        if !isLoopback(host) {
            if let hostName { names.append(hostName) }
            names += addresses.map(\.address)
            if !isWildcard(host) { names.append(unbracketed(host)) }
        }
        names += extra
        var seen: Set<String> = ["localhost", "127.0.0.1", "::1"]
        return names.filter { seen.insert($0.lowercased()).inserted }
    }

    /// The address to print for a server listening on `host`: `host` itself, unless it is a
    /// wildcard; then the first IPv4 address beyond loopback (link-local ones aside), else the
    /// first such IPv6 one. Nil when the machine has none: only loopback reaches it.
    public static func reachableAddress(listeningOn host: String, addresses: [InterfaceAddress] = interfaceAddresses()) -> String? {
        guard isWildcard(host) else { return unbracketed(host) }
        let candidates = addresses.filter { !$0.isLoopback && !$0.isLinkLocal }
        let wantsIPv4 = ipv4Bytes(unbracketed(host)) != nil
        // "::" also accepts IPv4 on Linux (dual stack); "0.0.0.0" accepts only IPv4.
        return (candidates.first { !$0.isIPv6 } ?? (wantsIPv4 ? nil : candidates.first { $0.isIPv6 }))?.address
    }

    /// `scheme://host:port`, with brackets around an IPv6 address.
    public static func url(scheme: String, host: String, port: Int) -> String {
        let bare = unbracketed(host)
        return bare.contains(":") ? "\(scheme)://[\(bare)]:\(port)" : "\(scheme)://\(bare):\(port)"
    }

    /// Checks a `--san` value: an IPv4 or IPv6 address, or a DNS name (letters, digits, hyphens,
    /// dots; a leading `*.` for a wildcard).
    public static func checkCertificateName(_ name: String) throws(InputError) {
        if ipv4Bytes(name) != nil || ipv6Bytes(unbracketed(name)) != nil { return }
        let bare = name.hasPrefix("*.") ? String(name.dropFirst(2)) : name
        guard isDNSName(bare) else {
            throw InputError(MockSettingProblem.notAHostName(given: name), kind: .usage)
        }
    }

    /// The 4 bytes of a dotted IPv4 address.
    static func ipv4Bytes(_ text: String) -> [UInt8]? { Network.ipv4Bytes(text) }

    /// The 16 bytes of an IPv6 address (no zone, no brackets).
    static func ipv6Bytes(_ text: String) -> [UInt8]? { Network.ipv6Bytes(text) }

    /// The certificate's form of a name: the address bytes of an IP, nil for a DNS name.
    static func addressBytes(_ name: String) -> [UInt8]? {
        ipv4Bytes(name) ?? ipv6Bytes(unbracketed(name))
    }

    private static func ipv6Text(_ bytes: [UInt8]) -> String { Network.ipv6Text(bytes) ?? "::" }

    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// RFC 1123 host name: labels of 1-63 letters, digits and hyphens, 253 characters at most.
    static func isDNSName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && label.first != "-" && label.last != "-"
                && label.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D }
        }
    }
}
