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
        do {
            if version.hasPrefix("3.0") {
                let document = try YAMLDecoder().decode(OpenAPIKit30.OpenAPI.Document.self, from: text)
                return document.convert(to: .v3_1_0)
            }
            return try YAMLDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: text)
        } catch {
            throw Failure(description: "not a valid OpenAPI \(version) document: \(error)")
        }
    }

    /// The document in the file at `url`.
    /// - Throws: ``Failure`` when the file cannot be read or is not an OpenAPI document.
    public static func load(contentsOf url: URL) throws -> OpenAPIKit.OpenAPI.Document {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw Failure(description: "cannot read \(url.path): \(error.localizedDescription)")
        }
        return try load(text: text)
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
