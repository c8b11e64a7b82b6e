/// Random (version 4) UUIDs in lower-case canonical form, fast enough for every answer.
///
/// They only have to be unique, not secret, so a xoshiro256** stream seeded once from the
/// system generator does; Foundation's `UUID()` costs a system call each time.
struct UUIDGenerator {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    init() {
        var system = SystemRandomNumberGenerator()
        state = (system.next(), system.next(), system.next(), system.next() | 1)
    }

    private mutating func nextWord() -> UInt64 {
        let result = rotate(state.1 &* 5, 7) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = rotate(state.3, 45)
        return result
    }

    private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    mutating func next() -> String {
        var high = nextWord()
        var low = nextWord()
        high = (high & ~0xF000) | 0x4000  // version 4
        low = (low & ~(0xC << 60)) | (0x8 << 60)  // RFC 4122 variant
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 36) { out in
            digits.withUTF8Buffer { hex in
                var index = 0
                func put(_ word: UInt64, nibbles: ClosedRange<Int>) {
                    for shift in nibbles.reversed() {
                        out[index] = hex[Int((word >> UInt64(shift * 4)) & 0xF)]
                        index += 1
                    }
                }
                put(high, nibbles: 8...15)
                out[index] = UInt8(ascii: "-")
                index += 1
                put(high, nibbles: 4...7)
                out[index] = UInt8(ascii: "-")
                index += 1
                put(high, nibbles: 0...3)
                out[index] = UInt8(ascii: "-")
                index += 1
                put(low, nibbles: 12...15)
                out[index] = UInt8(ascii: "-")
                index += 1
                put(low, nibbles: 0...11)
            }
            return 36
        }
    }
}
