import PushCore

/// The banner as a screen or a projector shows it.
public enum BannerLayout {
    /// On a terminal (or with COLUMNS) the banner fits the width, as a projector shows it: prose
    /// wraps at word boundaries; a command breaks between its arguments with a backslash, so that
    /// it still pastes as one command, and its comment goes on the line above.
    public static func fitted(_ text: String, width: Int?) -> String {
        // At least 20 columns, as TextLayout.wrap: COLUMNS=1 must not leave pieces of nothing.
        guard let width = width.map({ max(20, $0) }) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
            let line = String(line)
            guard TextLayout.columns(line) > width else { return [line] }
            if line.hasPrefix("  pushctl ") || line.hasPrefix("  cp ") { return commandLines(line, width: width) }
            // "label: curl …": the command on a line of its own, whole.
            if let colon = line.range(of: ": curl ") {
                let label = String(line[..<colon.lowerBound]) + ":"
                return TextLayout.wrap(label, width: width, hangingIndent: 2)
                    + commandLines("    " + line[line.index(colon.lowerBound, offsetBy: 2)...], width: width)
            }
            // A fingerprint: broken after a colon, half on each line.
            if line.hasPrefix("    "), line.dropFirst(4).allSatisfy({ $0.isHexDigit || $0 == ":" }) {
                let pairs = line.dropFirst(4).split(separator: ":")
                let half = pairs.count / 2
                return ["    " + pairs[..<half].joined(separator: ":") + ":", "    " + pairs[half...].joined(separator: ":")]
            }
            return TextLayout.wrap(line, width: width, hangingIndent: 2)
        }.joined(separator: "\n")
    }

    static func commandLines(_ line: String, width: Int) -> [String] {
        let width = max(20, width)
        var command = Substring(line)
        var out: [String] = []
        if let comment = line.range(of: "   # ") {
            command = line[..<comment.lowerBound]
            out = TextLayout.wrap("  # " + line[comment.upperBound...], width: width, hangingIndent: 2)
        }
        // A flag stays with its value.
        let words = command.split(separator: " ").map(String.init)
        var groups: [String] = []
        var index = 0
        while index < words.count {
            if words[index].hasPrefix("--"), index + 1 < words.count, !words[index + 1].hasPrefix("--") {
                groups.append(words[index] + " " + words[index + 1])
                index += 2
            } else {
                groups.append(words[index])
                index += 1
            }
        }
        // A group too wide for a continuation line goes as flag and value apart.
        let lead = String(command.prefix { $0 == " " })
        let indent = lead + "    "
        groups = groups.flatMap { group -> [String] in
            guard indent.count + group.count + 2 > width, let space = group.firstIndex(of: " ") else { return [group] }
            return [String(group[..<space]), String(group[group.index(after: space)...])]
        }
        var current = ""
        for group in groups {
            if current.isEmpty {
                current = lead + group
            } else if current.count + 1 + group.count + 2 <= width {
                current += " " + group
            } else if indent.count + group.count + 2 <= width {
                out.append(current + " \\")
                current = indent + group
            } else {
                // Wider than any line (a device token on a narrow screen): broken inside the word
                // with backslash-newline, which the shell removes, the pieces from column 0.
                out.append(current + " \\")
                var rest = Substring(group)
                while rest.count + 2 > width {
                    out.append(rest.prefix(width - 1) + "\\")
                    rest = rest.dropFirst(width - 1)
                }
                current = String(rest)
            }
        }
        out.append(current)
        return out
    }

}
