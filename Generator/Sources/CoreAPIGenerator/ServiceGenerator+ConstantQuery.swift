extension ServiceGenerator {
    /// `urlInfo(from:)` for a method whose path key carries a query (`/items/{id}?beta=true`): the path without
    /// it, and its pairs as query items. The method's own query parameters, when its parameter encoder puts
    /// them in the URL, follow them; a body is sent as it is.
    func writeConstantQueryURLInfo(_ operation: OperationModel, to writer: inout SourceWriter) {
        writer.line()
        writer.doc(nil, public: "The URL, with the query the document's path carries.")
        writer.block("\(writer.access)func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo") { writer in
            Self.writeQueryItems(operation.constantQuery, declaring: "let query", to: &writer)
            let host = "host: try hostProvider.host(for: hostProviderKey)"
            if Self.encodesPath(operation) {
                writer.line("return try Self.encodedURL(\(host), path: path, queryItems: query)")
            } else {
                writer.line("return .components(\(host), path: path, queryItems: query)")
            }
        }
    }

    /// `declaration = [URLQueryItem(…), …]` for `items`, on one line when it fits, else one item a line.
    static func writeQueryItems(
        _ items: [(name: String, value: String?)],
        declaring declaration: String,
        to writer: inout SourceWriter
    ) {
        let literals = items.map { item in
            let value = item.value.map { "\"\($0.swiftLiteral)\"" } ?? "nil"
            return "URLQueryItem(name: \"\(item.name.swiftLiteral)\", value: \(value))"
        }
        let single = "\(declaration): [URLQueryItem] = [\(literals.joined(separator: ", "))]"
        if writer.fits(single) {
            writer.line(single)
            return
        }
        writer.line("\(declaration): [URLQueryItem] = [")
        writer.indented { writer in
            for literal in literals { writer.line(literal + ",") }
        }
        writer.line("]")
    }
}
