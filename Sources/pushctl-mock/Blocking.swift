import Dispatch
import PushctlCommandLine

/// Runs async work from a synchronous command and waits for it.
///
/// The root command is synchronous, so `send`, `jwt` and `key` run on the main thread and never
/// start Swift's concurrency runtime (its thread pool cost about 5 ms of a single push). Only
/// `mock` and `demo`, which drive the SwiftNIO server, come through here.
///
/// The main thread blocks until `work` is done, so `work` must never need the main thread or
/// the main actor (it would deadlock); the server's work runs on NIO's event loops, and the
/// mock's signals arrive on a dispatch queue of their own.
func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = Outcome<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached(priority: .userInitiated) {
        do { outcome.value = .success(try await work()) } catch { outcome.value = .failure(error) }
        done.signal()
    }
    done.wait()
    return try outcome.value!.get()
}

/// Written by the task before it signals, read by the waiter after: the semaphore orders them.
private final class Outcome<T>: @unchecked Sendable {
    var value: Result<T, any Error>?
}
