/// A device token as the path of `POST /3/device/<token>` carries it: lower-case hex.
public struct DeviceToken: Hashable, Sendable, CustomStringConvertible {
    /// Lower-case hex, even length, not empty.
    public let hex: String

    /// Apple's tokens are usually this many hex characters; Apple says not to rely on it.
    public static let usualHexLength = 64

    /// Accepts what developers paste: spaces and Xcode's `<ab cd …>` are stripped,
    /// upper-case hex is lowered. Refuses anything that is not even-length hex.
    public init(parsing text: String) throws(InputError) {
        let cleaned = text.unicodeScalars.filter { !($0 == "<" || $0 == ">" || $0.properties.isWhitespace) }
        guard !cleaned.isEmpty else {
            throw InputError("the device token is empty", hint: "pass the hex token your app received from registerForRemoteNotifications")
        }
        var hex = ""
        hex.reserveCapacity(cleaned.count)
        for (offset, scalar) in cleaned.enumerated() {
            switch scalar {
            case "0"..."9", "a"..."f": hex.unicodeScalars.append(scalar)
            case "A"..."F": hex.unicodeScalars.append(Unicode.Scalar(scalar.value + 32)!)
            default:
                throw InputError(
                    "device token '\(DeviceToken.abbreviate(text))' has '\(scalar)' at position \(offset + 1); a token is hex (0-9, a-f)",
                    hint: "copy the token as your app printed it (the hex of the Data from didRegisterForRemoteNotificationsWithDeviceToken)")
            }
        }
        guard hex.count % 2 == 0 else {
            throw InputError(
                "device token '\(DeviceToken.abbreviate(hex))' has an odd number of hex digits (\(hex.count)); a token is whole bytes",
                hint: "check that no character was lost when copying it")
        }
        self.hex = hex
    }

    /// Whether the length is unusual enough to warn about (but not refuse).
    public var hasUnusualLength: Bool { hex.count != DeviceToken.usualHexLength }

    /// First and last eight digits, for one-line results: `a1b2c3d4…e5f60718`.
    public var short: String { DeviceToken.abbreviate(hex) }

    static func abbreviate(_ s: String) -> String {
        s.count <= 20 ? s : "\(s.prefix(8))…\(s.suffix(8))"
    }

    public var description: String { hex }
}
