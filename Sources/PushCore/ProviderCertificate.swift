/// What an APNs provider certificate says about itself, as read from its X.509 fields (the
/// reading is PushCrypto's; the rules here are pure).
///
/// Apple's "Apple Push Notification service SSL" certificates carry the bundle id as the
/// subject's UID, mark the environments they serve with extensions 1.2.840.113635.100.6.3.1
/// (development) and .2 (production), and list their topics in extension .6.3.6.
public struct ProviderCertificate: Sendable, Equatable {
    public struct Topic: Sendable, Equatable {
        /// The topic as APNs takes it in `apns-topic` (e.g. `com.example.app.voip`).
        public var name: String
        /// Apple's words for what the topic is for (`app`, `voip`, `complication`, …).
        public var kinds: [String]

        public init(name: String, kinds: [String]) {
            self.name = name
            self.kinds = kinds
        }
    }

    public var subject: String
    public var issuer: String
    /// The subject's UID: Apple puts the bundle id there.
    public var uid: String?
    public var commonName: String?
    public var serialHex: String
    /// UNIX seconds.
    public var notBefore: Int64
    public var notAfter: Int64
    public var topics: [Topic]
    public var development: Bool
    public var production: Bool
    /// SHA-256 of the DER certificate, lower-case hex.
    public var fingerprint: String

    public init(
        subject: String, issuer: String, uid: String?, commonName: String?, serialHex: String,
        notBefore: Int64, notAfter: Int64, topics: [Topic], development: Bool, production: Bool,
        fingerprint: String
    ) {
        self.subject = subject
        self.issuer = issuer
        self.uid = uid
        self.commonName = commonName
        self.serialHex = serialHex
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.topics = topics
        self.development = development
        self.production = production
        self.fingerprint = fingerprint
    }

    /// The topics this certificate may send to: those of Apple's topics extension, or the UID
    /// alone for an older certificate without it.
    public var allowedTopics: [String] {
        if !topics.isEmpty { return topics.map(\.name) }
        return uid.map { [$0] } ?? []
    }

    /// Whether the certificate looks like one of Apple's push certificates at all.
    public var isPushCertificate: Bool { uid != nil || !topics.isEmpty || development || production }

    // Which environments it serves, in words ("development and production"): the catalog's
    // `environments`.

    public func serves(_ environment: APNsEnvironment) -> Bool {
        // A certificate that marks no environment (not Apple's) is let through: the server decides.
        if !development && !production { return true }
        return environment == .sandbox ? development : production
    }

    /// Whole days from `now` to the end of validity (negative once expired).
    public func daysLeft(now: Int64) -> Int64 {
        let seconds = OutsideNumber.difference(notAfter, now)
        return seconds / 86_400 - (seconds < 0 && seconds % 86_400 != 0 ? 1 : 0)
    }

    public enum Validity: Equatable, Sendable {
        case valid
        /// Valid now, but not for many more days.
        case expiresSoon(days: Int64)
        case expired
        case notYetValid
    }

    public static let warningDays: Int64 = 30

    public func validity(now: Int64, warnWithin days: Int64 = ProviderCertificate.warningDays) -> Validity {
        if now < notBefore { return .notYetValid }
        if now >= notAfter { return .expired }
        let left = daysLeft(now: now)
        return left < days ? .expiresSoon(days: left) : .valid
    }

    /// The topic a send uses when none is given: the UID when every topic is the UID or the UID
    /// with a suffix (`.voip`, `.complication`, …), else the only topic. Nil when the choice is
    /// the user's (topics of several apps).
    public var defaultTopic: String? {
        let names = allowedTopics
        if let uid, names.allSatisfy({ $0 == uid || $0.hasPrefix(uid + ".") }) { return uid }
        return names.count == 1 ? names[0] : nil
    }

    /// The problem, if any, with sending `pushType` to `topic` over this certificate.
    public func refusal(topic: String, pushType: PushType) -> CertificateRefusal? {
        if pushType == .liveactivity || pushType == .location { return .needsTokenAuthentication(pushType) }
        let allowed = allowedTopics
        guard !allowed.isEmpty, !allowed.contains(topic) else { return nil }
        return .topicNotCovered(
            shown: OutsideText.display(topic, limit: 120), pushType: pushType,
            covered: allowed.map { OutsideText.display($0, limit: 120) })
    }
}

/// Why a certificate cannot send a notification.
public enum CertificateRefusal: Sendable, Equatable {
    /// liveactivity and location need token authentication (a .p8 key).
    case needsTokenAuthentication(PushType)
    /// The topic is not one the certificate lists (`covered`).
    case topicNotCovered(shown: String, pushType: PushType, covered: [String])
}

/// Apple's topics extension (OID 1.2.840.113635.100.6.3.6): a DER SEQUENCE in which each topic
/// (a string) is followed by a SEQUENCE of strings naming what it is for, e.g.
/// `SEQUENCE { "com.example.app", SEQUENCE { "app" }, "com.example.app.voip", SEQUENCE { "voip" } }`.
public enum AppleTopicsExtension {
    public static let oid = "1.2.840.113635.100.6.3.6"
    public static let developmentOID = "1.2.840.113635.100.6.3.1"
    public static let productionOID = "1.2.840.113635.100.6.3.2"

    /// The topics, or nil when the bytes are not such a SEQUENCE. Bounded: at most 1,000
    /// topics of at most 255 bytes are taken; the walk never reads past the input.
    public static func parse(_ der: [UInt8]) -> [ProviderCertificate.Topic]? {
        var reader = DERReader(der[...])
        guard let outer = reader.next(), outer.tag == 0x30, reader.isAtEnd else { return nil }
        var items = DERReader(outer.value)
        var topics: [ProviderCertificate.Topic] = []
        while !items.isAtEnd {
            guard let item = items.next() else { return nil }
            if let text = DERReader.string(item) {
                guard topics.count < 1000, text.utf8.count <= 255 else { continue }
                topics.append(.init(name: text, kinds: []))
            } else if item.tag == 0x30, !topics.isEmpty {
                var inner = DERReader(item.value)
                while !inner.isAtEnd {
                    guard let kind = inner.next() else { return nil }
                    if let text = DERReader.string(kind), topics[topics.count - 1].kinds.count < 16, text.utf8.count <= 64 {
                        topics[topics.count - 1].kinds.append(text)
                    }
                }
            }
        }
        return topics
    }

    /// The DER of the extension for these topics (for test certificates).
    public static func encode(_ topics: [ProviderCertificate.Topic]) -> [UInt8] {
        var body: [UInt8] = []
        for topic in topics {
            body += DERReader.encode(tag: 0x0C, Array(topic.name.utf8))
            body += DERReader.encode(tag: 0x30, topic.kinds.flatMap { DERReader.encode(tag: 0x0C, Array($0.utf8)) })
        }
        return DERReader.encode(tag: 0x30, body)
    }
}

/// A minimal reader of DER's tag-length-value items (single-byte tags, definite lengths).
struct DERReader {
    struct Item {
        let tag: UInt8
        let value: ArraySlice<UInt8>
    }

    private var rest: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { rest = bytes }

    var isAtEnd: Bool { rest.isEmpty }

    /// The next item, or nil when the bytes are not DER (the reader is then left at the end).
    mutating func next() -> Item? {
        guard rest.count >= 2 else {
            rest = []
            return nil
        }
        let tag = rest[rest.startIndex]
        var index = rest.startIndex + 1
        var length = Int(rest[index])
        index += 1
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard (1...3).contains(count), rest.endIndex - index >= count else {
                rest = []
                return nil
            }
            length = 0
            for _ in 0..<count {
                length = length << 8 | Int(rest[index])
                index += 1
            }
        }
        guard tag & 0x1F != 0x1F, rest.endIndex - index >= length else {
            rest = []
            return nil
        }
        let value = rest[index..<(index + length)]
        rest = rest[(index + length)...]
        return Item(tag: tag, value: value)
    }

    /// UTF8String, PrintableString and IA5String, as text (invalid UTF-8 repaired).
    static func string(_ item: Item) -> String? {
        guard item.tag == 0x0C || item.tag == 0x13 || item.tag == 0x16 else { return nil }
        return String(decoding: item.value, as: UTF8.self)
    }

    static func encode(tag: UInt8, _ value: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [tag]
        let n = value.count
        if n < 0x80 {
            out.append(UInt8(n))
        } else if n <= 0xFF {
            out += [0x81, UInt8(n)]
        } else if n <= 0xFFFF {
            out += [0x82, UInt8(n >> 8), UInt8(n & 0xFF)]
        } else {
            out += [0x83, UInt8(n >> 16), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)]
        }
        return out + value
    }
}
