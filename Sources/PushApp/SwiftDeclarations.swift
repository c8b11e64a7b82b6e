import SwiftParser
import SwiftSyntax

/// A type the app declares, as far as its synthesized `Decodable` needs: stored properties,
/// `CodingKeys`, raw values, and anything that makes the checker stand back (a custom decoder, a
/// property wrapper, a macro). Extensions are merged into the type they extend.
public struct SwiftTypeDeclaration: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case structure, enumeration, classType, alias }

    /// The qualified name: `MatchAttributes.ContentState`.
    public let name: String
    public var kind: Kind
    /// The file it was read from, relative to the app folder.
    public var file: String
    /// The names after the colon, on the declaration and its extensions.
    public var inherited: [String] = []
    public var properties: [StoredProperty] = []
    /// `CodingKeys`' cases: the property and the key it reads. nil when the type has none.
    public var codingKeys: [CodingKeyCase]?
    /// An enum's case names, in order (beside `rawValues`).
    public var caseNames: [String] = []
    /// An enum's raw value type (`String`, `Int`), and each case's raw value.
    public var rawType: String?
    public var rawValues: [String] = []
    /// An enum case with associated values (not a raw-value enum).
    public var hasAssociatedValues = false
    public var customDecoder = false
    public var generic = false
    /// A macro attached to the type or expanded in its body, or a property wrapper on a property.
    public var macro: String?
    public var wrapper: String?
    /// For a typealias: what it names.
    public var aliased: TypeReference?

    /// The scope names inside it resolve from: `["MatchAttributes", "ContentState"]`.
    public var scope: [String] { name.split(separator: ".").map(String.init) }
}

/// A stored instance property.
public struct StoredProperty: Sendable, Equatable {
    public let name: String
    /// nil when the declaration gives no type and its value is no literal the checker can read.
    public let type: TypeReference?
    public let isLet: Bool
    public let hasInitialValue: Bool

    /// Whether the synthesized decoder reads it: a `let` with a value is never decoded.
    public var isDecoded: Bool { !(isLet && hasInitialValue) }
}

/// A type as written in a declaration.
public indirect enum TypeReference: Sendable, Equatable, CustomStringConvertible {
    /// `Foo`, `Outer.Inner`, `Swift.Int`: the names in order.
    case named([String])
    case optional(TypeReference)
    case array(TypeReference)
    case dictionary(key: TypeReference, value: TypeReference)
    /// Something the checker does not read (a tuple, a function, `some P`, a generic of the app's).
    case unsupported(String)

    public var description: String {
        switch self {
        case .named(let parts): return parts.joined(separator: ".")
        case .optional(let wrapped): return "\(wrapped)?"
        case .array(let element): return "[\(element)]"
        case .dictionary(let key, let value): return "[\(key): \(value)]"
        case .unsupported(let text): return text
        }
    }
}

/// Reads Swift source with swift-syntax's parser into the types it declares.
public enum SwiftDeclarations {
    /// Attributes that change nothing about decoding; any other attribute on a type is a macro,
    /// and any other on a property is a property wrapper (or a macro): both are left unchecked.
    static let neutralAttributes: Set<String> = [
        "available", "objc", "nonobjc", "MainActor", "preconcurrency", "usableFromInline", "inlinable", "frozen", "_spi",
        "backDeployed", "discardableResult", "warn_unqualified_access", "IBOutlet", "IBInspectable", "GKInspectable", "Sendable",
        "unchecked", "retroactive", "dynamicMemberLookup", "propertyWrapper", "resultBuilder", "_implementationOnly", "exclusivity",
        "nonexhaustive",
    ]

    /// How deep brackets may nest in a file the parser is given: swift-syntax bounds its parse,
    /// but its look-ahead after a `[` (an array type or literal?) recurses and backtracks, its time
    /// doubling with each `[` inside another and its stack growing with any nesting. Declarations
    /// nest a few levels. Counted everywhere, strings and comments too: it can only over-count, and
    /// then a file is passed over, never a hang or a crash.
    public static let nestingLimit = 128
    public static let squareBracketLimit = 6

    public static func nestsTooDeep(_ bytes: [UInt8]) -> Bool {
        var depth = 0
        var square = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "["):
                square += 1
                depth += 1
            case UInt8(ascii: "("), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "]"):
                square = max(0, square - 1)
                depth = max(0, depth - 1)
            case UInt8(ascii: ")"), UInt8(ascii: "}"): depth = max(0, depth - 1)
            default: continue
            }
            if depth > nestingLimit || square > squareBracketLimit { return true }
        }
        return false
    }

    /// Every type declared in `source` (file named `file`); extensions come back as pieces that
    /// `merge` folds into the types they extend.
    public static func read(_ source: String, file: String) -> [SwiftTypeDeclaration] {
        let tree = Parser.parse(source: source)
        var reader = Reader(file: file)
        for item in tree.statements { reader.statement(item.item, scope: []) }
        return reader.found
    }

    /// Merges extensions into their types; the first declaration of a name wins (files in sorted order).
    public static func merge(_ all: [SwiftTypeDeclaration]) -> [String: SwiftTypeDeclaration] {
        var types: [String: SwiftTypeDeclaration] = [:]
        var extensions: [SwiftTypeDeclaration] = []
        for declaration in all {
            if declaration.file.hasPrefix(Reader.extensionMark) {
                extensions.append(declaration)
            } else if types[declaration.name] == nil {
                types[declaration.name] = declaration
            }
        }
        for piece in extensions {
            // An extension names its type as written (`Foo.Bar`); resolve it like any reference.
            guard let target = TypeIndex(types).resolve(piece.scope, from: []), var type = types[target] else { continue }
            type.inherited += piece.inherited
            type.customDecoder = type.customDecoder || piece.customDecoder
            if type.codingKeys == nil { type.codingKeys = piece.codingKeys }
            type.macro = type.macro ?? piece.macro
            types[target] = type
        }
        // A CodingKeys enum declared as a nested type (any extension) belongs to its parent.
        for (name, declaration) in types where declaration.kind == .enumeration && name.hasSuffix(".CodingKeys") {
            let parent = String(name.dropLast(".CodingKeys".count))
            guard var owner = types[parent], owner.codingKeys == nil else { continue }
            owner.codingKeys = declaration.codingKeyCases
            types[parent] = owner
        }
        return types
    }
}

/// A case of `CodingKeys`: the property it stands for and the JSON key it reads.
public struct CodingKeyCase: Sendable, Equatable {
    public let property: String
    public let key: String
}

extension SwiftTypeDeclaration {
    /// An enum's cases as coding keys: the case name, and its String raw value when it has one.
    var codingKeyCases: [CodingKeyCase] {
        zip(caseNames, rawValues).map { CodingKeyCase(property: $0, key: rawType == "String" ? $1 : $0) }
    }
}

private struct Reader {
    static let extensionMark = "extension:"
    let file: String
    var found: [SwiftTypeDeclaration] = []

    mutating func statement(_ item: CodeBlockItemSyntax.Item, scope: [String]) {
        if case .decl(let decl) = item { declaration(decl, scope: scope) }
    }

    mutating func declaration(_ decl: DeclSyntax, scope: [String]) {
        if let s = decl.as(StructDeclSyntax.self) {
            nominal(
                .structure, name: s.name.text, attributes: s.attributes, inheritance: s.inheritanceClause, generic: s.genericParameterClause != nil,
                members: s.memberBlock, scope: scope)
        } else if let e = decl.as(EnumDeclSyntax.self) {
            nominal(
                .enumeration, name: e.name.text, attributes: e.attributes, inheritance: e.inheritanceClause, generic: e.genericParameterClause != nil,
                members: e.memberBlock, scope: scope)
        } else if let c = decl.as(ClassDeclSyntax.self) {
            nominal(
                .classType, name: c.name.text, attributes: c.attributes, inheritance: c.inheritanceClause, generic: c.genericParameterClause != nil,
                members: c.memberBlock, scope: scope)
        } else if let a = decl.as(ActorDeclSyntax.self) {
            nominal(
                .classType, name: a.name.text, attributes: a.attributes, inheritance: a.inheritanceClause, generic: true, members: a.memberBlock, scope: scope)
        } else if let x = decl.as(ExtensionDeclSyntax.self) {
            guard case .named(let parts) = Reader.reference(x.extendedType) else { return }
            var piece = SwiftTypeDeclaration(name: parts.joined(separator: "."), kind: .structure, file: Reader.extensionMark + file)
            piece.inherited = Reader.inherited(x.inheritanceClause)
            piece.macro = Reader.macro(in: x.attributes)
            members(x.memberBlock, into: &piece, scope: parts)
            found.append(piece)
        } else if let t = decl.as(TypeAliasDeclSyntax.self) {
            var alias = SwiftTypeDeclaration(name: (scope + [t.name.text]).joined(separator: "."), kind: .alias, file: file)
            alias.aliased = Reader.reference(t.initializer.value)
            alias.generic = t.genericParameterClause != nil
            found.append(alias)
        } else if let i = decl.as(IfConfigDeclSyntax.self) {
            // Both sides of an #if: the checker cannot know which the app builds.
            for clause in i.clauses {
                if case .statements(let items) = clause.elements { for item in items { statement(item.item, scope: scope) } }
                if case .decls(let list) = clause.elements { for member in list { declaration(member.decl, scope: scope) } }
            }
        }
    }

    mutating func nominal(
        _ kind: SwiftTypeDeclaration.Kind, name: String, attributes: AttributeListSyntax, inheritance: InheritanceClauseSyntax?, generic: Bool,
        members block: MemberBlockSyntax, scope: [String]
    ) {
        let path = scope + [name]
        var type = SwiftTypeDeclaration(name: path.joined(separator: "."), kind: kind, file: file)
        type.inherited = Reader.inherited(inheritance)
        type.generic = generic
        type.macro = Reader.macro(in: attributes)
        let inherited = type.inherited.map { $0.split(separator: ".").last.map(String.init) ?? $0 }
        if kind == .enumeration, let first = inherited.first,
            ["String", "Int", "Double", "Float", "Character"].contains(first) || first.hasPrefix("Int") || first.hasPrefix("UInt")
        {
            type.rawType = first
        }
        members(block, into: &type, scope: path)
        found.append(type)
    }

    mutating func members(_ block: MemberBlockSyntax, into type: inout SwiftTypeDeclaration, scope: [String]) {
        memberList(block.members, into: &type, scope: scope)
    }

    mutating func memberList(_ list: MemberBlockItemListSyntax, into type: inout SwiftTypeDeclaration, scope: [String]) {
        var nextInteger: Int64 = 0
        for member in list {
            let decl = member.decl
            if let variable = decl.as(VariableDeclSyntax.self) {
                storedProperties(variable, into: &type)
            } else if let initializer = decl.as(InitializerDeclSyntax.self) {
                let parameters = initializer.signature.parameterClause.parameters
                if parameters.count == 1, let only = parameters.first, only.firstName.text == "from" { type.customDecoder = true }
            } else if let cases = decl.as(EnumCaseDeclSyntax.self) {
                for element in cases.elements {
                    if element.parameterClause != nil { type.hasAssociatedValues = true }
                    type.caseNames.append(element.name.text)
                    let raw = element.rawValue.map { Reader.literal($0.value) } ?? nil
                    if type.rawType == "String" || type.rawType == nil {
                        type.rawValues.append(raw ?? element.name.text)
                    } else if let raw, let value = Int64(raw) {
                        type.rawValues.append(raw)
                        nextInteger = value &+ 1
                    } else if let raw {
                        type.rawValues.append(raw)
                    } else {
                        type.rawValues.append(String(nextInteger))
                        nextInteger &+= 1
                    }
                }
            } else if let expansion = decl.as(MacroExpansionDeclSyntax.self) {
                type.macro = type.macro ?? expansion.macroName.text
            } else if let i = decl.as(IfConfigDeclSyntax.self) {
                for clause in i.clauses {
                    if case .decls(let inner) = clause.elements { memberList(inner, into: &type, scope: scope) }
                }
            } else {
                declaration(decl, scope: scope)
            }
        }
    }

    mutating func storedProperties(_ variable: VariableDeclSyntax, into type: inout SwiftTypeDeclaration) {
        if variable.modifiers.contains(where: { ["static", "class", "lazy"].contains($0.name.text) }) { return }
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        let wrapper = Reader.macro(in: variable.attributes)
        // `var a, b: Int`: a binding without a type takes the next one's.
        var types: [TypeReference?] = []
        var following: TypeReference?
        for binding in variable.bindings.reversed() {
            if let annotation = binding.typeAnnotation { following = Reader.reference(annotation.type) }
            types.insert(binding.typeAnnotation == nil && binding.initializer != nil ? nil : following, at: 0)
        }
        for (binding, declared) in zip(variable.bindings, types) {
            if let accessors = binding.accessorBlock, !Reader.onlyObservers(accessors) { continue }
            guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
            if let wrapper {
                type.wrapper = type.wrapper ?? wrapper
                continue
            }
            let inferred = declared ?? binding.initializer.flatMap { Reader.literalType($0.value) }
            type.properties.append(
                StoredProperty(name: pattern.identifier.text.trimmingBackticks, type: inferred, isLet: isLet, hasInitialValue: binding.initializer != nil))
        }
    }

    static func onlyObservers(_ block: AccessorBlockSyntax) -> Bool {
        guard case .accessors(let list) = block.accessors else { return false }
        return list.allSatisfy { [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
    }

    static func inherited(_ clause: InheritanceClauseSyntax?) -> [String] {
        (clause?.inheritedTypes ?? []).map { $0.type.trimmedDescription }
    }

    /// The first attribute that is not neutral: a macro or a property wrapper's name.
    static func macro(in attributes: AttributeListSyntax) -> String? {
        for element in attributes {
            guard case .attribute(let attribute) = element else { continue }
            let name = attribute.attributeName.trimmedDescription
            if !SwiftDeclarations.neutralAttributes.contains(name) { return name }
        }
        return nil
    }

    static func reference(_ type: TypeSyntax) -> TypeReference {
        if let optional = type.as(OptionalTypeSyntax.self) { return .optional(reference(optional.wrappedType)) }
        if let implicit = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return .optional(reference(implicit.wrappedType)) }
        if let array = type.as(ArrayTypeSyntax.self) { return .array(reference(array.element)) }
        if let dictionary = type.as(DictionaryTypeSyntax.self) { return .dictionary(key: reference(dictionary.key), value: reference(dictionary.value)) }
        if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.firstName == nil {
            return reference(only.type)
        }
        if let attributed = type.as(AttributedTypeSyntax.self), attributed.attributes.isEmpty { return reference(attributed.baseType) }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            return generic(identifier.name.text, identifier.genericArgumentClause, base: [])
        }
        if let member = type.as(MemberTypeSyntax.self), case .named(let base) = reference(member.baseType) {
            return generic(member.name.text, member.genericArgumentClause, base: base)
        }
        return .unsupported(type.trimmedDescription)
    }

    static func generic(_ name: String, _ clause: GenericArgumentClauseSyntax?, base: [String]) -> TypeReference {
        guard let clause else { return .named(base + [name]) }
        let arguments: [TypeReference] = clause.arguments.map {
            if case .type(let type) = $0.argument { return reference(type) }
            return .unsupported($0.trimmedDescription)
        }
        let standard = base.isEmpty || base == ["Swift"]
        switch (name, arguments.count) {
        case ("Optional", 1) where standard: return .optional(arguments[0])
        case ("Array", 1) where standard, ("Set", 1) where standard, ("ContiguousArray", 1) where standard: return .array(arguments[0])
        case ("Dictionary", 2) where standard: return .dictionary(key: arguments[0], value: arguments[1])
        default: return .unsupported((base + [name]).joined(separator: ".") + clause.trimmedDescription)
        }
    }

    /// A raw value as written: a string literal's text, an integer or a number (negative too).
    static func literal(_ expression: ExprSyntax) -> String? {
        if let string = expression.as(StringLiteralExprSyntax.self) {
            var text = ""
            for segment in string.segments {
                guard let piece = segment.as(StringSegmentSyntax.self) else { return nil }
                text += piece.content.text
            }
            return text.contains("\\") ? nil : text
        }
        if let integer = expression.as(IntegerLiteralExprSyntax.self) { return integer.literal.text.filter { $0 != "_" } }
        if let float = expression.as(FloatLiteralExprSyntax.self) { return float.literal.text.filter { $0 != "_" } }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-", let rest = literal(prefix.expression) { return "-" + rest }
        return nil
    }

    /// The type Swift infers for a literal initial value (`var count = 0` is an `Int`).
    static func literalType(_ expression: ExprSyntax) -> TypeReference? {
        if expression.is(StringLiteralExprSyntax.self) { return .named(["String"]) }
        if expression.is(IntegerLiteralExprSyntax.self) { return .named(["Int"]) }
        if expression.is(FloatLiteralExprSyntax.self) { return .named(["Double"]) }
        if expression.is(BooleanLiteralExprSyntax.self) { return .named(["Bool"]) }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" { return literalType(prefix.expression) }
        return nil
    }
}

extension String {
    var trimmingBackticks: String { hasPrefix("`") && hasSuffix("`") && count > 1 ? String(dropFirst().dropLast()) : self }
}
