public import PushCore
public import PushWords

/// How a notification's preview is said to a person: a heading that names the screen assumed
/// (the layout is an approximation, and says so), then the card on a terminal or plain indented
/// lines for a log, then what the phone cuts.
public enum PhonePreviewText {
    /// `preview` for a terminal (`card`: drawn with box characters) or for a log (plain lines).
    public static func lines(_ preview: NotificationPreview, card: Bool) -> [Words] {
        let screen = preview.screen
        var out = [
            Words(
                "On the phone (approximate: \(screen.device), \(screen.points) points wide):",
                es: "En el teléfono (aproximado: \(screen.device), \(screen.points) puntos de ancho):")
        ]
        out += (card ? preview.card : preview.textLines).map { Words(verbatim: "  " + $0) }
        for part in [preview.header, preview.subtitle, preview.body] {
            guard let part, part.isCut else { continue }
            out.append(Words("  cut by the phone: “\(part.hidden)”", es: "  el teléfono recorta: «\(part.hidden)»"))
        }
        return out
    }
}
