/// How a notification's text would sit on the phone's lock screen and banner: the header (the
/// title, or the app's name when there is no title), one line of subtitle, the body's first lines,
/// and where the phone cuts the rest with an ellipsis.
///
/// An approximation of iOS's layout, not a rendering: text is measured in characters (East Asian
/// wide characters and emoji count two), not in points of San Francisco at the user's text size, on
/// the `Screen` assumed. What it is good for is seeing which words fall past the cut before a phone
/// shows it.
public struct NotificationPreview: Sendable, Equatable {
    /// The screen assumed, and how many lines of each part the collapsed notification shows.
    public struct Screen: Sendable, Equatable {
        /// The device named when the preview says what it assumes ("iPhone 16, 393 points wide").
        public let device: String
        public let points: Int
        /// Characters of body text that fit on one line of the notification (default text size).
        public let columns: Int
        public let titleLines: Int
        public let subtitleLines: Int
        public let bodyLines: Int

        public init(device: String, points: Int, columns: Int, titleLines: Int = 1, subtitleLines: Int = 1, bodyLines: Int = 4) {
            self.device = device
            self.points = points
            self.columns = max(10, columns)
            self.titleLines = max(1, titleLines)
            self.subtitleLines = max(1, subtitleLines)
            self.bodyLines = max(1, bodyLines)
        }

        /// A 6.1-inch iPhone (iPhone 16, 393 points): the notification's text column, beside the
        /// app's icon, holds about 38 characters of 15-point text; the collapsed notification shows
        /// one line of title, one of subtitle and four of body.
        public static let iPhone = Screen(device: "iPhone 16", points: 393, columns: 38)
    }

    /// A part of the notification as the phone shows it: the lines seen, and whether text was cut.
    public struct Part: Sendable, Equatable {
        public let lines: [String]
        /// The words past the cut, bounded for showing (empty when nothing was cut).
        public let hidden: String

        public var isCut: Bool { !hidden.isEmpty }
    }

    public let screen: Screen
    /// The title, or the app's name when the notification has no title; nil when there is neither.
    public let header: Part?
    /// True when `header` is the app's name standing in for a missing title.
    public let headerIsAppName: Bool
    public let subtitle: Part?
    public let body: Part?

    /// Lays out `title`, `subtitle` and `body` (already localized: the words the phone would show)
    /// for `screen`. Empty strings show nothing, as on the phone.
    public init(title: String?, subtitle: String?, body: String?, appName: String?, screen: Screen = .iPhone) {
        self.screen = screen
        let title = title.flatMap { $0.isEmpty ? nil : $0 }
        let appName = appName.flatMap { $0.isEmpty ? nil : $0 }
        headerIsAppName = title == nil && appName != nil
        header = (title ?? appName).map { NotificationPreview.lay($0, columns: screen.columns, lines: screen.titleLines) }
        self.subtitle = subtitle.flatMap { $0.isEmpty ? nil : NotificationPreview.lay($0, columns: screen.columns, lines: screen.subtitleLines) }
        self.body = body.flatMap { $0.isEmpty ? nil : NotificationPreview.lay($0, columns: screen.columns, lines: screen.bodyLines) }
    }

    /// True when any part is cut on the phone.
    public var isCut: Bool { [header, subtitle, body].contains { $0?.isCut == true } }

    /// The preview drawn as a card `screen.columns + 4` columns wide, for a terminal that shows
    /// Unicode: header, subtitle and body, each line padded to the card's width.
    public var card: [String] {
        let inner = screen.columns
        var lines = ["╭" + String(repeating: "─", count: inner + 2) + "╮"]
        for line in textLines {
            let pad = max(0, inner - TextLayout.columns(line))
            lines.append("│ " + line + String(repeating: " ", count: pad) + " │")
        }
        lines.append("╰" + String(repeating: "─", count: inner + 2) + "╯")
        return lines
    }

    /// The preview as plain lines for a log: no drawing characters, each part's lines as the
    /// phone breaks them.
    public var textLines: [String] {
        var lines: [String] = []
        for part in [header, subtitle, body] {
            if let part { lines += part.lines }
        }
        return lines
    }

    /// At most this many characters of cut text are kept for showing.
    public static let hiddenLimit = 120

    /// `text` broken into at most `lines` lines of `columns`, the last ending in "…" when more
    /// followed; the phone breaks at spaces and at line breaks, and inside a word wider than a line.
    static func lay(_ text: String, columns: Int, lines limit: Int) -> Part {
        // The phone shows no control characters; a tab reads as a space.
        let cleaned = String(
            String.UnicodeScalarView(
                text.unicodeScalars.compactMap { scalar -> Unicode.Scalar? in
                    if scalar == "\n" { return scalar }
                    if scalar == "\t" { return " " }
                    return scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) ? nil : scalar
                }))
        var broken: [String] = []
        for paragraph in cleaned.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = paragraph.drop { $0 == " " }
            broken += trimmed.isEmpty ? [""] : TextLayout.wrap(String(trimmed), width: columns)
        }
        // Trailing empty lines take no room on the phone.
        while broken.count > 1, broken.last?.isEmpty == true { broken.removeLast() }
        guard broken.count > limit else { return Part(lines: broken, hidden: "") }
        var shown = Array(broken.prefix(limit))
        var last = shown[limit - 1]
        var cutFromLast = ""
        while !last.isEmpty, TextLayout.columns(last) + 1 > columns { cutFromLast.insert(last.removeLast(), at: cutFromLast.startIndex) }
        while last.last == " " { last.removeLast() }
        shown[limit - 1] = last + "…"
        let rest = ([cutFromLast] + broken.dropFirst(limit)).filter { !$0.isEmpty }.joined(separator: " ")
        let hidden = rest.count > hiddenLimit ? String(rest.prefix(hiddenLimit - 1)) + "…" : rest
        return Part(lines: shown, hidden: hidden)
    }
}

extension NotificationPreview {
    /// The preview of a payload's `aps.alert`: a string is the body; an object gives `title`,
    /// `subtitle` and `body`, each replaced by its `*loc-key` when one is given, as the phone does.
    /// `localized` says a key in the app's language with its arguments; when it has no answer (no
    /// app to ask, or a key the app lacks) the key itself is shown, as the phone shows a key its
    /// app does not have. Nil when the payload has no alert text.
    public init?(
        payload: JSONValue, appName: String?, screen: Screen = .iPhone,
        localized: (_ key: String, _ arguments: [String]) -> String? = { _, _ in nil }
    ) {
        guard let text = NotificationPreview.alertText(payload: payload, localized: localized) else { return nil }
        self.init(title: text.title, subtitle: text.subtitle, body: text.body, appName: appName, screen: screen)
    }

    /// The words of a payload's `aps.alert` as the phone takes them (see `init(payload:…)`):
    /// title, subtitle and body, each a loc-key's words when one is given; nil when there is no
    /// alert text.
    public static func alertText(
        payload: JSONValue, localized: (_ key: String, _ arguments: [String]) -> String? = { _, _ in nil }
    ) -> (title: String?, subtitle: String?, body: String?)? {
        guard let alert = payload["aps"]?["alert"] else { return nil }
        func part(_ plain: String, key: String, arguments: String) -> String? {
            if let key = alert[key]?.stringValue {
                var given: [JSONValue] = []
                if case .array(let elements)? = alert[arguments] { given = elements }
                return localized(key, given.map { $0.stringValue ?? $0.compact }) ?? key
            }
            return alert[plain]?.stringValue
        }
        let text: (title: String?, subtitle: String?, body: String?)
        switch alert {
        case .string(let body):
            text = (nil, nil, body)
        case .object:
            text = (
                part("title", key: "title-loc-key", arguments: "title-loc-args"), part("subtitle", key: "subtitle-loc-key", arguments: "subtitle-loc-args"),
                part("body", key: "loc-key", arguments: "loc-args")
            )
        default:
            return nil
        }
        guard [text.title, text.subtitle, text.body].contains(where: { $0?.isEmpty == false }) else { return nil }
        return text
    }
}
