/// Settings given together that contradict each other, or one outside its range: refused before
/// anything is read or sent (exit 64). The command line checks its flags against these; the
/// catalog says each (naming the settings as the program spells them).
public enum OptionConflict: InputProblem {
    /// A client certificate and a provider token (a key or a JWT).
    case certificateAndToken
    case bothEnvironments
    case endpointAndEnvironment
    case resumeWithoutJournal
    case skipInDoubtWithoutResume
    case noCollapseIDWithoutJournal
    case rateAndSpread
    case rateNotNumber(shown: String)
    case spreadNotDuration(shown: String)
    /// `--follow` without a file (or standard input) to follow.
    case followNeedsFile
    /// Something that needs the whole list, with a stream read once as it arrives.
    case notWithFollow(Setting)
    /// Something the Simulator's one notification does not take.
    case notWithSimulator(Setting)
    case metricsPushNotURL(shown: String)
    case metricsWithBroadcast
    case journalWithBroadcast
    case detectWithEndpoint
    case detectNeedsDeviceTokens
    case connectToForm(shown: String)
    case portNotApple
    /// A whole number outside lowest...highest.
    case outOfRange(Setting, lowest: Int, highest: Int, given: String)
    /// A number of seconds that must be more than 0 and at most `highest`.
    case secondsOutOfRange(Setting, highest: Int, given: String)
    /// The payload and the recipients both from standard input.
    case standardInputTwice(Setting)
    case channelsWithDevices
    case broadcastHeaders
    case requestIDWithoutChannels
    case payloadTwice
    case recipientsTwice
    case requestsFileCarriesPayloads
    case apnsIDWithRequestsFile
    /// A Live Activity flag (as the program spells it) without the Live Activity.
    case liveActivityNeeded(flag: String)
    case liveActivityEvent(shown: String)
    case liveActivityPushType(shown: String)
    /// A flag (as the program spells it) that does not go with a built Live Activity.
    case notWithLiveActivity(flag: String)
}
