public import ArgumentParser

/// A command line written only as `--name value` and `--flag`, the way scripts and READMEs write
/// a single push, read without swift-argument-parser's reflection (for `send`, 26.8 M of a single
/// push's 66.4 M instructions, by callgrind).
///
/// It reads only what it is sure the parser would read the same way. Anything else leaves the line
/// not `complete`, and the caller gives it to the parser, whose messages and help stay the only ones:
/// a short or `=` form, `--` or a lone `-`, a value that starts with `-`, a word no one read, an
/// option or a flag given twice, a flag given a value, an option left without one, or a value its
/// type does not take.
public struct PlainLongOptions {
    private var names: [Substring] = []
    private var values: [String?] = []
    private var read: [Bool] = []
    private var refusedSoFar = false

    /// The words after the command's name.
    public init(_ arguments: ArraySlice<String>) {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            guard Self.isLongName(word) else {
                refusedSoFar = true
                return
            }
            index += 1
            var value: String? = nil
            if index < arguments.endIndex, arguments[index].utf8.first != UInt8(ascii: "-") {
                value = arguments[index]
                index += 1
            }
            names.append(word.dropFirst(2))
            values.append(value)
            read.append(false)
        }
    }

    /// `--` and a letter, digit or `-` after it, no `=`.
    private static func isLongName(_ word: String) -> Bool {
        let bytes = word.utf8
        guard bytes.count > 2, bytes.starts(with: "--".utf8) else { return false }
        return bytes.dropFirst(2).allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
        }
    }

    /// True when every word was read, each the way the parser reads it.
    public var complete: Bool { !refusedSoFar && !read.contains(false) }

    /// Where `name` was given (without its `--`).
    private mutating func positions(_ name: String) -> [Int] {
        var found: [Int] = []
        for index in names.indices where names[index] == name[...] {
            read[index] = true
            found.append(index)
        }
        return found
    }

    /// `--name`: false when absent.
    public mutating func flag(_ name: String) -> Bool {
        let found = positions(name)
        guard let first = found.first else { return false }
        if found.count > 1 || values[first] != nil { refusedSoFar = true }
        return true
    }

    /// `--name VALUE` given once, as its type reads it: nil when absent.
    public mutating func option<Value: ExpressibleByArgument>(_ name: String, as type: Value.Type = Value.self) -> Value? {
        let found = positions(name)
        guard let first = found.first else { return nil }
        guard found.count == 1, let text = values[first], let value = Value(argument: text) else {
            refusedSoFar = true
            return nil
        }
        return value
    }

    /// `--name VALUE` given once, else the declared default.
    public mutating func option<Value: ExpressibleByArgument>(_ name: String, default: Value) -> Value {
        option(name, as: Value.self) ?? `default`
    }

    /// `--name VALUE`, repeatable: every value in the order given.
    public mutating func options(_ name: String) -> [String] {
        positions(name).compactMap { index in
            if values[index] == nil { refusedSoFar = true }
            return values[index]
        }
    }
}
