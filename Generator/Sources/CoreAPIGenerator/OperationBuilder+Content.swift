import OpenAPIKit

extension ServiceGenerator {
    static func isJSON(_ type: String) -> Bool {
        type == "application/json" || type.hasSuffix("+json") || type == "*/*"
    }

    /// The media type an operation reads or sends, preferring JSON, then form, text and others.
    func preferredContent(_ content: OpenAPI.Content.Map) -> (String, OpenAPI.Content)? {
        let entries = content.compactMap { entry in document.components[entry.value].map { (entry.key.rawValue, $0) } }
        func first(_ test: (String) -> Bool) -> (String, OpenAPI.Content)? { entries.first { test($0.0) } }
        return first(Self.isJSON) ?? first { $0 == "application/x-www-form-urlencoded" } ?? first {
            $0.hasPrefix("text/")
        }
            ?? first { !$0.contains("xml") && !$0.hasPrefix("multipart/") } ?? entries.first
    }

    /// The body of `operation`, or `nil` when it cannot be sent (reported; the operation is skipped).
    func bodyKind(
        _ operation: OpenAPI.Operation,
        location: String,
        names: inout NameScope,
        scope: inout NameScope,
        nested: inout [Declaration]
    ) -> BodyKind? {
        guard let requestBody = operation.requestBody else { return BodyKind.none }
        let request: OpenAPI.Request
        switch requestBody {
        case .b(let value):
            request = value
        case .a(let reference):
            guard let value = document.components[reference] else {
                report(location + "/requestBody", "request body reference is not in this document; operation skipped")
                return nil
            }
            request = value
        }
        let bodyLocation = location + "/requestBody/content"
        guard let (type, content) = preferredContent(request.content) else { return BodyKind.none }
        let contentLocation = bodyLocation + "/\(Diagnostic.token(type))"
        if type.contains("xml") || (type.hasPrefix("multipart/") && type != "multipart/form-data") {
            report(contentLocation, "\(type) bodies are not generated; operation skipped")
            return nil
        }
        if Self.isJSON(type) {
            let name = names.unique("requestBody")
            guard let schema = content.schema else {
                return .json(Property(swiftName: name, wireName: name, type: .jsonValue, doc: request.description))
            }
            var swiftType = models.type(
                of: schema,
                name: "Body",
                location: contentLocation + "/schema",
                scope: &scope,
                nested: &nested
            )
            if !request.required || schema.nullable { swiftType = swiftType.optional }
            return .json(Property(swiftName: name, wireName: name, type: swiftType, doc: request.description))
        }
        if type == "application/x-www-form-urlencoded" || type == "multipart/form-data" {
            var schema = content.schema ?? .fragment
            if case .reference(let reference, _) = schema.value,
                let target = models.target(of: reference, location: contentLocation + "/schema")
            {
                schema = target.schema
            }
            guard let object = schema.objectContext else {
                report(contentLocation, "a form body that is not an object is not generated; operation skipped")
                return nil
            }
            let isMultipart = type == "multipart/form-data"
            var fields: [Property] = []
            // A read-only field is the server's: a form never sends it.
            for (key, schema) in object.properties where !schema.readOnly {
                if isMultipart, let file = Self.attachmentType(schema) {
                    let optional = !schema.required || schema.nullable
                    let type = optional ? file.optional : file
                    fields.append(
                        Property(
                            swiftName: SwiftNames.memberName(key),
                            wireName: key,
                            type: type,
                            doc: schema.description
                        )
                    )
                    continue
                }
                fields += models.properties(
                    of: [(key, schema)],
                    location: contentLocation + "/schema",
                    scope: &scope,
                    nested: &nested
                )
            }
            for index in fields.indices {
                fields[index].swiftName = names.unique(fields[index].swiftName)
            }
            return isMultipart ? .multipart(fields) : .form(fields)
        }
        let name = names.unique("requestBody")
        let property = Property(
            swiftName: name,
            wireName: name,
            type: type.hasPrefix("text/") ? .plain("String") : .plain("Data"),
            doc: request.description
        )
        return .raw(property, contentType: type)
    }

    /// The `Response` of `operation`: its first success status's content (an inline model is declared as
    /// `inlineName`); any other success status is reported, not generated.
    func responseType(
        _ operation: OpenAPI.Operation,
        location: String,
        scope: inout NameScope,
        nested: inout [Declaration],
        inlineName: String = "Response"
    ) -> TypeRef {
        var successes = operation.responses.filter { $0.key.isSuccess }
            .sorted { $0.key.rawValue < $1.key.rawValue }
        if successes.isEmpty {
            // Only a `default` response: it describes the success too.
            successes = operation.responses.filter { $0.key.value == .default }
        }
        guard let (status, outcome) = successes.first.map({ ($0.key, $0.value) }) else {
            return .plain("EmptyResponse")
        }
        for other in successes.dropFirst() {
            report(
                location + "/responses/\(other.key.rawValue)",
                "only the first success status (\(status.rawValue)) is generated; this one is read as its type"
            )
        }
        let responseLocation = location + "/responses/\(status.rawValue)"
        let response: OpenAPI.Response
        switch outcome {
        case .b(let value):
            response = value
        case .a(let reference):
            guard let value = document.components[reference] else {
                report(responseLocation, "response reference is not in this document; Data used")
                return .plain("Data")
            }
            response = value
        }
        for link in response.links.keys.sorted() {
            report(responseLocation + "/links/\(Diagnostic.token(link))", "links are not generated")
        }
        guard let (type, content) = preferredContent(response.content) else {
            return .plain("EmptyResponse")
        }
        if Self.isJSON(type) {
            guard let schema = content.schema else { return .jsonValue }
            let schemaLocation = responseLocation + "/content/\(Diagnostic.token(type))/schema"
            if Self.declaresType(schema) {
                nested.append(models.declaration(for: schema, name: inlineName, location: schemaLocation))
                return TypeRef(code: inlineName, isJSONResponse: true)
            }
            let swiftType = models.type(
                of: schema,
                name: "ResponseValue",
                location: schemaLocation,
                scope: &scope,
                nested: &nested
            )
            if swiftType.isJSONResponse && !schema.nullable { return swiftType }
            return TypeRef(code: "\(familyName)JSON<\(schema.nullable ? swiftType.optional.code : swiftType.code)>")
        }
        if type.hasPrefix("text/") { return .plain("String") }
        if type.contains("xml") {
            report(responseLocation + "/content/\(Diagnostic.token(type))", "XML responses are read as Data")
        }
        return .plain("Data")
    }

    /// Whether `schema` is declared as a type of its own: an object with properties or a composition.
    static func declaresType(_ schema: JSONSchema) -> Bool {
        switch schema.value {
        case .object(_, let object): !object.properties.isEmpty
        case .all(let parts, _): parts.count > 1
        case .one(let options, _), .any(let options, _): options.filter { !$0.isNull }.count > 1
        default: false
        }
    }

    /// `Attachment` for a binary string, `[Attachment]` for an array of them; `nil` for anything else.
    static func attachmentType(_ schema: JSONSchema) -> TypeRef? {
        if case .array(_, let array) = schema.value, let items = array.items {
            return attachmentType(items)?.array
        }
        guard case .string(let core, let string) = schema.value else { return nil }
        let isBinary =
            core.formatString == "binary" || string.contentEncoding == .binary
            || (string.contentMediaType != nil && string.contentEncoding == nil)
        return isBinary ? .plain("Attachment") : nil
    }

    /// The documented error statuses (`400` to `599` but `401`, which is always `ApiError.unauthorized`) whose
    /// JSON body is not the family's common error body, each with the type of its body.
    func statusErrorTypes(
        _ operation: OpenAPI.Operation,
        location: String,
        scope: inout NameScope,
        nested: inout [Declaration]
    ) -> [(code: Int, type: String)] {
        let common = commonErrorSchema()
        var result: [(code: Int, type: String)] = []
        for (status, outcome) in operation.responses {
            guard case .status(let code) = status.value, code >= 400, code < 600, code != 401,
                let response = document.components[outcome],
                let (type, content) = preferredContent(response.content), Self.isJSON(type),
                let schema = content.schema
            else { continue }
            if let name = schema.reference?.name, name == common { continue }
            let swiftType = models.type(
                of: schema,
                name: "Error\(code)",
                location: location + "/responses/\(code)/content/\(Diagnostic.token(type))/schema",
                scope: &scope,
                nested: &nested
            )
            result.append((code, schema.nullable ? swiftType.optional.code : swiftType.code))
        }
        return result.sorted { $0.code < $1.code }
    }
}

extension ServiceGenerator {
    /// The `4XX` and `5XX` responses, then the `default` one (when a success status is documented, else it
    /// is the success), whose JSON body is not the family's common one, each with the type of its body.
    func rangeErrorTypes(
        _ operation: OpenAPI.Operation,
        location: String,
        scope: inout NameScope,
        nested: inout [Declaration]
    ) -> [(pattern: String, type: String)] {
        let common = commonErrorSchema()
        let hasSuccess = operation.responses.contains { $0.key.isSuccess }
        var result: [(pattern: String, type: String)] = []
        let kinds: [(OpenAPI.Response.StatusCode.Code, String, String)] = [
            (.range(.clientError), "400..<500", "ClientError"),
            (.range(.serverError), "500..<600", "ServerError"),
            (.default, "default", "DefaultError"),
        ]
        for (code, pattern, name) in kinds where code != .default || hasSuccess {
            guard let (status, outcome) = operation.responses.first(where: { $0.key.value == code }),
                let response = document.components[outcome],
                let (type, content) = preferredContent(response.content), Self.isJSON(type),
                let schema = content.schema
            else { continue }
            if let reference = schema.reference?.name, reference == common { continue }
            let swiftType = models.type(
                of: schema,
                name: name,
                location: location + "/responses/\(status.rawValue)/content/\(Diagnostic.token(type))/schema",
                scope: &scope,
                nested: &nested
            )
            result.append((pattern, schema.nullable ? swiftType.optional.code : swiftType.code))
        }
        return result
    }
}
