import Yams

/// Schemas that write object keywords beside their `allOf` (`{allOf: [{$ref: Base}], required: [name],
/// properties: {name: …}}`), folded into one more part of the `allOf` before the document is decoded.
///
/// OpenAPIKit reads a schema with `allOf` as the composition alone and drops its other keywords, so the
/// sibling properties would be lost without a word; as a part of their own, they join the composed model.
enum AllOfSiblings {
    /// The object keywords that move into the new part.
    static let objectKeywords: Set<String> = ["properties", "required", "additionalProperties"]

    /// The tree of `text` with every such schema folded, or `nil` when it has none (or is not YAML).
    static func folded(_ text: String) -> Node? {
        // The decoder's own resolver, which reads only merge keys: with the default one, a key such as `200`
        // would be an integer, and a response code looked up as text would be missing.
        let resolver = Resolver.basic.appending(.merge)
        guard text.contains("allOf"), let root = try? Yams.compose(yaml: text, resolver) else { return nil }
        var changed = false
        let result = fold(root, changed: &changed)
        return changed ? result : nil
    }

    /// `node` with its mappings folded, depth first.
    static func fold(_ node: Node, changed: inout Bool) -> Node {
        switch node {
        case .mapping(let mapping):
            var pairs = mapping.map { ($0.key, fold($0.value, changed: &changed)) }
            if let folded = foldedPairs(pairs) {
                pairs = folded
                changed = true
            }
            return .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark))
        case .sequence(let sequence):
            let nodes = sequence.map { fold($0, changed: &changed) }
            return .sequence(Node.Sequence(nodes, sequence.tag, sequence.style, sequence.mark))
        default:
            return node
        }
    }

    /// The pairs of a schema with an `allOf` list and object keywords beside it, those keywords moved into a
    /// last part `{type: object, …}`; `nil` for any other mapping.
    private static func foldedPairs(_ pairs: [(Node, Node)]) -> [(Node, Node)]? {
        guard let index = pairs.firstIndex(where: { $0.0.string == "allOf" }),
            case .sequence(let parts) = pairs[index].1
        else { return nil }
        let isMoved = { (pair: (Node, Node)) -> Bool in
            guard let key = pair.0.string, objectKeywords.contains(key) else { return false }
            // `required` is the list of a schema's required properties, never the Boolean of a parameter.
            return key != "required" || pair.1.sequence != nil
        }
        let moved = pairs.filter(isMoved)
        guard !moved.isEmpty else { return nil }
        let part = Node.Mapping([(Node("type"), Node("object"))] + moved)
        let allOf = Node.Sequence(Array(parts) + [.mapping(part)], parts.tag, parts.style, parts.mark)
        return pairs.filter { !isMoved($0) }.map { pair in
            pair.0.string == "allOf" ? (pair.0, .sequence(allOf)) : pair
        }
    }
}
