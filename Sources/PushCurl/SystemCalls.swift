#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// poll(2), under a name no method here shadows (`CurlTransport.poll(timeout:)` does), on Linux and macOS alike.
func pollDescriptors(_ fds: UnsafeMutablePointer<pollfd>?, _ count: Int, _ milliseconds: Int32) -> Int32 {
    poll(fds, nfds_t(count), milliseconds)
}
