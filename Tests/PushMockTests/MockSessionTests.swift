import PushCore
import PushMock
import PushMockSession
import Testing

/// `pushctl mock`'s application in values: the fault specs it is given, and the banner's layout.
@Suite("The mock's session")
struct MockSessionTests {
    @Test func theFaultSpecsBecomeTheFaultsPlayed() throws {
        var settings = MockSettings()
        settings.failures = ["\(sampleToken)=Unregistered"]
        settings.failFirst = ["\(sampleToken)=2:ServiceUnavailable"]
        settings.goAwayAfter = 5
        settings.goAwayError = "ENHANCE_YOUR_CALM"
        settings.answerStatus = 503
        settings.answerBody = "busy"
        let faults = try settings.faults()
        let token = try DeviceToken(parsing: sampleToken)
        #expect(faults.failTokens[token] == .unregistered)
        #expect(faults.failFirstAttempts[token] == MockFaults.FailFirst(attempts: 2, reason: .serviceUnavailable))
        #expect(faults.goAwayAfterRequests == 5 && faults.goAwayErrorCode == 0xb)
        #expect(faults.answer == MockFaults.Answer(status: 503, body: Array("busy".utf8)))
        settings.failFirst = ["\(sampleToken)=0:ServiceUnavailable"]
        #expect(throws: InputError.self) { try settings.faults() }
    }

    @Test func aCommandTooWideForTheScreenBreaksBetweenItsArgumentsAndStillPastes() {
        let command = "  pushctl send --endpoint https://127.0.0.1:8443 --cacert /tmp/mock-ca.pem --key-file AuthKey_ABC123DEFG.p8 --title Hello"
        let lines = BannerLayout.fitted(command, width: 40).split(separator: "\n").map(String.init)
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= 40 }, "\(lines)")
        #expect(lines.dropLast().allSatisfy { $0.hasSuffix(" \\") }, "\(lines)")
        #expect(lines.contains { $0.contains("--cacert /tmp/mock-ca.pem") }, "a flag stays with its value")
        let pasted = lines.map { $0.hasSuffix(" \\") ? String($0.dropLast(2)) : $0 }.joined(separator: " ")
        #expect(pasted.split(separator: " ") == command.split(separator: " "))
        #expect(BannerLayout.fitted(command, width: nil) == command, "not on a terminal: as it is")
    }
}
