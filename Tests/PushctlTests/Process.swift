import ChildProcess

/// Every child process of these tests starts through posix_spawn, not Foundation's Process,
/// whose run() can crash on Linux with Swift 6.3.1 (see SpawnedProcess.swift).
typealias Process = SpawnedProcess
