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
            throw InputError(
                Words(
                    "\(Setting.liveActivity) is start, update or end; got '\(OutsideText.display(eventName))'",
                    es: "\(Setting.liveActivity) es start, update o end; se recibió '\(OutsideText.display(eventName))'"), kind: .usage)
        }
        func unix(_ text: String?, _ setting: Setting) throws(InputError) -> Int64? {
            guard let text else { return nil }
            guard let value = Int64(text), value >= 0, value < 253_402_300_800 else {
                throw InputError(
                    Words(
                        "\(setting) must be UNIX seconds (a whole number, e.g. \(WallClock.now() + 3600)); got '\(OutsideText.display(text))'",
                        es:
                            "\(setting) debe ir en segundos UNIX (un número entero, p. ej. \(WallClock.now() + 3600)); se recibió '\(OutsideText.display(text))'"
                    ),
                    hint: DateGiven.hint(text, name: naming.name(setting)))
            }
            return value
        }
        var b = LiveActivityBuilder(event: event)
        b.timestamp = try unix(self.timestamp, .timestamp)
        b.staleDate = try unix(self.staleDate, .staleDate)
        b.dismissalDate = try unix(self.dismissalDate, .dismissalDate)
        if let relevanceScore = self.relevanceScore {
            guard let value = Double(relevanceScore), value.isFinite else {
                throw InputError(
                    Words(
                        "\(Setting.relevanceScore) must be a number; got '\(OutsideText.display(relevanceScore))'",
                        es: "\(Setting.relevanceScore) debe ser un número; se recibió '\(OutsideText.display(relevanceScore))'"))
            }
            b.relevanceScore = value
        }
        b.contentState = try self.contentState.map { text throws(InputError) in try Self.jsonArgument(text, setting: .contentState, naming: naming) }
        b.attributes = try self.attributes.map { text throws(InputError) in try Self.jsonArgument(text, setting: .attributes, naming: naming) }
        b.attributesType = self.attributesType
        b.inputPushToken = self.inputPushToken
        b.inputPushChannel = try self.inputPushChannel.map { id throws(InputError) in try BroadcastAPI.channelID(id, name: naming.name(.inputPushChannel)) }
        b.title = self.title
        b.body = self.body
        b.sound = self.sound
        return b
    }

    /// JSON given inline, or `@FILE` to read it from a file.
    public static func jsonArgument(_ text: String, setting: Setting, naming: SettingNaming = .plain) throws(InputError) -> JSONValue {
        let flag = naming.name(setting)
        let bytes: [UInt8]
        let source: String
        if text.hasPrefix("@") {
            let path = String(text.dropFirst())
            bytes = try InputFiles.read(path, what: .settingFile(setting))
            source = "\(flag) file '\(OutsideText.display(path))'"
        } else {
            bytes = Array(text.utf8)
            source = flag
        }
        guard bytes.count <= 64 * 1024 else {
            throw InputError(
                Words("\(source) is over 64 KB; a whole push is at most 4 KB", es: "\(source) pasa de 64 KB; una notificación entera ocupa como mucho 4 KB"))
        }
        do {
            return try JSONValue.parse(bytes)
        } catch {
            let diagnosis = JSONDiagnosis(bytes: bytes, error: error)
            throw InputError(
                Words("\(source) is not valid JSON: ", es: "\(source) no es JSON válido: ") + diagnosis.words,
                hint: diagnosis.named
                    ? nil
                    : Words(
                        "give a JSON object, e.g. '{\"score\":3}', or @FILE to read one",
                        es: "da un objeto JSON, p. ej. '{\"score\":3}', o @ARCHIVO para leerlo de un archivo"))
        }
    }
}
