/// What is wrong with a setting of the mock APNs server (its ports, stream and connection limits,
/// the faults it plays, its keys and its certificate's names): refused before it listens. Each
/// case holds what was given, as given; the catalog says each and what to do.
public enum MockSettingProblem: InputProblem {
    /// A port outside 0...65535.
    case port(given: Int)
    /// A stream limit outside 0...highest (HTTP/2 carries it in 31 bits).
    case streamLimit(given: Int, highest: Int)
    /// An initial stream limit outside 0 and the stream limit.
    case initialStreamLimit(given: Int, streamLimit: Int)
    /// A connection limit (in all, or from one address) under 1: the smaller of the two.
    case connectionLimit(given: Int)
    /// A fault's answer status outside HTTP's 100...599.
    case answerStatus(given: Int)
    /// A negative number of requests a fault's answer is given to.
    case answerCount(given: Int)
    /// Body padding outside 0...highest bytes.
    case bodyPadding(given: Int, highest: Int)
    /// A response delay outside 0...highest milliseconds.
    case responseDelay(givenMilliseconds: Int, highestMilliseconds: Int)
    /// A retry-after value with NUL, CR or LF (HTTP/2 forbids them in a header value).
    case retryAfterControlCharacter
    /// A negative interval between provider token updates.
    case tokenUpdateInterval(givenSeconds: Int64)
    /// A BadDeviceToken limit under 1.
    case badDeviceTokenLimit(given: Int)
    /// An idle timeout outside 1 ms...a day.
    case idleTimeout(givenMilliseconds: Int)
    /// A connection set-up timeout outside 1 ms...an hour.
    case setupTimeout(givenMilliseconds: Int)
    /// A negative stream reset limit, or a control frame allowance under 1.
    case resetLimits
    /// A failure rule not of the form TOKEN=REASON.
    case failureForm(given: String)
    /// A first-attempts failure rule not of the form TOKEN=N:REASON (N 1 or more).
    case failFirstForm(given: String)
    /// A failure rule's device token shorter than APNs issues: the mock answers it BadDeviceToken
    /// before any rule. `short` is the token abbreviated.
    case shortToken(short: String, bytes: Int)
    /// A reason name APNs does not send.
    case unknownReason(given: String)
    /// A key file whose key id neither its name (`AuthKey_<KEYID>.p8`) nor a `KEYID=` prefix gives.
    case unknownKeyID(given: String)
    /// A key that is not P-256 in PEM form (a `.p8` or a PEM public key).
    case notAP256Key(keyID: String)
    /// The key folder named is not a folder.
    case keyFolderNotAFolder(path: String)
    /// A client CA file without a PEM certificate in it.
    case clientCAWithoutPEM(path: String)
    /// A certificate name that is neither an IP address nor a host name.
    case notAHostName(given: String)
}
