import PushCore
import PushEngine
import PushWords
import Testing

/// Words keep a setting until they are said, and whoever says them names it: no process-wide
/// table decides (issue 46, item 3). A library caller, for whom no program installed anything,
/// reads the plain names; pushctl's console reads its flags, from the same value.
@Suite struct SettingNamingTests {
    /// pushctl's spellings of the settings these tests use (its own table is the executables').
    static let flags = SettingNaming([.topic: "--topic", .noLint: "--no-lint", .keyFile: "--key-file", .key: "PUSHCTL_KEY", .liveActivity: "--live-activity"])

    static let words = Words(
        "add \(Setting.topic), or send it anyway with \(Setting.noLint)", es: "añade \(Setting.topic), o envíala igualmente con \(Setting.noLint)")

    @Test("the same words name plain settings to a library caller and flags to pushctl's console, in both languages")
    func plainAndFlags() {
        #expect(Self.words.text(.en) == "add apns-topic, or send it anyway with PushSpec.lint = false")
        #expect(Self.words.text(.es) == "añade apns-topic, o envíala igualmente con PushSpec.lint = false")
        #expect(Self.words.text(.en, naming: Self.flags) == "add --topic, or send it anyway with --no-lint")
        #expect(Self.words.text(.es, naming: Self.flags) == "añade --topic, o envíala igualmente con --no-lint")
        #expect(Self.words.text(Voice(.es, naming: Self.flags)) == Self.words.text(.es, naming: Self.flags))
        #expect(Self.words.en == Self.words.text(.en) && Self.words.es == Self.words.text(.es))
        #expect("\(Setting.topic)" == "apns-topic", "a setting in a plain string is its plain name")
    }

    @Test("words within words, joined and added keep their settings until said")
    func nested() {
        let outer = Words("error: \(Self.words)", es: "error: \(Self.words)") + Words.named(.topic)
        #expect(outer.text(.en, naming: Self.flags) == "error: add --topic, or send it anyway with --no-lint--topic")
        #expect(outer.text(.es) == "error: añade apns-topic, o envíala igualmente con PushSpec.lint = falseapns-topic")
        let list = Words.joined([Words.named(.topic), Words.named(.noLint)], separator: Words(" or ", es: " o "))
        #expect(list.text(.es, naming: Self.flags) == "--topic o --no-lint")
        #expect(list.text(.en) == "apns-topic or PushSpec.lint = false")
    }

    @Test("a setting a variable may give names the variable beside it, unless the program names it so")
    func either() {
        #expect(Setting.keyFile.either("or").text(.en, naming: Self.flags) == "--key-file (or PUSHCTL_KEY_FILE)")
        #expect(Setting.keyFile.either("o").text(.es) == "the key file (o PUSHCTL_KEY_FILE)")
        #expect(Setting.key.either("or").text(.en, naming: Self.flags) == "PUSHCTL_KEY")
        #expect(Setting.key.either("or").text(.en) == "the key's PEM (or PUSHCTL_KEY)")
    }

    @Test("equal words are equal however they were built, and a setting is not its name's text")
    func equality() {
        #expect(Words(verbatim: "a ") + Words(verbatim: "b") == Words(verbatim: "a b"))
        #expect(Words("a \(Setting.topic)", es: "a \(Setting.topic)") == Words(verbatim: "a ") + Words.named(.topic))
        #expect(Words("a \(Setting.topic)", es: "a \(Setting.topic)") != Words(verbatim: "a apns-topic"))
        #expect(Set([Self.words, Self.words]).count == 1)
    }

    @Test("a library's error names the plain setting; told pushctl's naming, the flag")
    func libraryError() throws {
        let error = try #require(throws: InputError.self) { try LiveActivityInput(event: "begin").builder() }
        #expect(error.text(.en) == "aps.event is start, update or end; got 'begin'")
        #expect(error.text(.es, naming: Self.flags) == "--live-activity es start, update o end; se recibió 'begin'")
    }

    @Test("pushctl says its flags, as it did when a table was installed at start")
    func pushctlSaysFlags() throws {
        for (language, expected) in [
            ("en", "--live-activity is start, update or end; got 'begin'"), ("es", "--live-activity es start, update o end; se recibió 'begin'"),
        ] {
            let result = try CLI.pushctl([
                "send", "--lang", language, "--device-token", String(repeating: "ab", count: 32), "--topic", "com.example.app", "--live-activity", "begin",
                "--jwt", "x",
            ])
            #expect(result.status == 64 && result.stderr.contains(expected), "\(result.stderr)")
        }
    }
}
