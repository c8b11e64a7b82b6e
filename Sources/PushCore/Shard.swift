/// One of N parts of a list of device tokens, so that N machines (a CI matrix, an indexed job)
/// each send their part and together send every token exactly once.
///
/// A token belongs to shard K of N when the 64-bit FNV-1a hash of its lower-case hex is K − 1
/// modulo N: stable across machines, runs and versions, and independent of the token's place in
/// the list, so every machine may read the same whole list.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1 to `count`.
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) throws(InputError) {
        guard (1...10_000).contains(count), (1...count).contains(index) else {
            throw InputError(ShardProblem.outOfRange(index: index, count: count), kind: .usage)
        }
        self.index = index
        self.count = count
    }

    /// `K/N`, e.g. `2/4`.
    public init(parsing text: String) throws(InputError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw InputError(ShardProblem.notKN(shown: OutsideText.display(text, limit: 20)), kind: .usage)
        }
        try self.init(index: k, count: n)
    }

    public func contains(_ token: DeviceToken) -> Bool {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in token.hex.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return Int(hash % UInt64(count)) == index - 1
    }

    public var description: String { "\(index)/\(count)" }
}

/// What is wrong with a shard (`K/N`).
public enum ShardProblem: InputProblem {
    /// Not 1 ≤ K ≤ N ≤ 10000.
    case outOfRange(index: Int, count: Int)
    /// Not of the form K/N.
    case notKN(shown: String)
}
