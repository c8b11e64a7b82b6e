import Foundation
import PushCore
import Testing

/// `send --app`: the payload judged against the app before anything is sent, through the built
/// binaries (pushctl asks pushctl-app) and a real mock.
@Suite(.serialized) struct SendAppTests {
    let dir = try! TemporaryDirectory()

    static func update(_ state: String) -> String {
        #"{"aps":{"event":"update","timestamp":\#(Int(Date().timeIntervalSince1970)),"content-state":\#(state)}}"#
    }

    @Test(
        "an update the phone cannot decode is refused before sending (65, nothing sent); --force sends it, and the json summary and the journal keep the findings"
    )
    func refusesWhatWillFail() throws {
        let app = try dir.makeCafeApp()
        let mock = try MockProcess(dir: dir)
        let broken = Self.update(#"{"readyAt":1764300000}"#)
        let refused = try mock.send(["--device-token", sampleToken, "--push-type", "liveactivity", "--payload-json", broken, "--app", app])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("will fail on the phone: aps.content-state.status"), "\(refused.stderr)")
        #expect(refused.stderr.contains("send 785992800"), "the Date both ways: \(refused.stderr)")
        #expect(refused.stderr.contains("nothing was sent") && refused.stderr.contains("--force"), "\(refused.stderr)")
        #expect(try mock.requests().isEmpty, "nothing reached the server")

        let journal = dir.path("run.journal")
        let forced = try mock.send([
            "--device-token", sampleToken, "--push-type", "liveactivity", "--payload-json", broken, "--app", app, "--force",
            "--output", "json", "--journal", journal,
        ])
        #expect(forced.status == 0, "\(forced.stderr)")
        let document = try JSONValue.parse(Array(forced.stdout.utf8))
        guard case .array(let findings)? = document["summary"]?["findings"] else {
            Issue.record("no findings in the summary: \(forced.stdout)")
            return
        }
        #expect(findings.contains { $0["code"]?.stringValue == "missing-key" && $0["severity"]?.stringValue == "will-fail" }, "\(findings)")
        #expect(findings.allSatisfy { $0["message"] == nil }, "the machine form only, the same in every language")
        let header = try JSONValue.parse(String(try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n")[0]))
        #expect(header["findings"] == .array(findings), "the journal's header keeps what was known")
        #expect(try mock.requests(count: 1).count == 1)
    }

    @Test("a good payload goes through with no finding; a dry run shows the alert in the app's words, in the locale asked for")
    func goodPayloadAndLocalizedPreview() throws {
        let app = try dir.makeCafeApp()
        let mock = try MockProcess(dir: dir)
        let good = Self.update(#"{"status":"ready","readyAt":785992800}"#)
        let sent = try mock.send(["--device-token", sampleToken, "--push-type", "liveactivity", "--payload-json", good, "--app", app])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(!sent.stderr.contains("will fail") && !sent.stderr.contains("will look wrong"), "\(sent.stderr)")

        let alert = #"{"aps":{"alert":{"loc-key":"ORDER_READY","loc-args":["Ana"]}}}"#
        for (locale, line) in [(nil, "  Ana, tu pedido está listo"), ("en", "  Ana, your order is ready")] {
            let dry = try mock.send(
                ["--device-token", sampleToken, "--payload-json", alert, "--app", app, "--dry-run"] + (locale.map { ["--locale", $0] } ?? []))
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(dry.stdout.contains("\n  Café Sol\n\(line)\n"), "\(dry.stdout)")
        }
        let missing = try mock.send(["--device-token", sampleToken, "--payload-json", #"{"aps":{"alert":{"loc-key":"NOPE"}}}"#, "--app", app])
        #expect(missing.status == 0, "the raw key looks wrong but arrives: \(missing.stderr)")
        #expect(missing.stderr.contains("will look wrong: aps.alert.loc-key"), "\(missing.stderr)")
    }

    @Test("--app is refused with a requests file (it checks one payload), and an app folder that is not there is said by name")
    func refusals() throws {
        let mock = try MockProcess(dir: dir)
        let requests = try dir.write("requests.jsonl", #"{"token":"\#(sampleToken)","payload":{"aps":{"alert":"x"}}}"# + "\n")
        let withFile = try mock.send(["--requests-file", requests, "--app", try dir.makeCafeApp()])
        #expect(withFile.status == 64, "\(withFile.stderr)")
        #expect(withFile.stderr.contains("--app checks one payload"), "\(withFile.stderr)")
        let gone = try mock.send(["--device-token", sampleToken, "--title", "x", "--app", dir.path("NoSuchApp")])
        #expect(gone.status == 66, "\(gone.stderr)")
        #expect(gone.stderr.contains("NoSuchApp"), "\(gone.stderr)")
        #expect(try mock.requests().isEmpty)
    }
}
