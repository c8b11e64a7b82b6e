import PushCore
import Testing

@testable import PushApp

@Suite struct AppTextTests {
    private func app(_ strings: [String: [String: LocalizedFormat]], region: String = "en") -> AppProfile {
        var profile = AppProfile(root: "/app")
        profile.developmentRegion = region
        profile.strings = strings
        return profile
    }

    @Test func aFormatIsFilledInTurnAndByPosition() {
        let profile = app([
            "en": ["READY": LocalizedFormat(formats: ["%@, your order %@ is ready (100%%)"])],
            "es": ["READY": LocalizedFormat(formats: ["%2$@ está listo, %1$@"])],
        ])
        #expect(profile.text(key: "READY", arguments: ["Ana", "#12"], locale: nil) == "Ana, your order #12 is ready (100%)")
        #expect(profile.text(key: "READY", arguments: ["Ana", "#12"], locale: "es-MX") == "#12 está listo, Ana")
        #expect(profile.text(key: "MISSING", arguments: [], locale: nil) == nil)
    }

    @Test func aMissingArgumentShowsAsNull() {
        let profile = app(["en": ["HI": LocalizedFormat(formats: ["Hi %@ and %d"])]])
        #expect(profile.text(key: "HI", arguments: ["Ana"], locale: "en") == "Hi Ana and (null)")
    }

    @Test func aPluralVariableTakesItsLastFormFilledWithItsArgument() {
        let variable = PluralVariable(name: "items", position: nil, specifier: "d", forms: ["%d item", "%d items"])
        let profile = app(["en": ["CART": LocalizedFormat(formats: ["%#@items@ in %@"], pluralVaries: true, variables: [variable])]])
        #expect(profile.text(key: "CART", arguments: ["3", "your cart"], locale: nil) == "3 items in your cart")
    }

    @Test func aStrayPercentIsShownAsWritten() {
        let profile = app(["en": ["ODD": LocalizedFormat(formats: ["%@ at 100%"])]])
        #expect(profile.text(key: "ODD", arguments: ["Sale"], locale: nil) == "Sale at 100%")
    }
}
