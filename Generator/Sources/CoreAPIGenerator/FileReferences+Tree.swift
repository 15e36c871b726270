import Foundation
import Yams

extension FileReferences {
    /// The place `reference` points to from `file`, or `nil` for a remote reference, which is not fetched.
    func localTarget(_ reference: String, in file: URL) -> Target? {
        let hash = reference.firstIndex(of: "#")
        let filePart = String(reference[..<(hash ?? reference.endIndex)])
        var pointer = hash.map { String(reference[reference.index(after: $0)...]) } ?? ""
        pointer = pointer.removingPercentEncoding ?? pointer
        if pointer == "/" { pointer = "" }
        guard !filePart.isEmpty else { return Target(file: file, pointer: pointer) }
        var path = filePart.removingPercentEncoding ?? filePart
        if let url = URL(string: filePart), let scheme = url.scheme {
            guard scheme == "file" else { return nil }
            path = url.path
        }
        let resolved =
            path.hasPrefix("/")
            ? URL(fileURLWithPath: path) : URL(fileURLWithPath: path, relativeTo: file.deletingLastPathComponent())
        return Target(file: URL(fileURLWithPath: resolved.standardizedFileURL.path), pointer: pointer)
    }

    /// The node `target` points to, reading its file the first time.
    mutating func node(at target: Target) -> Result<Node, LoadFailure> {
        let loaded: Result<Node, LoadFailure>
        if let known = files[target.file] {
            loaded = known
        } else {
            loaded = Self.read(target.file, display: display(target.file))
            files[target.file] = loaded
        }
        guard case .success(var node) = loaded else { return loaded }
        for token in Self.tokens(target.pointer) {
            let next: Node?
            switch node {
            case .mapping(let mapping): next = Self.value(mapping, token)
            case .sequence(let sequence):
                next = Int(token).flatMap { sequence.indices.contains($0) ? sequence[$0] : nil }
            case .scalar, .alias: next = nil
            }
            guard let next else {
                return .failure(LoadFailure(reason: "\(display(target.file)) has nothing at #\(target.pointer)"))
            }
            node = next
        }
        return .success(node)
    }

    private static func read(_ file: URL, display: String) -> Result<Node, LoadFailure> {
        guard FileManager.default.fileExists(atPath: file.path) else {
            return .failure(LoadFailure(reason: "there is no file \(display)"))
        }
        guard let text = try? String(contentsOf: file, encoding: .utf8) else {
            return .failure(LoadFailure(reason: "\(display) cannot be read as UTF-8 text"))
        }
        do {
            guard let node = try Yams.compose(yaml: text) else {
                return .failure(LoadFailure(reason: "\(display) is empty"))
            }
            return .success(node)
        } catch {
            return .failure(LoadFailure(reason: "\(display) is not YAML or JSON"))
        }
    }

    /// `file`'s path relative to the main document's folder, or in full when it is outside it.
    func display(_ file: URL) -> String {
        let folder = main.deletingLastPathComponent().path
        let path = file.path
        return path.hasPrefix(folder + "/") ? String(path.dropFirst(folder.count + 1)) : path
    }

    /// Where a construct is: a JSON pointer, after the file's path when it is not the main document.
    func location(_ file: URL, _ pointer: [String]) -> String {
        (file == main ? "" : display(file)) + "#" + pointer.map { "/" + Diagnostic.token($0) }.joined()
    }

    /// The unescaped tokens of a JSON pointer.
    static func tokens(_ pointer: String) -> [String] {
        guard !pointer.isEmpty else { return [] }
        return pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// The components section a pointer such as `/components/schemas/Pet` points into.
    static func componentKind(_ pointer: String) -> String? {
        let tokens = tokens(pointer)
        return tokens.count >= 3 && tokens[0] == "components" ? tokens[1] : nil
    }

    /// `raw` with every character a component key cannot have replaced by `_`.
    static func keySafe(_ raw: String) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        let safe = String(String.UnicodeScalarView(raw.unicodeScalars.map { allowed.contains($0) ? $0 : "_" }))
        return safe.isEmpty ? "Schema" : safe
    }

    /// The value of `key` in `mapping`.
    static func value(_ mapping: Node.Mapping, _ key: String) -> Node? {
        mapping.first { $0.key.string == key }?.value
    }

    /// `mapping` with each value of a string key transformed.
    static func mapped(_ mapping: Node.Mapping, _ transform: (String, Node) -> Node) -> Node.Mapping {
        let pairs = mapping.map { key, value in (key, key.string.map { transform($0, value) } ?? value) }
        return Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark)
    }

    /// `mapping` with `key` set to `value`, in its place or at the end.
    static func mapped(_ mapping: Node.Mapping, setting key: Node, to value: Node) -> Node.Mapping {
        var pairs = mapping.map { ($0.key, $0.value) }
        if let index = pairs.firstIndex(where: { $0.0.string == key.string }) {
            pairs[index].1 = value
        } else {
            pairs.append((key, value))
        }
        return Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark)
    }

    /// A reference object with its `$ref` replaced by `reference` and its other keys kept.
    static func replacingReference(in mapping: Node.Mapping, with reference: String) -> Node {
        .mapping(mapped(mapping, setting: Node("$ref"), to: quoted(reference)))
    }

    /// A string scalar written in double quotes, so no name or reference reads as another YAML type.
    static func quoted(_ string: String) -> Node {
        Node(string, .implicit, .doubleQuoted)
    }

    /// `root` with `schemas` added to its `components/schemas`, creating them when the document has none.
    static func adding(_ schemas: [(Node, Node)], to root: Node) -> Node {
        guard case .mapping(let document) = root else { return root }
        let components = value(document, "components")?.mapping ?? Node.Mapping([])
        let existing = value(components, "schemas")?.mapping ?? Node.Mapping([])
        let all = Node.Mapping(
            existing.map { ($0.key, $0.value) } + schemas,
            existing.tag,
            existing.style,
            existing.mark
        )
        let withSchemas = mapped(components, setting: Node("schemas"), to: .mapping(all))
        return .mapping(mapped(document, setting: Node("components"), to: .mapping(withSchemas)))
    }
}
