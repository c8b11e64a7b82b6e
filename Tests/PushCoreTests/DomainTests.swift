import PushWords
import Testing

@testable import PushCore

@Suite struct PushTypeTests {
    @Test("each push type's topic suffix is added once")
    func topics() {
        #expect(PushType.alert.topic(forBundleID: "com.example.app") == "com.example.app")
        #expect(PushType.voip.topic(forBundleID: "com.example.app") == "com.example.app.voip")
        #expect(PushType.voip.topic(forBundleID: "com.example.app.voip") == "com.example.app.voip")
        #expect(PushType.liveactivity.topic(forBundleID: "a.b") == "a.b.push-type.liveactivity")
        #expect(PushType.fileprovider.topic(forBundleID: "a.b") == "a.b.pushkit.fileprovider")
        #expect(PushType.location.topic(forBundleID: "a.b") == "a.b.location-query")
        #expect(PushType.pushtotalk.topic(forBundleID: "a.b") == "a.b.voip-ptt")
        #expect(PushType.widgets.topic(forBundleID: "a.b") == "a.b.push-type.widgets")
        #expect(PushType.controls.topic(forBundleID: "a.b") == "a.b.push-type.controls")
        #expect(PushType.complication.topic(forBundleID: "a.b") == "a.b.complication")
    }

    @Test("a topic must fit its push type")
    func accepts() {
        #expect(PushType.voip.accepts(topic: "a.b.voip"))
        #expect(!PushType.voip.accepts(topic: "a.b"))
        #expect(PushType.alert.accepts(topic: "a.b"))
        #expect(!PushType.alert.accepts(topic: "a.b.voip"))
    }

    @Test("payload limits: 4096 bytes, 5120 for VoIP")
    func limits() {
        #expect(PushType.alert.payloadLimit == 4096)
        #expect(PushType.background.payloadLimit == 4096)
        #expect(PushType.voip.payloadLimit == 5120)
    }

    @Test("background pushes must not use priority 10")
    func priority() {
        #expect(!Priority.immediate.isAllowed(for: .background))
        #expect(Priority.considerate.isAllowed(for: .background))
        #expect(Priority.default(for: .background) == .considerate)
        #expect(Priority.default(for: .alert) == .immediate)
    }
}

@Suite struct DeviceTokenTests {
    @Test("Xcode's <ab cd …> form and upper case are cleaned")
    func cleaning() throws {
        #expect(try DeviceToken(parsing: "<AB cd 01 ef>").hex == "abcd01ef")
        let long = String(repeating: "a1", count: 32)
        #expect(try DeviceToken(parsing: long).hasUnusualLength == false)
        #expect(try DeviceToken(parsing: "abcd").hasUnusualLength == true)
    }

    @Test("non-hex, odd length and empty are refused", arguments: ["", "  ", "abc", "xyz0", "ab-cd"])
    func refused(_ text: String) {
        #expect(throws: InputError.self) { try DeviceToken(parsing: text) }
    }
}

@Suite struct RejectionReasonTests {
    @Test("every documented reason round-trips its name and has APNs' status")
    func roundTrip() {
        // 32 for device pushes, 9 more for broadcast push and channel management.
        #expect(RejectionReason.allKnown.count == 41)
        for reason in RejectionReason.allKnown {
            #expect(RejectionReason(apnsName: reason.apnsName) == reason)
            #expect(!reason.explanation.en.isEmpty && !reason.explanation.es.isEmpty)
            #expect(reason.explanation.en != reason.explanation.es, "\(reason) is not said in Spanish")
        }
        #expect(RejectionReason(apnsName: "Unregistered").status == 410)
        #expect(RejectionReason(apnsName: "BadDeviceToken").status == 400)
        #expect(RejectionReason(apnsName: "TooManyRequests").status == 429)
        #expect(RejectionReason(apnsName: "ServiceUnavailable").status == 503)
        #expect(RejectionReason(apnsName: "ExpiredProviderToken").status == 403)
        #expect(RejectionReason(apnsName: "PayloadTooLarge").status == 413)
        #expect(RejectionReason(apnsName: "BadEnvironmentKeyInToken") == .badEnvironmentKeyIdInToken)
        #expect(RejectionReason(apnsName: "SomethingNew") == .unknown("SomethingNew"))
        #expect(RejectionReason(apnsName: "ChannelNotRegistered").status == 400)
        #expect(RejectionReason(apnsName: "TopicMismatch").status == 403)
    }

    @Test("retry policy follows Apple: never 400/410/413, back off on 429/5xx, new token on ExpiredProviderToken")
    func retry() {
        #expect(RejectionReason.badDeviceToken.retry == .never)
        #expect(RejectionReason.unregistered.retry == .never)
        #expect(RejectionReason.payloadTooLarge.retry == .never)
        #expect(RejectionReason.invalidProviderToken.retry == .never)
        #expect(RejectionReason.tooManyRequests.retry == .afterBackoff)
        #expect(RejectionReason.serviceUnavailable.retry == .afterBackoff)
        #expect(RejectionReason.shutdown.retry == .onNewConnection)
        #expect(RejectionReason.expiredProviderToken.retry == .withNewProviderToken)
        #expect(RejectionReason.badDeviceToken.explanation.en.contains("other environment"))
    }
}
