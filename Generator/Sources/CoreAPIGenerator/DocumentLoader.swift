import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
import Yams

/// Reads an OpenAPI 3.0 or 3.1 document, YAML or JSON, as an OpenAPI 3.1 document.
public enum DocumentLoader {
    /// Why a document could not be read.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    /// The document in `text`; a 3.0 document is converted to 3.1.
    /// - Throws: ``Failure`` when the text is not an OpenAPI 3.0, 3.1 or 3.2 document.
    public static func load(text: String) throws -> OpenAPIKit.OpenAPI.Document {
        let top: Any?
        do {
            top = try Yams.load(yaml: text)
        } catch {
            throw Failure(description: "not YAML or JSON: \(error)")
        }
        guard let fields = top as? [String: Any], let version = fields["openapi"].map({ "\($0)" }) else {
            throw Failure(description: "no `openapi` version field: not an OpenAPI 3 document")
        }
        // Object keywords beside an `allOf`, which OpenAPIKit would drop, become a part of it.
        let folded = AllOfSiblings.folded(text)
        func decode<Document: Decodable>(_ type: Document.Type) throws -> Document {
            if let folded { return try YAMLDecoder().decode(type, from: folded) }
            return try YAMLDecoder().decode(type, from: text)
        }
        do {
            if version.hasPrefix("3.0") {
                return try decode(OpenAPIKit30.OpenAPI.Document.self).convert(to: .v3_1_0)
            }
            return try decode(OpenAPIKit.OpenAPI.Document.self)
        } catch {
            throw Failure(description: "not a valid OpenAPI \(version) document: \(error)")
        }
    }

    /// The document in the file at `url`, with what its `$ref`s to other local files point to brought in.
    /// - Throws: ``Failure`` when the file cannot be read or is not an OpenAPI document.
    public static func load(contentsOf url: URL) throws -> OpenAPIKit.OpenAPI.Document {
        var diagnostics: [Diagnostic] = []
        return try load(contentsOf: url, diagnostics: &diagnostics)
    }

    /// The document in the file at `url`, with what its `$ref`s to other local files point to brought in.
    ///
    /// Each file is found relative to the file that references it, YAML or JSON alike. A schema from another
    /// file becomes a component schema of the document, named after its pointer's last token (or its file's
    /// name); anything else is written in place of its reference. A reference that cannot be followed (a
    /// remote one, a missing file, a pointer to nothing) is left as it is, so the generator reports it where
    /// it is used, and the reason is appended to `diagnostics` with the place of the reference.
    /// - Throws: ``Failure`` when the file cannot be read or is not an OpenAPI document.
    public static func load(contentsOf url: URL, diagnostics: inout [Diagnostic]) throws -> OpenAPIKit.OpenAPI.Document
    {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw Failure(description: "cannot read \(url.path): \(error.localizedDescription)")
        }
        guard let root = try? Yams.compose(yaml: text), root.mapping != nil else { return try load(text: text) }
        let resolved = FileReferences.resolve(root, at: url)
        diagnostics += resolved.diagnostics
        guard resolved.changed else { return try load(text: text) }
        let merged: String
        do {
            merged = try Yams.serialize(node: resolved.root)
        } catch {
            throw Failure(description: "cannot join \(url.path) with the files it references: \(error)")
        }
        return try load(text: merged)
    }
}

extension ServiceGenerator {
    /// Writes `result`'s files below `folder`, creating folders, and removes nothing.
    public static func write(_ result: GenerationResult, to folder: URL) throws {
        for file in result.files {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(file.contents.utf8).write(to: url, options: .atomic)
        }
    }
}
