#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One address of one of this machine's network interfaces, as getifaddrs(3) lists it.
public struct InterfaceEntry: Sendable, Equatable {
    /// `eth0`, `lo`, `en0`…
    public let interface: String
    /// 4 bytes (IPv4) or 16 (IPv6), in network order.
    public let address: [UInt8]
    /// The interface is the loopback one (IFF_LOOPBACK).
    public let isLoopback: Bool
}

public enum Network {
    /// The IPv4 and IPv6 addresses of the interfaces that are up, in the system's order.
    /// getifaddrs(3) is declared alike on both (`<ifaddrs.h>`); `ifa_flags` is an unsigned int on
    /// both. Darwin's `sockaddr_in` and `sockaddr_in6` begin with a length byte Linux's lack, which
    /// reading the fields by name (`sin_addr`, `sin6_addr`) covers.
    public static func interfaceAddresses() -> [InterfaceEntry] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0, let first else { return [] }
        defer { freeifaddrs(first) }
        var found: [InterfaceEntry] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let socketAddress = entry.pointee.ifa_addr, (entry.pointee.ifa_flags & UInt32(IFF_UP)) != 0 else { continue }
            let name = String(cString: entry.pointee.ifa_name)
            let loopback = (entry.pointee.ifa_flags & UInt32(IFF_LOOPBACK)) != 0
            let bytes: [UInt8]
            switch Int32(socketAddress.pointee.sa_family) {
            case AF_INET:
                bytes = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) } }
            case AF_INET6:
                bytes = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) } }
            default:
                continue
            }
            found.append(InterfaceEntry(interface: name, address: bytes, isLoopback: loopback))
        }
        return found
    }

    /// inet_pton(3) with AF_INET: the 4 bytes of a dotted IPv4 address, or nil.
    public static func ipv4Bytes(_ text: String) -> [UInt8]? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: address) { Array($0) }
    }

    /// inet_pton(3) with AF_INET6: the 16 bytes of an IPv6 address (no zone, no brackets), or nil.
    public static func ipv6Bytes(_ text: String) -> [UInt8]? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: address) { Array($0) }
    }

    /// inet_ntop(3) with AF_INET6: an IPv6 address's canonical text (RFC 5952), or nil.
    public static func ipv6Text(_ bytes: [UInt8]) -> String? {
        guard bytes.count == 16 else { return nil }
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return String(nulTerminated: buffer)
    }
}

/// Plain TCP sockets on loopback, for the few places that probe a port (the tests' proxies).
public enum Sockets {
    /// `SOCK_STREAM` as socket(2) takes it: Glibc's module imports it as an enum case
    /// (`__socket_type`), Darwin's `<sys/socket.h>` as an Int32.
    private static var stream: Int32 {
        #if canImport(Darwin)
            return SOCK_STREAM
        #else
            return Int32(SOCK_STREAM.rawValue)
        #endif
    }

    /// 127.0.0.1:`port` as a `sockaddr_in`. Darwin's begins with its length (`sin_len`, BSD's
    /// `<netinet/in.h>`); Linux's has no such field.
    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return address
    }

    /// A port on 127.0.0.1 nobody listens on right now (bound to port 0, then let go), or nil.
    public static func freeLoopbackPort() -> Int? {
        let fd = socket(AF_INET, stream, 0)
        guard fd >= 0 else { return nil }
        defer { Descriptors.close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0 else { return nil }
        let named = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return named == 0 ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    /// Whether something accepts a TCP connection on 127.0.0.1:`port` right now.
    public static func acceptsConnections(onLoopbackPort port: Int) -> Bool {
        let fd = socket(AF_INET, stream, 0)
        guard fd >= 0 else { return false }
        defer { Descriptors.close(fd) }
        var address = loopback(port: UInt16(clamping: port))
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}
