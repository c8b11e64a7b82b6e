import PushCore
import PushFiles
import PushSystem

/// `--journal PATH [--resume [--skip-in-doubt]]`.
public struct JournalSetting: Sendable {
    public var path: String
    public var resume: Bool
    public var skipInDoubt: Bool
    /// Each displayed notification gets a collapse id derived from the run (`NotificationIDs`);
    /// `--no-collapse-id` turns it off (the derived apns-id stays).
    public var collapseIDs: Bool

    public init(path: String, resume: Bool = false, skipInDoubt: Bool = false, collapseIDs: Bool = true) {
        self.path = path
        self.resume = resume
        self.skipInDoubt = skipInDoubt
        self.collapseIDs = collapseIDs
    }
}

enum JournalFile {
    /// Whether a file exists there with something in it (an empty file is a journal not yet begun).
    static func hasContent(_ path: String) -> Bool {
        (FileSystem.status(path)?.size ?? 0) > 0
    }
}
