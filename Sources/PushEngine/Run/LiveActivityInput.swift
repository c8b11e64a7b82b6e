public import PushCore
import PushFiles
import PushWords

/// A Live Activity's flags as given (`--live-activity`, `--timestamp`, `--content-state`, …):
/// text, read into the payload's builder when the run is set up.
public struct LiveActivityInput: Sendable {
    /// start, update or end.
    public var event: String
    public var timestamp: String?
    public var staleDate: String?
    public var dismissalDate: String?
    public var relevanceScore: String?
    /// JSON, or `@FILE`.
    public var contentState: String?
    public var attributesType: String?
    /// JSON, or `@FILE`.
    public var attributes: String?
    public var inputPushToken = false
    public var inputPushChannel: String?
    public var title: String?
    public var body: String?
    public var sound: String?

    /// How the program names the settings (pushctl: its flags), for the names its checks show.
    public var naming = SettingNaming.plain

    public init(event: String) { self.event = event }

    /// The payload's fields (the numbers checked here, the rules by the lint).
    public func builder() throws(InputError) -> LiveActivityBuilder {
        let eventName = event
        guard let event = LiveActivityEvent(rawValue: eventName) else {
            throw InputError(OptionConflict.liveActivityEvent(shown: OutsideText.display(eventName)), kind: .usage)
        }
        func unix(_ text: String?, _ setting: Setting) throws(InputError) -> Int64? {
            guard let text else { return nil }
            guard let value = Int64(text), value >= 0, value < 253_402_300_800 else {
                throw InputError(RunInputProblem.notUnixSeconds(setting: setting, given: text, example: WallClock.now() + 3600))
            }
            return value
        }
        var b = LiveActivityBuilder(event: event)
        b.timestamp = try unix(self.timestamp, .timestamp)
        b.staleDate = try unix(self.staleDate, .staleDate)
        b.dismissalDate = try unix(self.dismissalDate, .dismissalDate)
        if let relevanceScore = self.relevanceScore {
            guard let value = Double(relevanceScore), value.isFinite else {
                throw InputError(RunInputProblem.relevanceScoreNotNumber(shown: OutsideText.display(relevanceScore)))
            }
            b.relevanceScore = value
        }
        b.contentState = try self.contentState.map { text throws(InputError) in try Self.jsonArgument(text, setting: .contentState) }
        b.attributes = try self.attributes.map { text throws(InputError) in try Self.jsonArgument(text, setting: .attributes) }
        b.attributesType = self.attributesType
        b.inputPushToken = self.inputPushToken
        b.inputPushChannel = try self.inputPushChannel.map { id throws(InputError) in try BroadcastAPI.channelID(id, name: naming.name(.inputPushChannel)) }
        b.title = self.title
        b.body = self.body
        b.sound = self.sound
        return b
    }

    /// JSON given inline, or `@FILE` to read it from a file.
    public static func jsonArgument(_ text: String, setting: Setting) throws(InputError) -> JSONValue {
        let bytes: [UInt8]
        let file: String?
        if text.hasPrefix("@") {
            let path = String(text.dropFirst())
            bytes = try InputFiles.read(path, what: .settingFile(setting))
            file = path
        } else {
            bytes = Array(text.utf8)
            file = nil
        }
        guard bytes.count <= 64 * 1024 else {
            throw InputError(RunInputProblem.jsonArgumentTooLarge(setting, file: file))
        }
        do {
            return try JSONValue.parse(bytes)
        } catch {
            throw InputError(RunInputProblem.jsonArgumentNotJSON(setting, file: file, JSONDiagnosis(bytes: bytes, error: error)))
        }
    }
}
