import ArgumentParser

@main
struct Pushctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pushctl",
        abstract: "An APNs provider on the command line: signs ES256 JWTs and sends push notifications over HTTP/2.",
        version: PushctlVersion.current,
        subcommands: [SendCommand.self, JWTCommand.self, KeyCommand.self, MockCommand.self, DemoCommand.self]
    )
}

enum PushctlVersion {
    static let current = "0.1.0"
}
