import Foundation
import OpenAPIKit

/// A parameter of an operation as a stored property of its method.
struct ParameterProperty {
    var property: Property
    var location: OpenAPI.Parameter.Context.Location
    var explode: Bool
}

/// What an operation sends as its body.
enum BodyKind {
    case none
    /// A JSON value, encoded as the method's parameters.
    case json(Property)
    /// Form fields: stored properties the form encoder writes.
    case form([Property])
    /// `multipart/form-data` parts: stored properties, files as `Attachment`s.
    case multipart([Property])
    /// Bytes sent as they are, with their media type.
    case raw(Property, contentType: String)
}

/// One operation, ready to be written as an `ApiMethod`.
struct OperationModel {
    var name: String
    var doc: String?
    var method: String
    var path: String
    var deprecated: Bool
    var parameters: [ParameterProperty]
    var body: BodyKind
    var response: TypeRef
    var nested: [Declaration]
    var location: String
    /// Error statuses with a JSON body of their own (not the family's common one), and that body's type.
    var statusErrors: [(code: Int, type: String)] = []
    /// `4XX` and `5XX` responses with a JSON body of their own, as the pattern of their codes (`400..<500`),
    /// then a `default` one as `default`, each with its body's type: the method's `statusError(for:)`.
    var rangeErrors: [(pattern: String, type: String)] = []
    /// The header fields the document lists for the success response: the method's `Output` has them.
    var responseHeaders: [ResponseHeader] = []
    /// The `name=value` pairs of a query the path key itself carries (`/items?beta=true`), sent on every call.
    var constantQuery: [(name: String, value: String?)] = []
}

extension ServiceGenerator {
    /// The method of `operation`, or `nil` when it cannot be expressed (reported).
    func operationModel(
        _ operation: OpenAPI.Operation,
        method: OpenAPI.HttpMethod,
        path: OpenAPI.Path,
        pathItem: OpenAPI.PathItem,
        name: String
    ) -> OperationModel? {
        let location = "#/paths/\(Diagnostic.token(path.rawValue))/\(method.rawValue.lowercased())"
        let methodNames: Set<String> = [name, "Response", "Output", "ResponseBody"]
        var scope = NameScope(reserved: Set(models.componentNames.values).union(methodNames))
        var nested: [Declaration] = []
        var names = NameScope(reserved: Self.methodRequirementNames)
        var parameters: [ParameterProperty] = []
        let pathLocation = "#/paths/\(Diagnostic.token(path.rawValue))"
        let pathLevel = pathItem.parameters.enumerated().compactMap { index, parameter in
            resolve(parameter, location: pathLocation + "/parameters/\(index)")
        }
        let own = operation.parameters.enumerated().compactMap { index, parameter in
            resolve(parameter, location: location + "/parameters/\(index)")
        }
        var merged: [OpenAPI.Parameter] = pathLevel.filter { shared in
            !own.contains { $0.name == shared.name && $0.location == shared.location }
        }
        merged += own
        for (index, parameter) in merged.enumerated() {
            let parameterLocation = location + "/parameters/\(index)"
            if parameter.location == .querystring {
                report(
                    parameterLocation,
                    "\(parameter.location.rawValue) parameter `\(parameter.name)` is not generated"
                )
                continue
            }
            var type = TypeRef.plain("String")
            var explode = true
            var parameterSchema: JSONSchema?
            switch parameter.schemaOrContent {
            case .a(let context):
                explode = context.explode
                let schema: JSONSchema
                switch context.schema {
                case .a(let reference):
                    schema = .reference(reference.jsonReference)
                case .b(let inline):
                    schema = inline
                }
                if let problem = styleProblem(context.style, location: parameter.location, schema: schema) {
                    let what = "`\(parameter.name)`: \(problem)"
                    if parameter.location == .path {
                        report(parameterLocation, "path parameter \(what); operation skipped")
                        return nil
                    }
                    report(parameterLocation, "parameter \(what); parameter not generated")
                    continue
                }
                parameterSchema = schema
                type = models.type(
                    of: parameter.location == .path ? valueSchema(of: schema, depth: 0) : schema,
                    name: SwiftNames.typeName(parameter.name),
                    location: parameterLocation + "/schema",
                    scope: &scope,
                    nested: &nested
                )
            case .b:
                report(parameterLocation, "parameter `\(parameter.name)` with `content` is sent as a String")
            }
            if parameter.location == .path {
                // A path parameter is always present: a nullable schema (`anyOf` with `null`, `type: [x, null]`,
                // `nullable`) still gives a value of its type, never `Optional(3)` in the path.
                type = type.nonOptional
            }
            let plain = type
            if !parameter.required && parameter.location != .path { type = type.optional }
            let swiftName = names.unique(SwiftNames.memberName(parameter.name))
            var property = Property(
                swiftName: swiftName,
                wireName: parameter.name,
                type: type,
                doc: parameter.description,
                deprecated: parameter.deprecated
            )
            if let parameterSchema {
                property = models.applyingDefault(property, schema: parameterSchema, type: plain, isParameter: true)
            }
            parameters.append(ParameterProperty(property: property, location: parameter.location, explode: explode))
        }
        guard
            let body = bodyKind(operation, location: location, names: &names, scope: &scope, nested: &nested)
        else { return nil }
        let headers = responseHeaders(operation, location: location)
        let response = responseType(
            operation,
            location: location,
            scope: &scope,
            nested: &nested,
            inlineName: headers.isEmpty ? "Response" : "ResponseBody"
        )
        let statusErrors = statusErrorTypes(operation, location: location, scope: &scope, nested: &nested)
        let rangeErrors = rangeErrorTypes(operation, location: location, scope: &scope, nested: &nested)
        if !operation.callbacks.isEmpty {
            for key in operation.callbacks.keys.sorted() {
                report(location + "/callbacks/\(Diagnostic.token(key))", "callbacks are not generated")
            }
        }
        var doc = [operation.summary, operation.description].compactMap { $0 }.joined(separator: "\n\n")
        doc += (doc.isEmpty ? "" : "\n\n") + "`\(method.rawValue.uppercased()) \(path.rawValue)`"
        let (pathPart, constantQuery) = Self.splittingQuery(path.rawValue)
        return OperationModel(
            name: name,
            doc: doc,
            method: method.rawValue.lowercased(),
            path: pathPart,
            deprecated: operation.deprecated,
            parameters: parameters,
            body: body,
            response: response,
            nested: nested,
            location: location,
            statusErrors: statusErrors,
            rangeErrors: rangeErrors,
            responseHeaders: headers,
            constantQuery: constantQuery
        )
    }

    /// A path key split at its first `?`: the path, and the literal `name=value` pairs of the query after it
    /// (percent-decoded; a pair without `=` has no value), which are sent on every call.
    static func splittingQuery(_ key: String) -> (path: String, query: [(name: String, value: String?)]) {
        guard let mark = key.firstIndex(of: "?") else { return (key, []) }
        let pairs = key[key.index(after: mark)...].split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in String(text).removingPercentEncoding ?? String(text) }
            return (name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : nil)
        }
        return (String(key[..<mark]), pairs.filter { !$0.name.isEmpty })
    }

    /// Names a stored property of a method must not take.
    static let methodRequirementNames: Set<String> = [
        "path", "httpMethod", "headers", "body", "options", "parametersEncoding", "hostProviderKey", "method",
        "timeout", "deadline", "acceptableStatusCodes", "statusErrors", "middlewares", "cachePolicy",
        "isLoggingEnabled", "urlInfo", "finalize", "statusError",
    ]

    /// The parameter itself, or the one its reference points to; `nil` (reported at `location`, the
    /// parameter's place in the document) when the reference points to nothing in this document.
    func resolve(
        _ parameter: Either<OpenAPI.Reference<OpenAPI.Parameter>, OpenAPI.Parameter>,
        location: String
    ) -> OpenAPI.Parameter? {
        switch parameter {
        case .b(let value):
            return value
        case .a(let reference):
            guard let value = document.components[reference] else {
                report(location, "parameter reference \(reference.absoluteString) is not in this document")
                return nil
            }
            return value
        }
    }

    /// Why a parameter's style cannot be sent as the CoreAPI encoders write it, or `nil` when it can:
    /// `form` scalars and arrays and `deepObject` objects in the query, `simple` values in the path and headers.
    func styleProblem(
        _ style: OpenAPI.Parameter.SchemaContext.Style,
        location: OpenAPI.Parameter.Context.Location,
        schema: JSONSchema
    ) -> String? {
        let isObject = isObjectLike(schema, depth: 0)
        switch location {
        case .query:
            if isObject && style != .deepObject { return "an object in `\(style.rawValue)` style is not generated" }
            if style != .form && style != .deepObject { return "the `\(style.rawValue)` style is not generated" }
        case .path, .header:
            if isObject { return "an object in a \(location.rawValue) is not generated" }
            if style != .simple { return "the `\(style.rawValue)` style is not generated" }
        default:
            break
        }
        return nil
    }

    /// For a path parameter, which is always present: the value a reference to a component that is only a
    /// nullable choice (`anyOf: [{type: integer}, {type: 'null'}]`, an optional type alias) stands for, so the
    /// parameter is of that value's type; any other schema as it is.
    func valueSchema(of schema: JSONSchema, depth: Int) -> JSONSchema {
        guard depth < 16, case .reference(let reference, _) = schema.value, let name = reference.name,
            let target = document.components.schemas[OpenAPI.ComponentKey(stringLiteral: name)]
        else { return schema }
        switch target.value {
        case .reference:
            let value = valueSchema(of: target, depth: depth + 1)
            return value == target ? schema : value
        case .one(let options, _), .any(let options, _):
            let concrete = options.filter { !$0.isNull }
            guard concrete.count == 1, concrete.count < options.count else { return schema }
            return concrete[0]
        default:
            return schema
        }
    }

    /// Whether `schema` (references followed) describes an object, or a choice or composition with one.
    func isObjectLike(_ schema: JSONSchema, depth: Int) -> Bool {
        guard depth < 16 else { return false }
        switch schema.value {
        case .object:
            return true
        case .reference(let reference, _):
            guard let name = reference.name,
                let target = document.components.schemas[OpenAPI.ComponentKey(stringLiteral: name)]
            else { return false }
            return isObjectLike(target, depth: depth + 1)
        case .all(let parts, _), .one(let parts, _), .any(let parts, _):
            return parts.contains { isObjectLike($0, depth: depth + 1) }
        default:
            return false
        }
    }
}
