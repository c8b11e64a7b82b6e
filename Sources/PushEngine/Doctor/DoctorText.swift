public import PushCore
public import PushWords

extension DoctorReport {
    /// The report as text: a row a check (its mark from `marks`, its name, what was found in a
    /// column of its own, wrapped to `width`), the hint under what did not pass, then the verdict;
    /// in `language`.
    public func lines(width: Int?, marks: [DoctorCheck.Status: String], language: Language, naming: SettingNaming = .plain) -> [String] {
        let report = self
        let names = report.checks.map { $0.shownName.text(language, naming: naming) }
        // Wide enough for Apple's longest host and port (api.sandbox.push.apple.com:2197); a longer
        // name (an --endpoint's) gets a row of its own, so every found text starts in one column.
        let column = min(names.map(\.count).max() ?? 0, 31)
        var lines: [String] = []
        for (check, shownName) in zip(report.checks, names) {
            let painted = marks[check.status] ?? ""
            let name = shownName.count < column ? shownName + String(repeating: " ", count: column - shownName.count) : shownName
            // The found text wraps in its own column; a narrow screen gets it under the name.
            let indent = column + 4
            let room = (width ?? Int.max / 2) - indent
            let found = TextLayout.wrap(check.found.text(language, naming: naming), width: room >= 30 ? room : (width ?? 80) - 4)
            if room >= 30 && shownName.count > column {
                lines.append("\(painted) \(shownName)")
                lines += found.map { String(repeating: " ", count: indent) + $0 }
            } else if room >= 30 {
                lines.append("\(painted) \(name)  \(found.first ?? "")")
                lines += found.dropFirst().map { String(repeating: " ", count: indent) + $0 }
            } else {
                lines.append("\(painted) \(shownName)")
                lines += found.map { "    " + $0 }
            }
            if check.status != .pass, let hint = check.hint {
                let label = check.status == .fail ? Words("do: ", es: "haz: ") : Words("to check it: ", es: "para comprobarlo: ")
                lines += TextLayout.wrap(
                    "    \(label.text(language, naming: naming))\(hint.text(language, naming: naming))", width: width ?? Int.max / 2, hangingIndent: 4)
            }
        }
        lines.append(report.line.text(language, naming: naming))
        return lines
    }
}
