import OpenAPIKit

/// A header field the document lists for an operation's success response.
struct ResponseHeader {
    var swiftName: String
    var wireName: String
    /// `String`, `Int`, `Double` or `Bool`.
    var type: String
    var doc: String?
}

extension ServiceGenerator {
    /// The header fields of the response `responseType(_:location:scope:nested:inlineName:)` reads: the first
    /// success status's, or the `default` one's when no success status is listed.
    func responseHeaders(_ operation: OpenAPI.Operation, location: String) -> [ResponseHeader] {
        var successes = operation.responses.filter { $0.key.isSuccess }.sorted { $0.key.rawValue < $1.key.rawValue }
        if successes.isEmpty { successes = operation.responses.filter { $0.key.value == .default } }
        guard let (status, outcome) = successes.first.map({ ($0.key, $0.value) }),
            let response = document.components[outcome], let headers = response.headers
        else { return [] }
        var names = NameScope(reserved: ["value", "response"])
        var result: [ResponseHeader] = []
        for entry in headers {
            guard let header = document.components[entry.value] else {
                report(
                    location + "/responses/\(status.rawValue)/headers/\(Diagnostic.token(entry.key))",
                    "a header reference is not in this document; header not generated"
                )
                continue
            }
            var type = "String"
            if case .a(let context) = header.schemaOrContent, case .b(let schema) = context.schema {
                switch schema.value {
                case .integer: type = "Int"
                case .number: type = "Double"
                case .boolean: type = "Bool"
                default: break
                }
            }
            var doc = "`\(entry.key)`" + (header.description.map { ": \($0)" } ?? ".")
            if header.required { doc += "\n\nThe document says the response always has it." }
            result.append(
                ResponseHeader(
                    swiftName: names.unique(SwiftNames.memberName(entry.key)),
                    wireName: entry.key,
                    type: type,
                    doc: doc
                )
            )
        }
        return result
    }

    /// The method's `Output`: the response, with the header fields the document lists as typed properties,
    /// and the `finalize(_:)` that makes it.
    func writeResponseHeaders(_ operation: OperationModel, to writer: inout SourceWriter) {
        guard !operation.responseHeaders.isEmpty else { return }
        let access = writer.access
        writer.line()
        writer.doc(nil, public: "The response with its header fields as properties.")
        writer.block("\(access)func finalize(_ response: Response) async throws -> Output") { writer in
            writer.line("Output(response: response)")
        }
        writer.line()
        // A JSON value encodes as it was sent, so the output stands where the value did.
        let encodable = operation.response.isJSONResponse
        writer.doc(
            "The response, with the header fields the document lists for it as properties; the value's members"
                + " are reachable directly" + (encodable ? ", and it encodes as the value." : ".")
        )
        writer.line("@dynamicMemberLookup")
        writer.block("\(access)struct Output: Sendable\(encodable ? ", Encodable" : "")") { writer in
            let value = operation.response.code
            writer.line("/// The value, status, header fields and URL of the response.")
            writer.line("\(access)var response: Response")
            writer.line()
            writer.line("/// The decoded body.")
            writer.line("\(access)var value: \(value) { response.value }")
            for header in operation.responseHeaders {
                writer.doc(header.doc)
                let text = "response.headers[\"\(header.wireName.swiftLiteral)\"]"
                let value = header.type == "String" ? text : "\(text).flatMap { \(header.type)($0) }"
                let line = "\(access)var \(SwiftNames.escaped(header.swiftName)): \(header.type)? { \(value) }"
                if writer.fits(line) {
                    writer.line(line)
                } else {
                    writer.block("\(access)var \(SwiftNames.escaped(header.swiftName)): \(header.type)?") { writer in
                        writer.line(value)
                    }
                }
            }
            writer.line()
            writer.line("/// A member of `value`.")
            writer.block("\(access)subscript<Member>(dynamicMember keyPath: KeyPath<\(value), Member>) -> Member") {
                writer in
                writer.line("value[keyPath: keyPath]")
            }
            if encodable {
                writer.line()
                writer.line("/// Encodes `value`.")
                writer.block("\(access)func encode(to encoder: any Encoder) throws") { writer in
                    writer.line("try value.encode(to: encoder)")
                }
            }
        }
    }
}
