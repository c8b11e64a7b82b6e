import ChildProcess
import PushWords
import Testing

@testable import PushCore

/// The rules pushctl applies to a provider certificate, and the reader of Apple's topics
/// extension (outside input: fuzzed with a fixed seed).
struct ProviderCertificateTests {
    static func certificate(
        uid: String? = "com.example.app", topics: [String] = ["com.example.app", "com.example.app.voip"],
        development: Bool = true, production: Bool = true,
        notBefore: Int64 = 1_700_000_000, notAfter: Int64 = 1_800_000_000
    ) -> ProviderCertificate {
        ProviderCertificate(
            subject: "UID=\(uid ?? "-")", issuer: "CN=test", uid: uid, commonName: nil, serialHex: "01",
            notBefore: notBefore, notAfter: notAfter, topics: topics.map { .init(name: $0, kinds: ["app"]) },
            development: development, production: production, fingerprint: "")
    }

    @Test func validityAndDaysLeft() {
        let c = Self.certificate(notBefore: 1000, notAfter: 1000 + 40 * 86_400)
        #expect(c.validity(now: 999) == .notYetValid)
        #expect(c.validity(now: 1000) == .valid)
        #expect(c.validity(now: 1000 + 20 * 86_400) == .expiresSoon(days: 20))
        #expect(c.validity(now: 1000 + 40 * 86_400) == .expired)
        #expect(c.daysLeft(now: 1000 + 41 * 86_400) == -1)
        #expect(c.daysLeft(now: 1000 + 40 * 86_400 + 1) == -1)
        // Far-off times never trap.
        #expect(Self.certificate(notBefore: .min, notAfter: .max).daysLeft(now: .min) > 0)
    }

    @Test func defaultTopicAndCoverage() {
        #expect(Self.certificate().defaultTopic == "com.example.app")
        #expect(Self.certificate(uid: nil, topics: ["com.solo.app"]).defaultTopic == "com.solo.app")
        #expect(Self.certificate(uid: "com.a.app", topics: ["com.a.app", "com.b.app"]).defaultTopic == nil)
        // Old certificates without the extension: the UID is the one topic.
        #expect(Self.certificate(topics: []).allowedTopics == ["com.example.app"])

        let c = Self.certificate()
        #expect(c.refusal(topic: "com.example.app.voip", pushType: .voip) == nil)
        #expect(c.refusal(topic: "com.example.app.complication", pushType: .complication)?.words.en.contains("does not cover") == true)
        #expect(c.refusal(topic: "com.example.app.push-type.liveactivity", pushType: .liveactivity)?.words.en.contains("token authentication") == true)
    }

    @Test func environments() {
        let development = Self.certificate(production: false)
        #expect(development.serves(.sandbox) && !development.serves(.production))
        #expect(Self.certificate(development: false).serves(.production))
        // Marks neither (not Apple's): the server decides.
        #expect(Self.certificate(development: false, production: false).serves(.production))
        #expect(Self.certificate(uid: nil, topics: [], development: false, production: false).isPushCertificate == false)
    }

    @Test func topicsExtensionRoundTrips() {
        let topics: [ProviderCertificate.Topic] = [
            .init(name: "com.example.app", kinds: ["app"]),
            .init(name: "com.example.app.voip", kinds: ["voip"]),
            .init(name: String(repeating: "a", count: 200), kinds: ["complication", "x"]),
        ]
        #expect(AppleTopicsExtension.parse(AppleTopicsExtension.encode(topics)) == topics)
        #expect(AppleTopicsExtension.parse([]) == nil)
        #expect(AppleTopicsExtension.parse([0x30, 0x05, 0x0C, 0x09]) == nil, "a length past the end")
        #expect(AppleTopicsExtension.parse([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF]) == nil, "a 4-byte length")
    }

    /// Fixed-seed fuzz: random and mutated DER never traps, and whatever parses is bounded.
    @Test func topicsExtensionSurvivesGarbage() {
        var rng = SplitMix64(seed: 0xCE27_5EED)
        let valid = AppleTopicsExtension.encode([.init(name: "com.example.app", kinds: ["app"]), .init(name: "com.example.app.voip", kinds: ["voip"])])
        for index in 0..<20_000 {
            var bytes: [UInt8]
            if index % 2 == 0 {
                bytes = (0..<Int.random(in: 0..<64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                if !bytes.isEmpty && index % 4 == 0 { bytes[0] = 0x30 }
            } else {
                bytes = valid
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let at = Int.random(in: 0..<bytes.count, using: &rng)
                    bytes[at] = UInt8.random(in: 0...255, using: &rng)
                }
                if index % 3 == 0 { bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng))) }
            }
            if let topics = AppleTopicsExtension.parse(bytes) {
                #expect(topics.count <= 1000 && topics.allSatisfy { $0.name.utf8.count <= 255 && $0.kinds.count <= 16 }, "case \(index)")
            }
        }
    }
}
