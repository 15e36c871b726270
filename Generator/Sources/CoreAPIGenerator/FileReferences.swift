import Foundation
import Yams

/// Brings what a document's `$ref`s to other local files point to into the document itself, before it is
/// decoded, so the generator only ever sees references within one document.
///
/// A schema from another file becomes a schema of `#/components/schemas`, named after the last token of its
/// pointer (`other.yaml#/components/schemas/Pet` gives `Pet`) or, for a whole file, after the file
/// (`schemas/pet.yaml` gives `pet`); a name already taken gets the file's name in front, then a number. The
/// same target referenced from anywhere is brought in once, under one name, so references between files,
/// cycles included, end as references between schemas of the one document. Anything else (a path item, a
/// parameter, a response, a request body, …) is written in place of its reference, and so is a path item
/// referenced within the document, which the generator does not follow. A `#/…` reference inside
/// another file points into that file and is followed the same way. A remote reference, or one whose file
/// or place cannot be read, is left as it is (the generator reports it where it is used) and reported here,
/// where the reference is, with the reason.
///
/// This works on the parsed YAML tree rather than through OpenAPIKit's external dereferencing: that one
/// decodes each file as a typed 3.1 value (a 3.0 file's `nullable` would be lost), reads `#/…` inside a
/// loaded file as the main document's, names components from the URL alone, stops at the first file it
/// cannot load without saying where it was referenced, runs asynchronously, and needs a package trait that
/// makes every clean build slower (OpenAPIKit's three modules took 70 s instead of 18 s in a clean debug build
/// on two cores).
struct FileReferences {
    /// A place in a file: the file, and a JSON pointer (`""` for the whole file).
    struct Target: Hashable {
        var file: URL
        var pointer: String
    }

    let main: URL
    private(set) var diagnostics: [Diagnostic] = []
    /// Whether the tree was changed: only then is it written out again.
    var changed = false
    /// Whether the main document is OpenAPI 3.0, whose schemas differ from 3.1's in a few keywords.
    var isVersion30 = false
    var files: [URL: Result<Node, LoadFailure>] = [:]
    private var schemaNames: [Target: String] = [:]
    /// Component schemas of the main document that are only a reference to another file: their content
    /// is written in their place.
    private var aliases: [Target: String] = [:]
    private var takenNames: Set<String> = []
    private var pending: [(Target, String)] = []
    private var inlining: Set<Target> = []

    struct LoadFailure: Error {
        let reason: String
    }

    /// Schema keywords whose value is data, never a schema to follow.
    private static let schemaData: Set<String> = ["example", "examples", "default", "enum", "const"]
    /// Schema keywords whose value maps names to schemas.
    private static let schemaMaps: Set<String> = [
        "properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
    ]
    /// Keys of OpenAPI objects whose value maps names (not keywords) to objects.
    private static let nameMaps: Set<String> = [
        "paths", "webhooks", "responses", "content", "headers", "links", "callbacks", "examples", "encoding",
        "securitySchemes", "requestBodies", "parameters", "pathItems", "schemas", "variables",
    ]

    /// Resolves the references to other files in `root`, the parsed document at `url`.
    static func resolve(_ root: Node, at url: URL) -> (root: Node, diagnostics: [Diagnostic], changed: Bool) {
        var resolver = FileReferences(main: url.standardizedFileURL)
        let root = resolver.run(root)
        return (root, resolver.diagnostics, resolver.changed)
    }

    private mutating func run(_ root: Node) -> Node {
        files[main] = .success(root)
        isVersion30 = root.mapping.flatMap { Self.value($0, "openapi") }?.string?.hasPrefix("3.0") == true
        let schemas = root.mapping.flatMap { Self.value($0, "components") }?.mapping.flatMap {
            Self.value($0, "schemas")
        }
        for (key, value) in schemas?.mapping ?? [:] {
            guard let name = key.string else { continue }
            takenNames.insert(SwiftNames.typeName(name))
            guard let reference = value.mapping.flatMap({ Self.value($0, "$ref") })?.string,
                let target = localTarget(reference, in: main), target.file != main, aliases[target] == nil
            else { continue }
            aliases[target] = name
            schemaNames[target] = name
        }
        var result = repairedInfo(walk(root, in: main, pointer: [], position: [], schema: false))
        var added: [(Node, Node)] = []
        while !pending.isEmpty {
            let (target, name) = pending.removeFirst()
            guard case .success(let content) = node(at: target) else { continue }
            let tokens = Self.tokens(target.pointer)
            added.append(
                (Self.quoted(name), walk(content, in: target.file, pointer: tokens, position: [], schema: true))
            )
        }
        if !added.isEmpty { result = Self.adding(added, to: result) }
        return result
    }

    // MARK: Walking the tree

    private mutating func walk(
        _ node: Node,
        in file: URL,
        pointer: [String],
        position: [String],
        schema: Bool
    )
        -> Node
    {
        switch node {
        case .mapping(let mapping):
            if let reference = Self.value(mapping, "$ref")?.string {
                return referenced(mapping, reference, in: file, pointer: pointer, position: position, schema: schema)
            }
            let isNameMap = !schema && position.last.map(Self.nameMaps.contains) == true
            var pairs: [(Node, Node)] = []
            for (key, value) in mapping {
                guard let name = key.string, !name.hasPrefix("x-") else {
                    pairs.append((key, value))
                    continue
                }
                let childPointer = pointer + [name]
                let childPosition = position + [name]
                switch isNameMap ? .keep : repair(name, value, in: file, pointer: childPointer, schema: schema) {
                case .keep: break
                case .drop: continue
                case .replace(let repaired):
                    pairs.append((key, repaired))
                    continue
                }
                var walked = value
                if schema {
                    if name == "discriminator" {
                        walked = discriminator(value, in: file)
                    } else if Self.schemaMaps.contains(name), case .mapping(let properties) = value {
                        walked = .mapping(
                            Self.mapped(properties) { property, inner in
                                walk(inner, in: file, pointer: childPointer + [property], position: [], schema: true)
                            }
                        )
                    } else if !Self.schemaData.contains(name) {
                        walked = walk(value, in: file, pointer: childPointer, position: [], schema: true)
                    }
                } else if isNameMap || !["example", "value"].contains(name) {
                    let isSchema =
                        isNameMap ? position == ["components", "schemas"] : name == "schema"
                    walked = walk(value, in: file, pointer: childPointer, position: childPosition, schema: isSchema)
                }
                pairs.append((key, walked))
            }
            return .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark))
        case .sequence(let sequence):
            let nodes = sequence.enumerated().map { index, element in
                walk(
                    element,
                    in: file,
                    pointer: pointer + ["\(index)"],
                    position: position + ["\(index)"],
                    schema: schema
                )
            }
            return .sequence(Node.Sequence(nodes, sequence.tag, sequence.style, sequence.mark))
        case .scalar, .alias:
            return node
        }
    }

    /// The node that stands for the reference object `mapping`: a reference to a component schema, the
    /// referenced object itself, or `mapping` as it is when it cannot be resolved.
    private mutating func referenced(
        _ mapping: Node.Mapping,
        _ reference: String,
        in file: URL,
        pointer: [String],
        position: [String],
        schema: Bool
    ) -> Node {
        let location = self.location(file, pointer)
        guard let target = localTarget(reference, in: file) else {
            report(
                location,
                "reference `\(reference)`: a remote reference is not fetched; the reference is left as it is"
            )
            return .mapping(mapping)
        }
        // A path item reference, which the generator does not follow, is written in place even within the document.
        let isPathItem = position.count == 2 && position[0] == "paths"
        if target.file == main, !isPathItem {
            guard file != main else { return .mapping(mapping) }
            changed = true
            return Self.replacingReference(in: mapping, with: "#" + target.pointer)
        }
        if case .failure(let failure) = node(at: target) {
            report(location, "reference `\(reference)`: \(failure.reason); the reference is left as it is")
            guard file != main else { return .mapping(mapping) }
            // Written from the main document's folder, so the generator's report names the file it means.
            changed = true
            let written = display(target.file) + (target.pointer.isEmpty ? "" : "#" + target.pointer)
            return Self.replacingReference(in: mapping, with: written)
        }
        let kind = Self.componentKind(target.pointer)
        let isSchema =
            kind == "schemas"
            || (kind == nil
                && (schema || target.pointer.hasPrefix("/definitions/") || target.pointer.hasPrefix("/$defs/")))
        changed = true
        let isAliasEntry =
            position.count == 3 && position.prefix(2) == ["components", "schemas"]
            && aliases[target] == position.last
        if isSchema, !isAliasEntry {
            return Self.replacingReference(in: mapping, with: "#/components/schemas/" + schemaName(for: target))
        }
        guard inlining.insert(target).inserted, case .success(let content) = node(at: target) else {
            report(
                location,
                "reference `\(reference)` is part of a cycle of references; the reference is left as it is"
            )
            return .mapping(mapping)
        }
        defer { inlining.remove(target) }
        let walked = walk(
            content,
            in: target.file,
            pointer: Self.tokens(target.pointer),
            position: position,
            schema: isSchema
        )
        guard case .mapping(var merged) = walked else { return walked }
        for (key, value) in mapping where key.string != "$ref" {
            merged = Self.mapped(merged, setting: key, to: value)
        }
        return .mapping(merged)
    }

    /// A discriminator whose `mapping` values that point to other files point to the schemas brought in.
    private mutating func discriminator(_ original: Node, in file: URL) -> Node {
        guard case .mapping(let discriminator) = original,
            case .mapping(let mapping)? = Self.value(discriminator, "mapping")
        else { return original }
        let rewritten = Self.mapped(mapping) { _, value -> Node in
            guard let reference = value.string, reference.contains("#") || reference.contains("/"),
                let target = localTarget(reference, in: file), target.file != main,
                case .success = node(at: target)
            else { return value }
            changed = true
            return Self.quoted("#/components/schemas/" + schemaName(for: target))
        }
        return .mapping(Self.mapped(discriminator, setting: Node("mapping"), to: .mapping(rewritten)))
    }

    /// The component schema name of `target`, chosen (and `target` queued to be brought in) the first time.
    private mutating func schemaName(for target: Target) -> String {
        if let known = schemaNames[target] { return known }
        let stem = Self.keySafe(target.file.deletingPathExtension().lastPathComponent)
        let last = Self.tokens(target.pointer).last.map(Self.keySafe)
        var candidates = [last ?? stem]
        if let last { candidates.append(stem + "_" + last) }
        var name = candidates.first { !takenNames.contains(SwiftNames.typeName($0)) }
        var number = 2
        while name == nil {
            let numbered = candidates[0] + "\(number)"
            if !takenNames.contains(SwiftNames.typeName(numbered)) { name = numbered }
            number += 1
        }
        let chosen = name ?? candidates[0]
        takenNames.insert(SwiftNames.typeName(chosen))
        schemaNames[target] = chosen
        pending.append((target, chosen))
        return chosen
    }

    mutating func report(_ location: String, _ message: String) {
        diagnostics.append(Diagnostic(location: location, message: message))
    }
}
