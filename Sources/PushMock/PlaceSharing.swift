/// How a class shares the places of the mock's plain HTTP servers (connections, and the web view's
/// live viewers): each address may take a share of them, and the last few are kept for this machine
/// (loopback: 127.0.0.0/8, ::1), so that two students' scripts holding all they can leave the
/// teacher's projector a place.
///
/// A pure rule, so that a table can test it; the servers count and ask it.
struct PlaceSharing: Sendable, Equatable {
    /// Places in all.
    let limit: Int
    /// Places one address (an IPv6 address's /64) may hold.
    let perAddress: Int
    /// Places only loopback may take, out of `limit`.
    let keptForLoopback: Int

    enum Decision: Sendable, Equatable {
        case admitted
        /// This address holds its share already.
        case addressShareUsed
        /// Every place it may take is taken.
        case full
    }

    /// Whether one more place is given to an address that holds `fromAddress` of the `total` taken.
    func decide(total: Int, fromAddress: Int, isLoopback: Bool) -> Decision {
        guard fromAddress < perAddress else { return .addressShareUsed }
        let open = isLoopback ? limit : limit - keptForLoopback
        return total < open ? .admitted : .full
    }

    /// Who a remote address counts as: an IPv4 address itself (an IPv4-mapped IPv6 address as its
    /// IPv4 one), an IPv6 address by its /64 (a machine may take as many addresses of its network's
    /// prefix as it likes, privacy addresses included), and whether it is this machine's loopback.
    /// Anything unreadable is one group, never loopback.
    static func group(of address: String) -> (key: String, isLoopback: Bool) {
        guard let bytes = MockNetwork.addressBytes(address) else { return ("?", false) }
        if bytes.count == 4 { return (address, bytes[0] == 127) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            let ipv4 = bytes[12...].map(String.init).joined(separator: ".")
            return (ipv4, bytes[12] == 127)
        }
        if bytes == [UInt8](repeating: 0, count: 15) + [1] { return ("::1", true) }
        let prefix = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return (prefix.joined(separator: ":") + "::/64", false)
    }

    /// The web view's viewers: 32, a quarter each, 2 kept for loopback (a reload's new stream may
    /// arrive before the old one is seen gone).
    static let viewers = PlaceSharing(limit: 32, perAddress: 8, keptForLoopback: 2)
    /// Connections to a plain HTTP server (a class is some 30 laptops, a page takes a few): 24 per
    /// address, 8 kept for loopback.
    static let connections = PlaceSharing(limit: 128, perAddress: 24, keptForLoopback: 8)
}

/// The places taken, by group; touched under its owner's lock or on its owner's loop.
struct PlaceCount: Sendable {
    private(set) var total = 0
    private var byGroup: [String: Int] = [:]

    func held(by group: String) -> Int { byGroup[group, default: 0] }

    /// Takes a place when `sharing` admits it; the decision either way.
    mutating func take(_ group: (key: String, isLoopback: Bool), under sharing: PlaceSharing) -> PlaceSharing.Decision {
        let decision = sharing.decide(total: total, fromAddress: held(by: group.key), isLoopback: group.isLoopback)
        if decision == .admitted {
            total += 1
            byGroup[group.key, default: 0] += 1
        }
        return decision
    }

    mutating func release(_ key: String) {
        guard let held = byGroup[key] else { return }
        total -= 1
        byGroup[key] = held > 1 ? held - 1 : nil
    }
}
