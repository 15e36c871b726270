import OpenAPIKit

extension ServiceGenerator {
    /// The schema the operations' error responses share, when exactly one component schema is used by
    /// every `default`, `4XX` and `5XX` response that has a JSON body.
    func commonErrorSchema() -> String? {
        var names: Set<String> = []
        for (_, item) in document.paths {
            guard case .b(let pathItem) = item else { continue }
            for endpoint in pathItem.endpoints {
                for (status, outcome) in endpoint.operation.responses {
                    let isError: Bool
                    switch status.value {
                    case .default: isError = true
                    case .status(let code): isError = code >= 400
                    case .range(let range): isError = range == .clientError || range == .serverError
                    }
                    guard isError, let response = document.components[outcome],
                        let (type, content) = preferredContent(response.content), Self.isJSON(type)
                    else { continue }
                    guard let name = content.schema?.reference?.name else { return nil }
                    names.insert(name)
                }
            }
        }
        return names.count == 1 ? names.first : nil
    }

    /// The family file: the host, the protocol, the error, the JSON wrapper and what was not generated.
    func familySource(indirect: Bool, statusErrors: Bool, encodedPaths: Bool, cookies: Bool) -> String {
        var writer = makeWriter()
        writeHeader(to: &writer, imports: ["CoreAPI", "CoreAPIJSON", "Foundation"])
        let title = document.info.title
        var hostDoc =
            "The host of \(title): map `key` to one of `servers` (or another host) in the session's `HostProvider`."
        if document.servers.contains(where: { !$0.variables.isEmpty }) {
            hostDoc += " A `{name}` in a server is a server variable: `server(…)` fills them in."
        }
        writer.doc(hostDoc)
        let access = writer.access
        writer.block("\(access)enum \(familyName)Host") { writer in
            writer.line("/// The host key every method of the family uses.")
            writer.line("\(access)static let key = \"\(SwiftNames.memberName(familyName).swiftLiteral)\"")
            writer.line("/// The servers the document lists, in its order.")
            let servers = document.servers.map { "\"\($0.urlTemplate.absoluteString.swiftLiteral)\"" }
            let single = "\(access)static let servers = [\(servers.joined(separator: ", "))]"
            if servers.isEmpty {
                writer.line("\(access)static let servers: [String] = []")
            } else if single.count + 8 <= SourceWriter.lineLength {
                writer.line(single)
            } else {
                writer.line("\(access)static let servers = [")
                for server in servers { writer.line("    \(server),") }
                writer.line("]")
            }
            writeServerFunctions(to: &writer)
        }
        writer.line()
        let errorSchema = commonErrorSchema()
        let errorType = errorSchema.flatMap { models.componentNames[$0] }
        writer.doc(
            "A method of \(title): the host key"
                + (errorType == nil ? "." : ", and the common error body read once for every method.")
        )
        writer.line("\(access)protocol \(familyName)Method: ApiMethod {}")
        writer.line()
        writer.block("extension \(familyName)Method") { writer in
            writer.doc(nil, public: "The family's host key.")
            writer.line("\(access)var hostProviderKey: String { \(familyName)Host.key }")
            if let errorType {
                writer.line()
                writer.doc(nil, public: "The family's error, when the body is the common error body.")
                writer.block("\(access)func statusError(for failure: ApiError.StatusFailure) -> (any Error)?") {
                    writer in
                    writer.guardDecoding(errorType)
                    writer.line("    return nil")
                    writer.line("}")
                    writer.line("return \(familyName)Error(status: failure.statusCode, body: body)")
                }
            }
            if encodedPaths { writePathEncoding(to: &writer) }
            if cookies { writeCookieEncoding(to: &writer) }
        }
        if let errorType {
            writer.line()
            writer.doc("An error \(title) reported in its common error body.")
            writer.block("\(access)struct \(familyName)Error: Error, Hashable") { writer in
                writer.line("/// The HTTP status code.")
                writer.line("\(access)var status: Int")
                writer.line("/// The error body.")
                writer.line("\(access)var body: \(errorType)")
                if writer.isPublic { writeStatusAndBodyInit(body: errorType, to: &writer) }
            }
        }
        writer.line()
        writer.doc("A JSON response whose value has no model of its own, such as a list of strings or a map.")
        writer.block("\(access)struct \(familyName)JSON<Value: Decodable & Sendable>: JSONApiResponse") { writer in
            writer.line("/// The decoded value.")
            writer.line("\(access)var value: Value")
            writer.line()
            writer.doc(nil, public: "Decodes the value.")
            writer.block("\(access)init(from decoder: any Decoder) throws") { writer in
                writer.line("value = try Value(from: decoder)")
            }
        }
        if statusErrors {
            writer.line()
            writer.doc("An error status a method documents with a body of its own, and that body.")
            writer.block("\(access)struct \(familyName)StatusError<Body: Hashable & Sendable>: Error, Hashable") {
                writer in
                writer.line("/// The HTTP status code.")
                writer.line("\(access)var status: Int")
                writer.line("/// The error body.")
                writer.line("\(access)var body: Body")
                if writer.isPublic { writeStatusAndBodyInit(body: "Body", to: &writer) }
            }
        }
        writeAuth(to: &writer)
        if indirect { writeIndirectWrapper(to: &writer) }
        return writer.text
    }

    /// A public error's initializer, which a synthesized one would not be.
    func writeStatusAndBodyInit(body: String, to writer: inout SourceWriter) {
        writer.line()
        writer.line("/// Creates the error of `status` with `body`.")
        writer.block("\(writer.access)init(status: Int, body: \(body))") { writer in
            writer.line("self.status = status")
            writer.line("self.body = body")
        }
    }

    /// The comment that ends the family file: what was not generated, each with its place.
    func diagnosticsComment(_ diagnostics: [Diagnostic]) -> String {
        guard !diagnostics.isEmpty else { return "" }
        var writer = SourceWriter()
        writer.line()
        writer.line("// Not generated (each with its place in the document):")
        for diagnostic in diagnostics {
            for (index, line) in SourceWriter.wrap("- \(diagnostic)", width: 117).enumerated() {
                writer.line(index == 0 ? "// \(line)" : "//   \(line)")
            }
        }
        return writer.text
    }

    /// A function per server with variables, filling them in; each variable's default is its argument's.
    func writeServerFunctions(to writer: inout SourceWriter) {
        var names = NameScope()
        for (index, server) in document.servers.enumerated() where !server.variables.isEmpty {
            let name = names.unique("server")
            var template = server.urlTemplate.absoluteString.swiftLiteral
            var arguments: [String] = []
            var doc = "Server \(index + 1), `\(server.urlTemplate.absoluteString)`, with its variables filled in."
            var parameters = NameScope()
            for (variable, value) in server.variables {
                let argument = parameters.unique(SwiftNames.memberName(variable))
                arguments.append("\(SwiftNames.escaped(argument)): String = \"\(value.default.swiftLiteral)\"")
                template = template.replacingOccurrences(
                    of: "{\(variable)}",
                    with: "\\(\(SwiftNames.escaped(argument)))"
                )
                var line = "- `\(argument)`"
                if let description = value.description { line += ": \(description)" }
                if let values = value.enum, !values.isEmpty {
                    line += " (one of \(values.map { "`\($0)`" }.joined(separator: ", ")))"
                }
                doc += "\n" + line
            }
            writer.line()
            writer.doc(doc)
            let signature = "\(writer.access)static func \(name)(\(arguments.joined(separator: ", "))) -> String"
            if signature.count + 4 + 2 <= SourceWriter.lineLength {
                writer.block(signature) { writer in writer.line("\"\(template)\"") }
            } else {
                writer.line("\(writer.access)static func \(name)(")
                for (index, argument) in arguments.enumerated() {
                    writer.line("    " + argument + (index < arguments.count - 1 ? "," : ""))
                }
                writer.block(") -> String") { writer in writer.line("\"\(template)\"") }
            }
        }
    }
}
