#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// open(2), read(2) and write(2) under names no method here shadows (`InputFiles.open`, `.read`),
// on Linux and macOS alike.
package func openForReading(_ path: String) -> Int32 { open(path, O_RDONLY | O_CLOEXEC) }
package func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
package func writeDescriptor(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
