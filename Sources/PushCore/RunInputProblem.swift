/// What was wrong with what a send was given, found as it was set up or read: its recipients and
/// payload, its input files, a Live Activity's fields, the Simulator it delivers to. Paths are as
/// given; a parameter named `shown` is already made safe to show. The catalog says each and what
/// to do.
public enum RunInputProblem: InputProblem {
    // Setting up a send.
    /// No topic (bundle id) for a send.
    case missingTopic
    /// No topic for a channel call or a broadcast (its variable named).
    case missingChannelTopic
    /// No device token, tokens file or requests file.
    case missingDeviceToken
    /// No payload, in any of its forms.
    case missingPayload
    /// The payload file's setting was given JSON itself (shown, cut short).
    case payloadFileIsJSON(shown: String)
    /// One apns-id for several notifications.
    case apnsIDForSeveral(count: Int)
    /// An output file is the input file itself (`input`: the tokens or the requests file).
    case outputIsInput(shown: String, input: FileRole)
    /// A journal was asked for, and the requests file was read without its digest.
    case journalNeedsDigest
    /// The engine failed in a way it has no code for (its own text, said as it is).
    case engineFailed(detail: String)

    // Input files.
    /// A tokens file with no device token in it.
    case noDeviceTokens(path: String)
    /// A requests file with no notification in it (its name as given).
    case noNotifications(name: String)
    /// A line longer than the limit (bytes); `.at(.line(…))` says which.
    case lineTooLong(limit: Int)
    /// A line of a followed file longer than the limit (bytes): refused as the run goes on.
    case followedLineTooLong(limit: Int)
    /// A stop signal came while waiting for the input.
    case stoppedReading(path: String)
    /// Reading the input failed.
    case cannotRead(path: String, SystemReason)
    /// The input changed while it was sent: it had `count` notifications, and `sent` were.
    case changedDuringRun(RunInputName, count: Int, sent: Int)

    // A Live Activity's fields.
    /// A date that is not UNIX seconds (`name`: the setting, as said; `example`: an hour from now).
    case notUnixSeconds(setting: Setting, given: String, example: Int64)
    /// The relevance score is not a number (shown).
    case relevanceScoreNotNumber(shown: String)
    /// JSON given to a setting (inline, or `@FILE`: `file`, shown) over 64 KB.
    case jsonArgumentTooLarge(Setting, file: String?)
    /// JSON given to a setting (inline, or `@FILE`) that does not parse.
    case jsonArgumentNotJSON(Setting, file: String?, JSONDiagnosis)

    // The Simulator.
    /// xcrun is not on PATH.
    case xcrunMissing
    /// `xcrun simctl push` failed (its exit status; the device, shown).
    case simctlFailed(status: Int32, device: String)
    /// A program could not be started.
    case cannotRun(program: String, SystemReason)
}

/// What a send's input is, as a message names it.
public enum RunInputName: Sendable, Equatable {
    /// Device tokens given one by one.
    case deviceTokens
    /// A file (tokens, requests or followed), by its path as given.
    case file(String)
    /// A broadcast's channels.
    case channels
    /// A channel call.
    case channelCall
}
