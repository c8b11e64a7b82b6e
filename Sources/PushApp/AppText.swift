import PushCore

extension AppProfile {
    /// The words the phone shows for `key` with `arguments` in `locale` (as `locale(_:)` matches
    /// it): the app's format with each specifier filled. Nil when the app has no such key there:
    /// the phone then shows the key itself.
    ///
    /// A preview, not Foundation's formatter: `%@` and numbers take the argument as given, and a
    /// plural takes its last form (`other` in a `.stringsdict`) whatever the number.
    public func text(key: String, arguments: [String], locale requested: String?) -> String? {
        guard let format = strings[locale(requested)]?[key], let first = format.formats.first else { return nil }
        return LocalizedFormat.fill(first, arguments: arguments, variables: format.variables)
    }
}

extension LocalizedFormat {
    /// `format` with each specifier replaced by its argument (positional or in turn), `%%` by `%`,
    /// and a `%#@name@` variable by its form, itself filled with the variable's argument. An
    /// argument the format asks for and loc-args lack shows as `(null)`, as on the phone.
    static func fill(_ format: String, arguments: [String], variables: [PluralVariable], depth: Int = 0) -> String {
        let specifiers = FormatSpecifier.all(in: format)
        var out = ""
        var next = 0
        var rest = Substring(format)
        var nextArgument = 1
        func argument(_ position: Int?) -> String {
            let place = position ?? nextArgument
            if position == nil { nextArgument += 1 }
            return arguments.indices.contains(place - 1) ? arguments[place - 1] : "(null)"
        }
        while let percent = rest.firstIndex(of: "%") {
            out += rest[..<percent]
            rest = rest[percent...]
            if rest.hasPrefix("%%") {
                out += "%"
                rest = rest.dropFirst(2)
                continue
            }
            guard next < specifiers.count, rest.hasPrefix(specifiers[next].text) else {
                // Not a specifier the phone fills: shown as written.
                out += "%"
                rest = rest.dropFirst()
                continue
            }
            let specifier = specifiers[next]
            next += 1
            rest = rest.dropFirst(specifier.text.count)
            if let name = specifier.variable {
                let variable = variables.first { $0.name == name }
                let value = argument(variable?.position ?? specifier.position)
                guard let form = variable?.forms.last, depth < 4 else {
                    out += value
                    continue
                }
                // The form's own specifier reads the variable's argument.
                out += fill(form, arguments: [value], variables: variables, depth: depth + 1)
            } else {
                out += argument(specifier.position)
            }
        }
        out += rest
        return out
    }
}
