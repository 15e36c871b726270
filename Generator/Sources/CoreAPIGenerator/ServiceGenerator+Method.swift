import OpenAPIKit

extension ServiceGenerator {
    /// The source of one operation's `ApiMethod`.
    func methodSource(_ operation: OperationModel) -> String {
        var writer = makeWriter()
        var imports = ["CoreAPI", "CoreAPIJSON", "Foundation"]
        if operation.response.code == "String" { imports.append("CoreAPIText") }
        writeHeader(to: &writer, imports: imports)
        writer.doc(operation.doc, public: "`\(operation.method.uppercased()) \(operation.path)`")
        if operation.deprecated { writer.line("@available(*, deprecated, message: \"Deprecated in the document.\")") }
        writer.block("\(writer.access)struct \(operation.name): \(familyName)Method") { writer in
            writeMethodBody(operation, to: &writer)
        }
        return writer.text
    }

    private func writeMethodBody(_ operation: OperationModel, to writer: inout SourceWriter) {
        let hasBody: Bool
        switch operation.body {
        case .none: hasBody = false
        default: hasBody = true
        }
        let query = operation.parameters.filter { $0.location == .query }
        let queryInURL = hasBody && !query.isEmpty
        let access = writer.access
        if !operation.responseHeaders.isEmpty || operation.response.code != "Response" {
            writer.doc(nil, public: "What the method's success response becomes.")
        }
        if !operation.responseHeaders.isEmpty {
            writer.line("\(access)typealias Response = WithMetadata<\(operation.response.code)>")
        } else if operation.response.code != "Response" {
            writer.line("\(access)typealias Response = \(operation.response.code)")
        }
        var stored: [Property] = []
        var encoded: [Property] = []
        if !operation.parameters.isEmpty { writer.separate() }
        for parameter in operation.parameters {
            let property = parameter.property
            stored.append(property)
            writer.doc(property.doc, public: "The `\(property.wireName)` \(parameter.location.rawValue) parameter.")
            let isEncoded = parameter.location == .query && !queryInURL
            if isEncoded { encoded.append(property) }
            let wrapper = isEncoded ? "" : "@Excluded "
            let initial = property.defaultValue.map { " = \($0)" } ?? ""
            let name = SwiftNames.escaped(property.swiftName)
            writer.line("\(wrapper)\(access)var \(name): \(property.type.code)\(initial)")
        }
        switch operation.body {
        case .none:
            break
        case .json(let property):
            writer.separate()
            stored.append(property)
            writer.doc(property.doc ?? "The JSON body.")
            writer.line("\(access)var \(property.swiftName): \(property.type.code)")
        case .form(let fields), .multipart(let fields):
            writer.separate()
            DeclarationWriter.writeProperties(fields, to: &writer)
            encoded += fields
            stored += fields
        case .raw(let property, _):
            writer.separate()
            stored.append(property)
            writer.doc(property.doc ?? "The body, sent as it is.")
            writer.line("@Excluded \(access)var \(property.swiftName): \(property.type.code)")
        }
        if writer.isPublic {
            DeclarationWriter.writeMemberwiseInit(stored, doc: "Creates the method from its parameters.", to: &writer)
        }
        writer.separate()
        let path = pathExpression(operation)
        writer.doc(nil, public: "The path, its parameters filled in.")
        if writer.fits("\(access)var path: String { \"\(path)\" }") {
            writer.line("\(access)var path: String { \"\(path)\" }")
        } else {
            writer.block("\(access)var path: String") { writer in writer.pathLiteral(path) }
        }
        if operation.method != "get" {
            writer.doc(nil, public: "`\(operation.method.uppercased())`.")
            writer.line("\(access)var httpMethod: HTTPMethod { .\(operation.method) }")
        }
        writeHeaders(
            operation.parameters.filter { $0.location == .header },
            cookies: operation.parameters.filter { $0.location == .cookie },
            to: &writer
        )
        writeEncoding(operation, query: query, queryInURL: queryInURL, to: &writer)
        writeStatusErrors(operation.statusErrors, to: &writer)
        writeRangeErrors(operation.rangeErrors, to: &writer)
        if queryInURL {
            writeURLInfo(
                query,
                constant: operation.constantQuery,
                encodedPath: Self.encodesPath(operation),
                to: &writer
            )
        } else if !operation.constantQuery.isEmpty {
            writeConstantQueryURLInfo(operation, to: &writer)
        } else if Self.encodesPath(operation) {
            writer.line()
            writer.doc(nil, public: "The URL, its path built without encoding the parameters' values again.")
            writer.block("\(access)func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo") { writer in
                writer.line("try Self.encodedURL(host: try hostProvider.host(for: hostProviderKey), path: path)")
            }
        }
        if case .json(let property) = operation.body {
            writer.line()
            writer.doc(nil, public: "Encodes the JSON body, the method's only parameter.")
            writer.block("\(access)func encode(to encoder: any Encoder) throws") { writer in
                let optional = property.type.isOptional ? "?" : ""
                writer.line("try \(property.swiftName)\(optional).encode(to: encoder)")
            }
        } else {
            DeclarationWriter.writeCodingKeys(encoded, to: &writer)
        }
        writeResponseHeaders(operation, to: &writer)
        DeclarationWriter.writeNested(operation.nested, to: &writer)
    }

    /// The path template with each `{name}` replaced by its parameter's text.
    func pathExpression(_ operation: OperationModel) -> String {
        var result = ""
        var remainder = Substring(operation.path)
        while let open = remainder.firstIndex(of: "{"), let close = remainder[open...].firstIndex(of: "}") {
            result += String(remainder[..<open]).swiftLiteral
            let name = String(remainder[remainder.index(after: open)..<close])
            if let parameter = operation.parameters.first(where: {
                $0.location == .path && $0.property.wireName == name
            }) {
                var text = Self.text(of: SwiftNames.escaped(parameter.property.swiftName), parameter.property.type)
                if Self.mayHoldReservedCharacters(parameter.property.type) {
                    text = "Self.segment(\(text))"
                } else if text.hasPrefix("String("), text.hasSuffix(")") {
                    text = String(text.dropFirst(7).dropLast())
                }
                result += "\\(" + text + ")"
            } else {
                report(operation.location, "path parameter `\(name)` is not declared; left in the path as it is")
                result += "{\(name)}".swiftLiteral
            }
            remainder = remainder[remainder.index(after: close)...]
        }
        return result + String(remainder).swiftLiteral
    }

    /// Whether the text of a value of `type` may hold a `/` or another character a path segment cannot
    /// carry as it is: a path that holds one is percent-encoded by the family's `segment(_:)`.
    static func mayHoldReservedCharacters(_ type: TypeRef) -> Bool {
        if let raw = type.enumRawType { return raw == "String" }
        let safe: Set<String> = ["Int", "Int32", "Int64", "Bool", "UUID", "Double", "Float"]
        return type.element != nil || !safe.contains(type.code.replacingOccurrences(of: "?", with: ""))
    }

    /// Whether `operation`'s path holds a value percent-encoded by the family's `segment(_:)`, so its URL is
    /// built by the family's `encodedURL(host:path:queryItems:)` rather than from `path` by CoreAPI, which
    /// would split the value at its `/` and encode its `%` again.
    static func encodesPath(_ operation: OperationModel) -> Bool {
        operation.parameters.contains { $0.location == .path && mayHoldReservedCharacters($0.property.type) }
    }

    /// An expression for the text of `value` of type `type` (not optional) in a path, header or query.
    static func text(of value: String, _ type: TypeRef) -> String {
        if let element = type.element {
            return "\(value).map { \(text(of: "$0", element)) }.joined(separator: \",\")"
        }
        if let raw = type.enumRawType { return raw == "String" ? "\(value).rawValue" : "String(\(value).rawValue)" }
        switch type.code.replacingOccurrences(of: "?", with: "") {
        case "String": return value
        case "UUID": return "\(value).uuidString"
        case "Data": return "\(value).base64EncodedString()"
        case "Int", "Int32", "Int64", "Bool": return "String(\(value))"
        default: return "\"\\(\(value))\""
        }
    }

    /// `headers`: the header parameters, and the cookie parameters as one `Cookie` field (`a=1; b=2`), each
    /// value encoded by the family's `cookieValue(_:)`.
    private func writeHeaders(
        _ headers: [ParameterProperty],
        cookies: [ParameterProperty],
        to writer: inout SourceWriter
    ) {
        guard !headers.isEmpty || !cookies.isEmpty else { return }
        writer.doc(nil, public: cookies.isEmpty ? "The header parameters." : "The header and cookie parameters.")
        writer.block("\(writer.access)var headers: Headers") { writer in
            writer.line("var headers = Headers()")
            for header in headers {
                let name = SwiftNames.escaped(header.property.swiftName)
                let set =
                    "headers.set(\(Self.text(of: name, header.property.type)), for: \"\(header.property.wireName.swiftLiteral)\")"
                if header.property.type.isOptional {
                    writer.shortBlock("if let \(name)", set)
                } else {
                    writer.line(set)
                }
            }
            if !cookies.isEmpty {
                writer.line("var cookies: [String] = []")
                for cookie in cookies {
                    let name = SwiftNames.escaped(cookie.property.swiftName)
                    let value = "Self.cookieValue(\(Self.text(of: name, cookie.property.type)))"
                    let append = "cookies.append(\"\(cookie.property.wireName.swiftLiteral)=\\(\(value))\")"
                    writer.line(cookie.property.type.isOptional ? "if let \(name) { \(append) }" : append)
                }
                writer.line("if !cookies.isEmpty { headers.set(cookies.joined(separator: \"; \"), for: \"Cookie\") }")
            }
            writer.line("return headers")
        }
    }

    private func writeEncoding(
        _ operation: OperationModel,
        query: [ParameterProperty],
        queryInURL: Bool,
        to writer: inout SourceWriter
    ) {
        switch operation.body {
        case .form:
            writer.doc(nil, public: "A form body.")
            writer.line("\(writer.access)var parametersEncoding: any ParametersEncoding { FormParametersEncoder() }")
        case .multipart:
            writer.doc(nil, public: "A `multipart/form-data` body.")
            writer.line("\(writer.access)var parametersEncoding: any ParametersEncoding { MultipartFormDataEncoder() }")
        case .raw(let property, let contentType):
            let data = property.type.code == "String" ? "Data(\(property.swiftName).utf8)" : property.swiftName
            writer.doc(nil, public: "The body, sent as it is.")
            let body = "var body: RequestBody? { .data(\(data), contentType: \"\(contentType.swiftLiteral)\") }"
            writer.line(writer.access + body)
        case .json:
            // CoreAPI's default for a `GET`, `HEAD` or `DELETE` is the query; the document says a JSON body.
            guard ["get", "head", "delete"].contains(operation.method) else { break }
            writer.doc(nil, public: "A JSON body.")
            writer.line("\(writer.access)var parametersEncoding: any ParametersEncoding { JSONParametersEncoder() }")
        case .none:
            let arrays = query.filter { $0.property.type.element != nil }
            let prefersQuery = ["get", "head", "delete"].contains(operation.method)
            guard !prefersQuery || !arrays.isEmpty else { return }
            let arrayEncoding = arrays.contains { !$0.explode } ? ".commaSeparated" : ".repeatedKey"
            writer.doc(nil, public: "The parameters in the query string.")
            writer.block("\(writer.access)var parametersEncoding: any ParametersEncoding") { writer in
                writer.line("QueryParametersEncoder(destination: .queryString, arrayEncoding: \(arrayEncoding))")
            }
        }
    }

    /// `urlInfo(from:)` with the query parameters as query items, after the path key's own (`constant`), for a
    /// method whose parameters are its body.
    private func writeURLInfo(
        _ query: [ParameterProperty],
        constant: [(name: String, value: String?)],
        encodedPath: Bool,
        to writer: inout SourceWriter
    ) {
        writer.line()
        writer.doc(nil, public: "The URL, with the query parameters; the others are the body.")
        writer.block("\(writer.access)func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo") { writer in
            if constant.isEmpty {
                writer.line("var query: [URLQueryItem] = []")
            } else {
                Self.writeQueryItems(constant, declaring: "var query", to: &writer)
            }
            for parameter in query {
                let property = parameter.property
                let name = SwiftNames.escaped(property.swiftName)
                let wire = property.wireName.swiftLiteral
                let append =
                    "query.append(URLQueryItem(name: \"\(wire)\", value: \(Self.text(of: name, property.type))))"
                let element = parameter.explode ? property.type.element : nil
                let appendItem = element.map {
                    "query.append(URLQueryItem(name: \"\(wire)\", value: \(Self.text(of: "item", $0))))"
                }
                let single = appendItem.map { "for item in \(name) { \($0) }" } ?? append
                func write(to writer: inout SourceWriter) {
                    if let appendItem {
                        writer.shortBlock("for item in \(name)", appendItem)
                    } else {
                        writer.line(append)
                    }
                }
                if !property.type.isOptional {
                    write(to: &writer)
                } else if writer.fits("if let \(name) { \(single) }") {
                    writer.line("if let \(name) { \(single) }")
                } else {
                    writer.block("if let \(name)") { writer in write(to: &writer) }
                }
            }
            let host = "host: try hostProvider.host(for: hostProviderKey)"
            if encodedPath {
                writer.line("return try Self.encodedURL(\(host), path: path, queryItems: query)")
            } else {
                writer.line("return .components(\(host), path: path, queryItems: query)")
            }
        }
    }

    /// `statusError(for:)` decoding the body of a `4XX`, `5XX` or `default` response of the method's own, for
    /// a status the method does not list itself (those are its `options`' status errors, which come first).
    private func writeRangeErrors(_ errors: [(pattern: String, type: String)], to writer: inout SourceWriter) {
        guard !errors.isEmpty else { return }
        writer.line()
        func decode(_ type: String, to writer: inout SourceWriter) {
            writer.guardDecoding(type)
            writer.line("    return nil")
            writer.line("}")
            writer.line("return \(familyName)StatusError(status: failure.statusCode, body: body)")
        }
        writer.doc(nil, public: "The typed error of a status range or of the `default` response.")
        let signature = "func statusError(for failure: ApiError.StatusFailure) -> (any Error)?"
        writer.block(writer.access + signature) { writer in
            if errors.count == 1, errors[0].pattern == "default" {
                decode(errors[0].type, to: &writer)
                return
            }
            writer.switchBlock("failure.statusCode") { writer in
                for error in errors {
                    writer.line(error.pattern == "default" ? "default:" : "case \(error.pattern):")
                    writer.indented { writer in decode(error.type, to: &writer) }
                }
                if !errors.contains(where: { $0.pattern == "default" }) {
                    writer.line("default:")
                    writer.line("    return nil")
                }
            }
        }
    }

    /// `options` whose status errors decode each documented error body of the method's own.
    private func writeStatusErrors(_ errors: [(code: Int, type: String)], to writer: inout SourceWriter) {
        guard !errors.isEmpty else { return }
        writer.doc(nil, public: "The typed errors of the statuses the method lists.")
        writer.block("\(writer.access)var options: CallOptions") { writer in
            writer.line("CallOptions(")
            writer.indented { writer in
                writer.line("statusErrors: CallOptions.StatusErrors()")
                writer.indented { writer in
                    for error in errors {
                        writer.line(".on(\(error.code)) { failure in")
                        writer.indented { writer in
                            writer.guardDecoding(error.type)
                            writer.line("    return ApiError.unacceptableStatus(failure)")
                            writer.line("}")
                            writer.line("return \(familyName)StatusError(status: failure.statusCode, body: body)")
                        }
                        writer.line("}")
                    }
                }
            }
            writer.line(")")
        }
    }
}
