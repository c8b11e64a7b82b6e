import PushCore
import PushEngine
import Testing

/// Where a send goes, by the settings' one rule: a flag wins, else its variable; a flag for either
/// of the "where" settings silences the other's variable.
@Suite struct DestinationSettingTests {
    static let variables: EnvironmentVariables = ["PUSHCTL_ENV": "production", "PUSHCTL_ENDPOINT": "https://gateway.example:8443"]

    @Test("--sandbox and --production arrive as an environment, win over PUSHCTL_ENV and silence PUSHCTL_ENDPOINT")
    func environmentFlag() throws {
        let sandbox = SettingValues(environmentFlag: .sandbox, environment: Self.variables)
        #expect(try Destination.resolve(sandbox, service: .push) == .apple(.sandbox))
        #expect(sandbox.given(.environment)?.source == .flag)
        #expect(sandbox.value(.endpoint) == nil, "a where-flag silences the other where-variable")
        let production = SettingValues(environmentFlag: .production, environment: [:])
        #expect(try Destination.resolve(production, service: .push).baseURL == "https://api.push.apple.com")
    }

    @Test("without a flag, the variables decide: an endpoint first; a PUSHCTL_ENV that is neither environment is said with its name")
    func variables() throws {
        #expect(try Destination.resolve(SettingValues(environment: Self.variables), service: .push).baseURL == "https://gateway.example:8443")
        #expect(try Destination.resolve(SettingValues(environment: ["PUSHCTL_ENV": "production"]), service: .push) == .apple(.production))
        let wrong = try #require(throws: InputError.self) {
            try Destination.resolve(SettingValues(environment: ["PUSHCTL_ENV": "prod"]), service: .push)
        }
        #expect(wrong.kind == .usage)
        #expect(try Destination.resolve(SettingValues(environment: [:]), service: .push) == .apple(.sandbox))
    }
}
