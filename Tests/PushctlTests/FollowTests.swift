import ChildProcess
import Foundation
import PushSystem
import Testing

/// `send --follow`: standard input read as lines arrive, each sent on arrival, results in input
/// order as they are final, the end of the input the end of the run. The mock's log is the truth.
@Suite struct FollowTests {
    let dir = try! TemporaryDirectory()

    func tokens(_ count: Int, seed: String) -> [String] {
        (0..<count).map { seed + String(repeating: "0", count: 56 - seed.count) + String(format: "%08x", $0 + 1) }
    }

    /// What a child writes, line by line, as it comes (read on a thread of its own).
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""

        init(_ pipe: Pipe) {
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread { [self] in
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    lock.withLock { text += String(decoding: data, as: UTF8.self) }
                }
            }
        }

        var lines: [String] { lock.withLock { text.split(separator: "\n").map(String.init) } }

        /// Waits (polling every 20 ms) until `count` lines have come, or `seconds` have passed.
        func wait(for count: Int, seconds: Double = 30) -> [String] {
            let deadline = Date().addingTimeInterval(seconds)
            while lines.count < count && Date() < deadline { Clocks.sleep(seconds: 0.02) }
            return lines
        }
    }

    func followArguments(_ mock: MockProcess, _ extra: [String]) -> [String] {
        [
            "send", "--endpoint", mock.url, "--cacert", mock.caFile, "--key-file", mock.keyFile, "--team-id", "DEF123GHIJ",
            "--topic", "com.example.app", "--title", "Hi", "--follow", "--tokens-file", "-", "--output", "jsonl",
        ] + extra
    }

    @Test(
        "SIGTERM in the middle of a followed stream: every line read gets one result, the summary says the stop (143), and no hint to journal a stream that cannot be"
    )
    func stopInTheMiddle() throws {
        let mock = try MockProcess(dir: dir)
        let sent = tokens(6, seed: "57a0")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.pushctlPath)
        process.arguments = followArguments(mock, [])
        process.environment = CLI.baseEnvironment
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let lines = Lines(output)
        let said = Lines(errors)
        for line in sent { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }
        #expect(lines.wait(for: 6).count == 6, "the six are answered while the input stays open")
        kill(process.processIdentifier, SIGTERM)
        #expect(process.waitUntilExit(orKillAfter: 30))
        #expect(process.terminationStatus == 143)
        let objects = lines.wait(for: 7).compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.compactMap { $0["token"] as? String } == sent, "one result each, in order")
        #expect(objects.last?["stopped"] as? String == "SIGTERM")
        let stderr = said.wait(for: 1).joined(separator: "\n")
        #expect(stderr.contains("stopped by SIGTERM"), "\(stderr)")
        #expect(!stderr.contains("--journal"), "--follow cannot keep a journal, so none is suggested: \(stderr)")
        try? input.fileHandleForWriting.close()
    }

    @Test(
        "five lines written to standard input get their five results (a bad line its own, in its place) before standard input closes; closing it ends the run with its summary"
    )
    func resultsBeforeTheEnd() throws {
        let mock = try MockProcess(dir: dir)
        let sent = tokens(4, seed: "f0110a")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.pushctlPath)
        process.arguments = followArguments(mock, [])
        process.environment = CLI.baseEnvironment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let lines = Lines(output)
        let written = [sent[0], sent[1], "not-a-token", sent[2], sent[3]]
        for line in written { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }
        let results = lines.wait(for: 5)
        #expect(process.isRunning, "still reading standard input")
        #expect(results.count == 5, "\(results)")
        let objects = results.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(
            objects.map { ($0["token"] as? String) ?? "line \($0["line"] ?? "")" } == [sent[0], sent[1], "line 3", sent[2], sent[3]],
            "in input order: \(results)")
        #expect(objects.map { $0["outcome"] as? String } == ["accepted", "accepted", "rejected", "accepted", "accepted"])
        // Another line, then the end.
        let late = tokens(1, seed: "1a7e")[0]
        input.fileHandleForWriting.write(Data((late + "\n").utf8))
        #expect(lines.wait(for: 6).count == 6)
        try input.fileHandleForWriting.close()
        #expect(process.waitUntilExit(orKillAfter: 30))
        #expect(process.terminationStatus == 1, "a bad line is a notification not sent")
        let summary = try #require(lines.wait(for: 7).last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(summary["summary"] as? Bool == true && summary["tokens"] as? Int == 6 && summary["accepted"] as? Int == 5, "\(summary)")
        let received = try mock.requestsSoFar().compactMap { ($0["path"] as? String).map { String($0.dropFirst("/3/device/".count)) } }
        #expect(received.sorted() == (sent + [late]).sorted(), "each line sent once (the mock logs in its own order)")
    }

    @Test(
        "--follow refuses what needs the whole list or no list (64)",
        arguments: [["--journal", "j.jsonl"], ["--spread", "1m"], ["--dry-run"], ["--detect-environment"]])
    func refusals(extra: [String]) throws {
        let mock = try MockProcess(dir: dir)
        let result = try CLI.pushctl(followArguments(mock, extra), stdin: tokens(1, seed: "ab")[0] + "\n")
        #expect(result.status == 64 && result.stderr.contains(extra[0]) && result.stderr.contains("--follow"), "\(result.stderr)")
        let none = try mock.send(["--title", "Hi", "--follow", "--device-token", tokens(1, seed: "ab")[0]])
        #expect(none.status == 64 && none.stderr.contains("--tokens-file"), "\(none.stderr)")
    }

    @Test("a real queue: NATS subscriber | pushctl send --follow --tokens-file -, a publisher sends N tokens: N results, N requests at the mock")
    func natsQueue() throws {
        let server = Tool.path("nats-server")
        guard FileManager.default.isExecutableFile(atPath: server) else {
            Issue.record("nats-server is missing (Debian: apt-get install nats-server; Scripts/install-deps.sh installs it)")
            return
        }
        let mock = try MockProcess(dir: dir)
        let port = ProxyProcess.freePort()
        let nats = Process()
        nats.executableURL = URL(fileURLWithPath: server)
        nats.arguments = ["-a", "127.0.0.1", "-p", "\(port)"]
        try ProxyProcess.start(nats, listeningOn: port, what: "nats-server")
        defer {
            nats.send(.kill)
            nats.waitUntilExit()
        }

        // NATS' text protocol: CONNECT, SUB, then each MSG's payload as a line; PING answered with PONG.
        let subscriber = try dir.write(
            "subscribe.py",
            """
            import socket, sys
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            f = s.makefile("rb")
            f.readline()  # INFO
            s.sendall(b'CONNECT {"verbose":false}\\r\\nSUB tokens 1\\r\\nPING\\r\\n')
            while True:
                line = f.readline()
                if not line:
                    break
                if line.startswith(b"PING"):
                    s.sendall(b"PONG\\r\\n")
                elif line.startswith(b"PONG"):
                    sys.stderr.write("subscribed\\n"); sys.stderr.flush()
                elif line.startswith(b"MSG"):
                    size = int(line.split()[-1])
                    payload = f.read(size + 2)[:size]
                    if payload == b"END":
                        break
                    sys.stdout.buffer.write(payload + b"\\n"); sys.stdout.flush()
            """)
        let publisher = try dir.write(
            "publish.py",
            """
            import socket, sys
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            f = s.makefile("rb")
            f.readline()  # INFO
            s.sendall(b'CONNECT {"verbose":false}\\r\\n')
            for token in sys.stdin.read().split() + ["END"]:
                data = token.encode()
                s.sendall(b"PUB tokens %d\\r\\n%s\\r\\n" % (len(data), data))
            s.sendall(b"PING\\r\\n")
            while not f.readline().startswith(b"PONG"):
                pass
            """)
        let sent = tokens(40, seed: "0a75")
        let pipe = Pipe()
        let output = Pipe()
        let ready = Pipe()
        let sub = Process()
        sub.executableURL = URL(fileURLWithPath: Tool.path("python3"))
        sub.arguments = [subscriber, "\(port)"]
        sub.standardOutput = pipe
        sub.standardError = ready
        let pushctl = Process()
        pushctl.executableURL = URL(fileURLWithPath: CLI.pushctlPath)
        pushctl.arguments = followArguments(mock, [])
        pushctl.environment = CLI.baseEnvironment
        pushctl.standardInput = pipe
        pushctl.standardOutput = output
        pushctl.standardError = FileHandle.nullDevice
        try sub.run()
        try pushctl.run()
        // Only the two children hold the pipe between them (its end at one closes it at the other).
        try? pipe.fileHandleForReading.close()
        try? pipe.fileHandleForWriting.close()
        let lines = Lines(output)
        let subscribed = Lines(ready)
        #expect(subscribed.wait(for: 1, seconds: 20) == ["subscribed"])
        let result = try CLI.run(Tool.path("python3"), [publisher, "\(port)"], stdin: sent.joined(separator: "\n"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(sub.waitUntilExit(orKillAfter: 30))
        #expect(pushctl.waitUntilExit(orKillAfter: 30))
        #expect(pushctl.terminationStatus == 0)
        let objects = lines.wait(for: sent.count + 1).compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.compactMap { $0["token"] as? String } == sent, "N results, in the queue's order")
        #expect(objects.last?["tokens"] as? Int == sent.count)
        let received = try mock.requestsSoFar().compactMap { ($0["path"] as? String).map { String($0.dropFirst("/3/device/".count)) } }
        #expect(received.sorted() == sent.sorted())
    }
}
