/// A language asked for that pushctl does not speak, or none given: refused before anything is
/// said (exit 64). The catalog lists the languages pushctl speaks.
public enum LanguageProblem: InputProblem {
    /// The language setting ends the command line, without its value.
    case settingWithoutValue
    /// The language setting names a language pushctl does not speak (as given).
    case settingUnknown(given: String)
    /// `PUSHCTL_LANG` names a language pushctl does not speak (as given).
    case variableUnknown(given: String)
}
