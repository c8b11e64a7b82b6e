import ArgumentParser

struct MockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mock", abstract: "Run a strict local APNs over TLS + HTTP/2.")
    func run() async throws {}
}
