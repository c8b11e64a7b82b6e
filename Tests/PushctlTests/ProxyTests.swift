import ChildProcess
import Foundation
import PushSystem
import Testing

/// A proxy server from Debian, started by the test on loopback (tinyproxy: HTTP CONNECT;
/// microsocks: SOCKS5), between pushctl and the mock.
final class ProxyProcess {
    let process = Process()
    let port: Int

    /// A port nobody is listening on right now.
    static func freePort() -> Int { Sockets.freeLoopbackPort() ?? 0 }

    /// tinyproxy, optionally with Basic authentication.
    init(tinyproxy dir: TemporaryDirectory, auth: (String, String)? = nil) throws {
        port = ProxyProcess.freePort()
        var config = "Port \(port)\nListen 127.0.0.1\nTimeout 30\nMaxClients 50\nAllow 127.0.0.1\nLogLevel Error\n"
        if let auth { config += "BasicAuth \(auth.0) \(auth.1)\n" }
        let file = try dir.write("tinyproxy-\(port).conf", config)
        process.executableURL = URL(fileURLWithPath: Tool.path("tinyproxy"))
        process.arguments = ["-d", "-c", file]
        try start()
    }

    /// microsocks, optionally with a user and password.
    init(microsocks auth: (String, String)? = nil) throws {
        port = ProxyProcess.freePort()
        process.executableURL = URL(fileURLWithPath: Tool.path("microsocks"))
        process.arguments = ["-i", "127.0.0.1", "-p", String(port)] + (auth.map { ["-u", $0.0, "-P", $0.1] } ?? [])
        try start()
    }

    private func start() throws {
        guard FileManager.default.isExecutableFile(atPath: process.executableURL!.path) else {
            throw CLIError("\(process.executableURL!.path) is missing: Scripts/install-deps.sh installs tinyproxy and microsocks")
        }
        try ProxyProcess.start(process, listeningOn: port, what: "the proxy", seconds: 10)
    }

    /// Starts a server's `process` (its output dropped), ready when it accepts a connection on `port`.
    static func start(_ process: Process, listeningOn port: Int, what: String, seconds: Double = 20) throws {
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if Sockets.acceptsConnections(onLoopbackPort: port) { return }
            Clocks.sleep(seconds: 0.05)
        }
        throw CLIError("\(what) on port \(port) did not start")
    }

    deinit {
        // SIGKILL: a sandbox may start processes with SIGTERM ignored, and neither proxy traps it.
        if process.isRunning {
            process.send(.kill)
            process.waitUntilExit()
        }
    }
}

@Suite(.serialized) struct ProxyTests {
    let dir = try! TemporaryDirectory()

    @Test("through an HTTP CONNECT proxy (tinyproxy) and a SOCKS5 proxy (microsocks), by flag or PUSHCTL_PROXY")
    func throughProxies() throws {
        let mock = try MockProcess(dir: dir)
        let http = try ProxyProcess(tinyproxy: dir)
        let socks = try ProxyProcess(microsocks: nil)
        for (arguments, env) in [
            (["--proxy", "http://127.0.0.1:\(http.port)"], [String: String]()),
            ([], ["PUSHCTL_PROXY": "socks5h://127.0.0.1:\(socks.port)"]),
            (["--proxy", "socks5://127.0.0.1:\(socks.port)"], [:]),
        ] {
            let before = try mock.requests().count
            let result = try mock.send(["--device-token", sampleToken, "--title", "x"] + arguments, env: env)
            #expect(result.status == 0, "\(arguments) \(env): \(result.stderr)")
            #expect(try mock.requests(count: before + 1).count == before + 1)
        }
        // The proxy really carries it: with the proxy gone, the same send fails as a proxy problem.
        let gone = "http://127.0.0.1:\(ProxyProcess.freePort())"
        let failed = try mock.send(["--device-token", sampleToken, "--title", "x", "--proxy", gone])
        #expect(failed.status == 69)
        #expect(failed.stderr.contains("hint: the proxy could not be reached"), "\(failed.stderr)")
    }

    @Test("a proxy that needs a password: refused without it (69, a clear hint), through with --proxy-user-file; the password never printed")
    func credentials() throws {
        let mock = try MockProcess(dir: dir)
        let http = try ProxyProcess(tinyproxy: dir, auth: ("alice", "s3cret-word"))
        let refused = try mock.send(["--device-token", sampleToken, "--title", "x", "--proxy", "http://127.0.0.1:\(http.port)"])
        #expect(refused.status == 69)
        #expect(refused.stdout.contains("407") && refused.stderr.contains("hint: the proxy"), "\(refused.stdout)\(refused.stderr)")
        let file = try dir.write("proxy-user", "alice:s3cret-word\n")
        let through = try mock.send([
            "--device-token", sampleToken, "--title", "x", "--proxy", "http://127.0.0.1:\(http.port)",
            "--proxy-user-file", file, "--verbose",
        ])
        #expect(through.status == 0, "\(through.stderr)")
        #expect(through.stderr.contains("Proxy-Authorization: [redacted"), "the CONNECT's credentials are redacted in the trace")
        #expect(!(through.stdout + through.stderr).contains("s3cret-word"))
        #expect(!(through.stdout + through.stderr).contains("YWxpY2U6czNjcmV0LXdvcmQ"), "nor their base64")

        let socks = try ProxyProcess(microsocks: ("bob", "pw-9x7"))
        let ok = try mock.send(["--device-token", sampleToken, "--title", "x", "--proxy", "socks5h://bob:pw-9x7@127.0.0.1:\(socks.port)", "--verbose"])
        #expect(ok.status == 0, "\(ok.stderr)")
        let wrong = try mock.send(["--device-token", sampleToken, "--title", "x", "--proxy", "socks5h://bob:nope-4q@127.0.0.1:\(socks.port)", "--dry-run"])
        #expect(wrong.status == 0)
        #expect(!wrong.stdout.contains("nope-4q") && wrong.stdout.contains("socks5h://bob:***@"), "the dry run's curl masks the password")
        let failing = try mock.send(["--device-token", sampleToken, "--title", "x", "--proxy", "socks5h://bob:nope-4q@127.0.0.1:\(socks.port)"])
        #expect(failing.status == 69)
        #expect(!(failing.stdout + failing.stderr).contains("nope-4q"), "\(failing.stderr)")
    }

    @Test("--proxy wins over no_proxy: a host no_proxy lists still goes through the proxy given")
    func proxyWinsOverNoProxy() throws {
        let mock = try MockProcess(dir: dir)
        let gone = "http://127.0.0.1:\(ProxyProcess.freePort())"
        let result = try mock.send(["--device-token", sampleToken, "--title", "x", "--proxy", gone], env: ["no_proxy": "127.0.0.1", "NO_PROXY": "*"])
        #expect(result.status == 69, "sent around the proxy: \(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("hint: the proxy could not be reached"), "\(result.stderr)")
    }

    @Test(
        "without --proxy, libcurl's variables are followed: https_proxy, HTTPS_PROXY, all_proxy or ALL_PROXY naming a proxy that is gone fails the send (69); no_proxy naming the host sends directly"
    )
    func environmentProxies() throws {
        let mock = try MockProcess(dir: dir)
        let gone = "http://127.0.0.1:\(ProxyProcess.freePort())"
        for name in ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            let result = try mock.send(["--device-token", sampleToken, "--title", "x"], env: [name: gone])
            #expect(result.status == 69, "\(name) was not followed: \(result.stdout)\(result.stderr)")
        }
        #expect(try mock.requestsSoFar().isEmpty, "nothing reached the server around the proxy")
        let direct = try mock.send(["--device-token", sampleToken, "--title", "x"], env: ["https_proxy": gone, "no_proxy": "127.0.0.1"])
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(try mock.requestsSoFar().count == 1)
    }
    @Test(
        "bad proxy settings are refused before anything connects",
        arguments: [
            (["--proxy", "ftp://127.0.0.1:1"], 65),
            (["--proxy", "http://a b"], 65),
            (["--proxy-user-file", "/nonexistent"], 64),
        ] as [([String], Int32)])
    func refusals(_ extra: [String], _ status: Int32) throws {
        let result = try CLI.pushctl(
            [
                "send", "--topic", "com.example.app", "--device-token", sampleToken, "--title", "x",
                "--endpoint", "https://127.0.0.1:9", "--jwt", "x.y.z",
            ] + extra)
        #expect(result.status == status, "\(extra): \(result.stderr)")
    }
}
