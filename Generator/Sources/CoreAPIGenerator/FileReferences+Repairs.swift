import Foundation
import Yams

/// The few departures from the specification that published documents have and that would make the whole
/// document unreadable, each mended (and reported with its place) while the tree is walked for references.
extension FileReferences {
    /// What to do with one key of a mapping.
    enum Repair {
        case keep
        case drop
        case replace(Node)
    }

    /// Schema keywords that OpenAPI reads as a 64-bit integer in an integer schema.
    private static let bounds: Set<String> = ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"]

    /// The repair of the value of keyword `name`, at `pointer` in `file`.
    mutating func repair(_ name: String, _ value: Node, in file: URL, pointer: [String], schema: Bool) -> Repair {
        let location = self.location(file, pointer)
        if ["description", "summary", "title"].contains(name), value.scalar == nil {
            changed = true
            report(location, "a \(name) that is not text is left out")
            return .drop
        }
        if schema, name.hasPrefix("exclusiveM"), let text = value.scalar?.string,
            ["true", "false"].contains(text) != isVersion30
        {
            // 3.0 writes `exclusiveMinimum: true` beside `minimum`; 3.1 writes the bound itself.
            changed = true
            report(location, "`\(name): \(text)` is not of this document's OpenAPI version; left out")
            return .drop
        }
        if schema, Self.bounds.contains(name), let text = value.scalar?.string, Int(text) == nil,
            text.range(of: #"^-?[0-9]+$"#, options: .regularExpression) != nil
        {
            changed = true
            let nearest = text.hasPrefix("-") ? Int.min : Int.max
            report(location, "\(text) is outside 64-bit integers; \(nearest) is used")
            return .replace(Node("\(nearest)"))
        }
        return .keep
    }

    /// `root` with an `info` that has a `version`, and without `info` URLs that are not URLs.
    mutating func repairedInfo(_ root: Node) -> Node {
        guard case .mapping(let document) = root, case .mapping(var info)? = Self.value(document, "info") else {
            return root
        }
        if Self.value(info, "version") == nil {
            changed = true
            report("#/info", "the document has no version; an empty one is used")
            info = Self.mapped(info, setting: Node("version"), to: Self.quoted(""))
        }
        if let terms = Self.value(info, "termsOfService")?.string,
            URL(string: terms, encodingInvalidCharacters: false) == nil
        {
            changed = true
            report("#/info/termsOfService", "`\(terms)` is not a URL; left out")
            info = Node.Mapping(
                info.filter { $0.key.string != "termsOfService" }.map { ($0.key, $0.value) },
                info.tag,
                info.style,
                info.mark
            )
        }
        return .mapping(Self.mapped(document, setting: Node("info"), to: .mapping(info)))
    }
}
