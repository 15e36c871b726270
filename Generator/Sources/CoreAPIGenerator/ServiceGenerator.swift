import Foundation
import OpenAPIKit

/// A file the generator writes: its path below the output folder, and its contents.
public struct GeneratedFile: Sendable, Hashable {
    /// The path below the output folder, such as `Models/Pet.swift`.
    public let path: String
    /// The Swift source.
    public let contents: String
}

/// What one run of the generator produced.
public struct GenerationResult: Sendable {
    /// The files, sorted by path.
    public let files: [GeneratedFile]
    /// The constructs that were not generated, in document order.
    public let diagnostics: [Diagnostic]
}

/// Writes a CoreAPI service module — a family protocol, one `ApiMethod` per operation and the models —
/// from an OpenAPI document.
public final class ServiceGenerator {
    let document: OpenAPI.Document
    /// The family's name, such as `Petstore`: the protocol is `PetstoreMethod`.
    let familyName: String
    let models: ModelBuilder
    /// Whether every declaration a consumer of the module needs is `public`.
    let isPublic: Bool
    private var ownDiagnostics: [Diagnostic] = []

    /// The access level of the declarations a module's consumers use.
    public enum Access: String, Sendable, CaseIterable {
        /// Internal: the module is the app's own target.
        case `internal`
        /// Public: the module is a library other targets import.
        case `public`
    }

    /// The document extension that makes a module public when no access is given: `x-coreapi-access: public`.
    public static let accessExtension = "x-coreapi-access"

    /// Creates a generator for `document`, naming the family `familyName` (made a valid type name); `access`
    /// is the access level of what a consumer of the module uses, by default the document's
    /// `x-coreapi-access` (`public` or `internal`), else `internal`.
    public init(document: OpenAPI.Document, familyName: String, access: Access? = nil) {
        self.document = document
        let fromDocument = (document.vendorExtensions[Self.accessExtension]?.value as? String).flatMap(Access.init)
        self.isPublic = (access ?? fromDocument ?? .internal) == .public
        let family = SwiftNames.typeName(familyName)
        self.familyName = family
        let reserved: Set<String> = [
            family + "Method", family + "Error", family + "JSON", family + "Host", family + "Indirect",
            family + "Auth", family + "StatusError",
        ]
        self.models = ModelBuilder(components: document.components, reserved: reserved)
    }

    func report(_ location: String, _ message: String) {
        ownDiagnostics.append(Diagnostic(location: location, message: message))
    }

    /// Generates every file.
    public func generate() -> GenerationResult {
        var files: [GeneratedFile] = []
        var typeNames = NameScope(
            reserved: Set(models.componentNames.values).union(models.reservedFamilyNames(familyName))
        )
        var operations: [OperationModel] = []
        for (path, item) in document.paths {
            let pathLocation = "#/paths/\(Diagnostic.token(path.rawValue))"
            guard case .b(let pathItem) = item else {
                report(pathLocation, "a path item reference is not generated")
                continue
            }
            if pathItem.servers?.isEmpty == false {
                report(pathLocation + "/servers", "servers of a path are not generated; the family's host is used")
            }
            for endpoint in pathItem.endpoints {
                if endpoint.operation.servers?.isEmpty == false {
                    let method = endpoint.method.rawValue.lowercased()
                    report(
                        pathLocation + "/\(method)/servers",
                        "servers of an operation are not generated; the family's host is used"
                    )
                }
                let raw =
                    endpoint.operation.operationId ?? (endpoint.method.rawValue.lowercased() + " " + path.rawValue)
                let name = typeNames.unique(SwiftNames.typeName(raw))
                if let model = operationModel(
                    endpoint.operation,
                    method: endpoint.method,
                    path: path,
                    pathItem: pathItem,
                    name: name
                ) {
                    operations.append(model)
                }
            }
        }
        for name in document.webhooks.keys.sorted() {
            report("#/webhooks/\(Diagnostic.token(name))", "webhooks are not generated")
        }
        let keys = models.componentNames.keys.sorted()
        let (declarations, boxed) = breakingCycles(keys.map { models.componentDeclaration($0) })
        for declaration in declarations {
            var writer = makeWriter()
            writeHeader(to: &writer, imports: ["CoreAPI", "CoreAPIJSON", "Foundation"])
            DeclarationWriter.write(declaration, to: &writer)
            files.append(GeneratedFile(path: "Models/\(declaration.name).swift", contents: writer.text))
        }
        for operation in operations {
            files.append(GeneratedFile(path: "Methods/\(operation.name).swift", contents: methodSource(operation)))
        }
        let statusErrors = operations.contains { !$0.statusErrors.isEmpty || !$0.rangeErrors.isEmpty }
        let family = familySource(
            indirect: boxed,
            statusErrors: statusErrors,
            encodedPaths: operations.contains(where: Self.encodesPath),
            cookies: operations.contains { $0.parameters.contains { $0.location == .cookie } }
        )
        let diagnostics = documentOrdered(ownDiagnostics + models.diagnostics)
        files.append(
            GeneratedFile(
                path: "\(familyName)Method.swift",
                contents: family + diagnosticsComment(diagnostics)
            )
        )
        return GenerationResult(files: files.sorted { $0.path < $1.path }, diagnostics: diagnostics)
    }

    /// A writer whose declarations have the module's access level.
    func makeWriter() -> SourceWriter {
        var writer = SourceWriter()
        writer.access = isPublic ? "public " : ""
        return writer
    }

    /// The file header: the document's title and version, then the imports.
    func writeHeader(to writer: inout SourceWriter, imports: [String]) {
        let title = document.info.title.split(whereSeparator: \.isNewline).joined(separator: " ")
        let version = document.info.version.split(whereSeparator: \.isNewline).joined(separator: " ")
        let header = "Generated by coreapi-generate from \"\(title)\" version \(version)."
        for line in SourceWriter.wrap(header, width: SourceWriter.lineLength - 3) { writer.line("// " + line) }
        writer.line("// Do not edit: regenerate from the document instead.")
        writer.line()
        for module in imports.sorted() { writer.line("import \(module)") }
        writer.line()
    }
}

extension ModelBuilder {
    func reservedFamilyNames(_ family: String) -> Set<String> {
        [
            family + "Method", family + "Error", family + "JSON", family + "Host", family + "Indirect", family + "Auth",
            family + "StatusError",
        ]
    }
}
