import Foundation
import Testing

@Suite struct DemoCommandTests {
    @Test("demo runs the whole flow offline, in order, and never waits without a terminal even with --pause")
    func demo() throws {
        let started = Date()
        let result = try CLI.pushctl(["demo", "--pause"], stdin: "")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 30)
        let out = result.stdout
        var cursor = out.startIndex
        for expected in ["Step 1 of 8 — The key", "AuthKey_DEMO123456.p8", "Step 2 of 8", "2.1 Header", "r: ", "s: ",
                         "Step 3 of 8", "POST https://127.0.0.1:", "apns-push-type: alert",
                         "Step 4 of 8", "200  apns-id", "unique-id",
                         "Step 5 of 8", "apns-push-type: background and apns-priority: 5", "200  apns-id",
                         "Step 6 of 8", "the payload is 4097 bytes, 1 over APNs' limit of 4096 bytes",
                         "Step 7 of 8", "410 Unregistered",
                         "Step 8 of 8", "over a test certificate", "pushctl send --key-file AuthKey_<KEYID>.p8", "pushctl send --cert push.p12"] {
            let found = try #require(out.range(of: expected, range: cursor..<out.endIndex), "missing or out of order: \(expected)")
            cursor = found.upperBound
        }
        #expect(!out.contains("\u{1B}["), "no colour without a terminal")
        #expect(!out.contains("Enter to continue"))
    }
}
