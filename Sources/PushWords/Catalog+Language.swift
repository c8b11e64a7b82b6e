public import PushCore

// A language pushctl does not speak, or none given: the languages it speaks, listed.

extension LanguageProblem: WordedProblem {
    public var words: Words {
        switch self {
        case .settingWithoutValue:
            return Words("\(Setting.language) needs a language: \(Language.names)", es: "\(Setting.language) necesita un idioma: \(Language.names)")
        case .settingUnknown(let given):
            let shown = OutsideText.display(given, limit: 20)
            return Words(
                "\(Setting.language) '\(shown)' is not a language pushctl speaks; choose one of: \(Language.names)",
                es: "pushctl no habla el idioma '\(shown)' de \(Setting.language); elige uno de estos: \(Language.names)")
        case .variableUnknown(let given):
            let shown = OutsideText.display(given, limit: 20)
            return Words(
                "PUSHCTL_LANG is '\(shown)', not a language pushctl speaks; choose one of: \(Language.names)",
                es: "PUSHCTL_LANG vale '\(shown)', un idioma que pushctl no habla; elige uno de estos: \(Language.names)")
        }
    }
}
