/// The environment variables a run reads, by name.
///
/// The process's own are read when asked (`getenv`), not copied whole into a dictionary at
/// start: a single push reads a dozen of the thirty to a hundred a shell or a CI runner sets.
/// A test gives its own as a dictionary literal.
public struct EnvironmentVariables: Sendable, ExpressibleByDictionaryLiteral {
    private let read: @Sendable (String) -> String?
    private let list: @Sendable ([UInt8]) -> [String]

    /// Variables read through `value` (nil: not set); `names` lists those whose name starts with
    /// the given ASCII bytes in any case (`EnvironmentVariables.hasPrefix`).
    public init(value: @escaping @Sendable (String) -> String?, names: @escaping @Sendable (_ prefix: [UInt8]) -> [String]) {
        read = value
        list = names
    }

    /// These variables and no others (the last of a name repeated wins).
    public init(dictionaryLiteral elements: (String, String)...) {
        let pairs = elements
        self.init(
            value: { name in pairs.last(where: { $0.0 == name })?.1 },
            names: { prefix in pairs.map(\.0).filter { EnvironmentVariables.hasPrefix($0.utf8, prefix) } })
    }

    /// The value of `name`, or nil when it is not set (an empty value is returned as it is).
    public subscript(name: String) -> String? { read(name) }

    /// The names of the variables set that start with `prefix` (ASCII, compared in any case).
    public func names(startingWith prefix: String) -> [String] { list(Array(prefix.utf8)) }

    /// Whether `name` starts with `prefix`, ASCII letters compared in any case.
    public static func hasPrefix(_ name: some Sequence<UInt8>, _ prefix: [UInt8]) -> Bool {
        var index = 0
        for byte in name {
            guard index < prefix.count else { return true }
            guard byte & 0xDF == prefix[index] & 0xDF else { return false }
            index += 1
        }
        return index == prefix.count
    }
}
