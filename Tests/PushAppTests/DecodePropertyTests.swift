import ChildProcess
import Foundation
import PushCore
import Testing

@testable import PushApp

/// The checker against Swift itself: random `ContentState` declarations and random JSON, each
/// declaration compiled (all in one program, compiled once) and each payload decoded by
/// Foundation's real `JSONDecoder`. The checker's verdict (decodes or not) must be the same on
/// every pair.
@Suite struct DecodePropertyTests {
    static let declarations = 1000
    static let payloadsEach = 3

    @Test("1,000 random ContentState declarations × 3 payloads: the checker and JSONDecoder agree on every pair", .enabled(if: Swiftc.path != nil))
    func agreesWithJSONDecoder() async throws {
        var random = SplitMix64(seed: 48)
        var source = "import Foundation\n\n"
        var payloads: [(Int, String)] = []
        var generator = DeclarationGenerator()
        for i in 0..<Self.declarations {
            let root = generator.declaration(namespace: "C\(i)", random: &random)
            source += generator.take()
            for _ in 0..<Self.payloadsEach { payloads.append((i, JSONGenerator.value(for: root, random: &random))) }
        }
        source += Self.main(count: Self.declarations)

        let folder = try AppFolder()
        try folder.write("Generated.swift", source)
        try folder.write("payloads.txt", payloads.map { "\($0.0)\t\($0.1)" }.joined(separator: "\n") + "\n")
        let program = folder.path + "/decode"
        let generated = folder.path + "/Generated.swift"
        let compile = try await Swiftc.offThePool { try Swiftc.run([generated, "-Onone", "-o", program]) }
        try #require(compile.status == 0, "swiftc failed: \(compile.output.suffix(3000))")
        let input = folder.path + "/payloads.txt"
        let run = try await Swiftc.offThePool { try Swiftc.run([input], executable: program) }
        let verdicts = run.output.split(separator: "\n").map { $0 == "ok" }
        try #require(verdicts.count == payloads.count, "the program printed \(verdicts.count) verdicts: \(run.output.suffix(500))")
        // Both verdicts, many times each: the generator makes near misses, not only noise.
        #expect(verdicts.filter { $0 }.count > payloads.count / 5 && verdicts.filter { !$0 }.count > payloads.count / 5)

        let index = TypeIndex(SwiftDeclarations.merge(SwiftDeclarations.read(source, file: "Generated.swift")))
        var disagreements: [String] = []
        for ((i, json), decoded) in zip(payloads, verdicts) {
            let value = try JSONValue.parse(json)
            let findings = DecodeCheck.check(value, as: "C\(i).ContentState", index: index, path: "")
            let checked = !findings.contains { $0.severity == .willFail }
            #expect(!findings.contains { if case .unchecked = $0.problem { return true } else { return false } }, "C\(i) unchecked")
            if checked != decoded { disagreements.append("C\(i) \(json): JSONDecoder \(decoded ? "decodes" : "fails"), checker \(findings.map(\.problem))") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, first: \(disagreements.prefix(5).joined(separator: "\n"))")
    }

    static func main(count: Int) -> String {
        var text = """
            func decodes<T: Decodable>(_ type: T.Type, _ data: Data) -> Bool { (try? JSONDecoder().decode(type, from: data)) != nil }
            func check(_ i: Int, _ data: Data) -> Bool {
                switch i {

            """
        for i in 0..<count { text += "    case \(i): return decodes(C\(i).ContentState.self, data)\n" }
        text += """
                default: return false
                }
            }
            let lines = try! String(contentsOfFile: CommandLine.arguments[1], encoding: .utf8).split(separator: "\\n")
            for line in lines {
                let parts = line.split(separator: "\\t", maxSplits: 1)
                print(check(Int(parts[0])!, Data(parts[1].utf8)) ? "ok" : "fail")
            }

            """
        return text
    }
}

/// A type in a generated declaration, and how JSON for it is made.
indirect enum GeneratedType {
    case string, int, int8, uint8, double, bool, date, url, uuid
    case stringEnum(name: String, values: [String])
    case intEnum(name: String, values: [Int])
    case optional(GeneratedType)
    case array(GeneratedType)
    case stringDictionary(GeneratedType)
    case intDictionary(GeneratedType)
    case structure(name: String, properties: [GeneratedProperty])

    var swift: String {
        switch self {
        case .string: return "String"
        case .int: return "Int"
        case .int8: return "Int8"
        case .uint8: return "UInt8"
        case .double: return "Double"
        case .bool: return "Bool"
        case .date: return "Date"
        case .url: return "URL"
        case .uuid: return "UUID"
        case .stringEnum(let name, _), .intEnum(let name, _), .structure(let name, _): return name
        case .optional(let wrapped): return "\(wrapped.swift)?"
        case .array(let element): return "[\(element.swift)]"
        case .stringDictionary(let value): return "[String: \(value.swift)]"
        case .intDictionary(let value): return "[Int: \(value.swift)]"
        }
    }

    /// A literal default value, when the type has an easy one.
    var defaultValue: String? {
        switch self {
        case .string: return "\"\""
        case .int, .int8, .uint8, .double: return "0"
        case .bool: return "false"
        case .optional: return "nil"
        case .array: return "[]"
        case .stringDictionary, .intDictionary: return "[:]"
        default: return nil
        }
    }
}

struct GeneratedProperty {
    let name: String
    let type: GeneratedType
    /// The key JSON carries it under, or nil when it is not decoded.
    let key: String?
}

/// Writes random declarations: a `ContentState` per namespace, with nested structs and enums.
struct DeclarationGenerator {
    private var text = ""
    private var counter = 0

    mutating func take() -> String {
        defer { text = "" }
        return text
    }

    mutating func declaration(namespace: String, random: inout SplitMix64) -> GeneratedType {
        var body = ""
        let root = structure(named: "ContentState", depth: 0, into: &body, random: &random)
        text += "enum \(namespace) {\n\(body)}\n\n"
        return root
    }

    private mutating func structure(named name: String, depth: Int, into body: inout String, random: inout SplitMix64) -> GeneratedType {
        var properties: [GeneratedProperty] = []
        var lines: [String] = []
        var keys: [String] = []
        let useCodingKeys = random.chance(35)
        for p in 0..<Int.random(in: 1...5, using: &random) {
            let type = self.type(depth: depth, into: &body, random: &random)
            let propertyName = "p\(p)\(random.pick(["", "Value", "_x"]))"
            let isLet = random.chance(30)
            let initial = random.chance(30) ? type.defaultValue : nil
            var key: String? = propertyName
            if isLet && initial != nil { key = nil }
            if useCodingKeys, key != nil {
                if initial != nil && random.chance(30) {
                    key = nil
                } else {
                    let renamed = random.chance(50) ? "k_\(p)" : propertyName
                    keys.append(renamed == propertyName ? "case \(propertyName)" : "case \(propertyName) = \"\(renamed)\"")
                    key = renamed
                }
            }
            lines.append("    \(isLet ? "let" : "var") \(propertyName): \(type.swift)\(initial.map { " = \($0)" } ?? "")")
            properties.append(GeneratedProperty(name: propertyName, type: type, key: key))
        }
        if useCodingKeys {
            lines.append("    enum CodingKeys: String, CodingKey {\(keys.isEmpty ? "" : "\n        " + keys.joined(separator: "\n        "))\n    }")
            if keys.isEmpty { lines[lines.count - 1] = "    enum CodingKeys: CodingKey {}" }
        }
        body += "struct \(name): Codable {\n\(lines.joined(separator: "\n"))\n}\n"
        return .structure(name: name, properties: properties)
    }

    private mutating func type(depth: Int, into body: inout String, random: inout SplitMix64) -> GeneratedType {
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<10: return .string
        case 10..<18: return .int
        case 18..<21: return .int8
        case 21..<24: return .uint8
        case 24..<31: return .double
        case 31..<37: return .bool
        case 37..<43: return .date
        case 43..<47: return .url
        case 47..<51: return .uuid
        case 51..<56:
            counter += 1
            let values = Array(["a", "b-c", "D", "ok", "x y"].shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
            body += "enum E\(counter): String, Codable { \(values.enumerated().map { "case c\($0.offset) = \"\($0.element)\"" }.joined(separator: "; ")) }\n"
            return .stringEnum(name: "E\(counter)", values: values)
        case 56..<60:
            counter += 1
            let first = Int.random(in: -2...3, using: &random)
            body += "enum E\(counter): Int, Codable { case c0 = \(first), c1, c2 }\n"
            return .intEnum(name: "E\(counter)", values: [first, first + 1, first + 2])
        case 60..<75 where depth < 3: return .optional(type(depth: depth + 1, into: &body, random: &random))
        case 75..<84 where depth < 3: return .array(type(depth: depth + 1, into: &body, random: &random))
        case 84..<88 where depth < 3: return .stringDictionary(type(depth: depth + 1, into: &body, random: &random))
        case 88..<91 where depth < 3: return .intDictionary(type(depth: depth + 1, into: &body, random: &random))
        case 91..<100 where depth < 2:
            counter += 1
            return structure(named: "S\(counter)", depth: depth + 1, into: &body, random: &random)
        default: return .string
        }
    }
}

/// Random JSON text for a generated type: mostly what it needs, sometimes a slip of the kind
/// senders make (a missing key, null, a wrong type, a number with a point, a value out of range).
enum JSONGenerator {
    static func value(for type: GeneratedType, random: inout SplitMix64) -> String {
        if random.chance(4) { return wrong(random: &random) }
        switch type {
        case .string: return random.pick(["\"hi\"", "\"\"", "\"ünï\""])
        case .int: return random.pick(["0", "7", "-3", "2.0", "1e2", "1.5", "9223372036854775807", "9223372036854775808", "-0"])
        case .int8: return random.pick(["5", "-128", "127", "128", "-129", "3.0"])
        case .uint8: return random.pick(["0", "255", "256", "-1", "7"])
        case .double: return random.pick(["0", "1.5", "-2", "1e300", "3"])
        case .bool: return random.pick(["true", "false", "0", "1"])
        case .date: return random.pick(["0", "786000000", "1764300000", "1.5", "\"2025-11-28T00:00:00Z\""])
        case .url: return random.pick(["\"https://example.com/a\"", "\"\"", "\"a b\"", "\"/relative\""])
        case .uuid: return random.pick(["\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\"", "\"e621e1f8-c36c-495a-93fc-0c247a3e6e5f\"", "\"nope\"", "\"\""])
        case .stringEnum(_, let values): return random.chance(80) ? "\"\(random.pick(values))\"" : random.pick(["\"zz\"", "\"A\"", "1"])
        case .intEnum(_, let values): return random.chance(80) ? "\(random.pick(values))" : random.pick(["99", "\"1\"", "\(values[0]).0"])
        case .optional(let wrapped): return random.chance(25) ? "null" : value(for: wrapped, random: &random)
        case .array(let element):
            let count = Int.random(in: 0...3, using: &random)
            return "[" + (0..<count).map { _ in value(for: element, random: &random) }.joined(separator: ",") + "]"
        case .stringDictionary(let element):
            let count = Int.random(in: 0...2, using: &random)
            return "{" + (0..<count).map { "\"k\($0)\":" + value(for: element, random: &random) }.joined(separator: ",") + "}"
        case .intDictionary(let element):
            let keys = Array(["1", "-2", "01", "x", "3"].shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)))
            return "{" + keys.map { "\"\($0)\":" + value(for: element, random: &random) }.joined(separator: ",") + "}"
        case .structure(_, let properties):
            var members: [String] = []
            for property in properties {
                let key = property.key ?? property.name
                if case .optional = property.type, random.chance(20) { continue }
                if random.chance(5) { continue }
                // Now and then the property's own name where CodingKeys renames it.
                let written = property.key != nil && property.key != property.name && random.chance(10) ? property.name : key
                if members.contains(where: { $0.hasPrefix("\"\(written)\":") }) { continue }
                members.append("\"\(written)\":" + value(for: property.type, random: &random))
            }
            if random.chance(10) { members.append("\"extra\":1") }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    static func wrong(random: inout SplitMix64) -> String { random.pick(["null", "\"s\"", "4", "[]", "{}", "true"]) }
}

/// The Swift compiler the tests run, and a program's output.
enum Swiftc {
    static let path: String? = {
        let environment = ProcessInfo.processInfo.environment
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/opt/swift/usr/bin", "/usr/bin"]
        return folders.map { $0 + "/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// `work` on a thread of its own, awaited: the compile takes minutes on a busy machine, and a
    /// test that blocked one of Swift's few cooperative threads that long would starve the suite's
    /// async tests (the live view's timing tests missed their deadlines so in CI).
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    static func run(_ arguments: [String], executable: String? = nil) throws -> (status: Int32, output: String) {
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: executable ?? path!)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
