#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

public enum Memory {
    #if canImport(Glibc)
        /// glibc's malloc_trim(3) (`<malloc.h>`), which Swift's Glibc module does not export: found once
        /// by name. Nil on a libc without it.
        private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        }()
    #endif

    /// Gives the heap's free pages back to the system. glibc keeps what a burst of connections
    /// freed in its arenas until asked (malloc_trim(0)); Darwin's allocator returns pages by itself
    /// over time, and malloc_zone_pressure_relief(NULL, 0) (`<malloc/malloc.h>`) asks every zone
    /// to do it now. Musl returns freed pages on its own.
    public static func returnFreePages() {
        #if canImport(Darwin)
            _ = malloc_zone_pressure_relief(nil, 0)
        #elseif canImport(Glibc)
            _ = mallocTrim?(0)
        #endif
    }
}

public enum Bytes {
    /// memchr(3) (`<string.h>`, alike on both): the offset of the first `byte` in the `count`
    /// bytes at `start`, searched a machine word at a time; nil when there is none.
    @inline(__always)
    public static func find(_ byte: UInt8, in start: UnsafeRawPointer, count: Int) -> Int? {
        guard count > 0, let found = memchr(start, Int32(byte), count) else { return nil }
        return UnsafeRawPointer(found) - start
    }

    /// strlen(3): the bytes of a C string before its NUL.
    public static func cStringLength(_ string: UnsafePointer<CChar>) -> Int { strlen(string) }
}

extension String {
    /// The text of a C buffer up to its first NUL, invalid UTF-8 repaired: what `String(cString:)`
    /// did with an array before Swift deprecated that form.
    init(nulTerminated buffer: [CChar]) {
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
