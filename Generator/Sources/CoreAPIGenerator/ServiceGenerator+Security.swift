import OpenAPIKit

extension ServiceGenerator {
    /// One security scheme as a function that makes the middleware sending its credential.
    struct AuthFunction {
        var name: String
        var doc: String
        var signature: String
        var headers: String
        /// The header that carries an API key, which is not secret unless the session's policy says so.
        var keyHeader: String? = nil
        /// The query parameter that carries an API key: the function makes the family's query-key middleware.
        var queryKey: String? = nil
    }

    /// The schemes sent in a header (HTTP Bearer and Basic, OAuth 2 and OpenID Connect tokens as Bearer, API
    /// keys in a header or a cookie) or in the query (an API key); the others are reported.
    func authFunctions() -> [AuthFunction] {
        var names = NameScope()
        var result: [AuthFunction] = []
        for (key, value) in document.components.securitySchemes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let location = "#/components/securitySchemes/\(Diagnostic.token(key.rawValue))"
            guard let scheme = document.components[value] else {
                report(location, "a security scheme reference is not in this document")
                continue
            }
            let name = names.unique(SwiftNames.memberName(key.rawValue))
            let described = scheme.description.map { "\n\n" + $0 } ?? ""
            let token = "token: @escaping @Sendable () async throws -> String"
            switch scheme.type {
            case .http(let kind, _) where kind.lowercased() == "bearer":
                result.append(
                    AuthFunction(
                        name: name,
                        doc: "`\(key.rawValue)`: a Bearer token in `Authorization`, asked for on every request."
                            + described,
                        signature: token,
                        headers: "[\"Authorization\": \"Bearer \\(try await token())\"]"
                    )
                )
            case .http(let kind, _) where kind.lowercased() == "basic":
                result.append(
                    AuthFunction(
                        name: name,
                        doc: "`\(key.rawValue)`: HTTP Basic credentials in `Authorization`." + described,
                        signature: "user: String, password: String",
                        headers:
                            "[\"Authorization\": \"Basic \\(Data(\"\\(user):\\(password)\".utf8).base64EncodedString())\"]"
                    )
                )
            case .oauth2, .openIdConnect:
                result.append(
                    AuthFunction(
                        name: name,
                        doc: "`\(key.rawValue)`: an OAuth 2 access token as a Bearer token in `Authorization`; getting"
                            + " and refreshing it is the app's." + described,
                        signature: token,
                        headers: "[\"Authorization\": \"Bearer \\(try await token())\"]"
                    )
                )
            case .apiKey(let field, .header):
                result.append(
                    AuthFunction(
                        name: name,
                        doc: "`\(key.rawValue)`: an API key in the `\(field)` header." + described,
                        signature: "key: @escaping @Sendable () async throws -> String",
                        headers: "[\"\(field.swiftLiteral)\": try await key()]",
                        keyHeader: field
                    )
                )
            case .apiKey(let field, .cookie):
                result.append(
                    AuthFunction(
                        name: name,
                        doc: "`\(key.rawValue)`: an API key in the `\(field)` cookie." + described,
                        signature: "key: @escaping @Sendable () async throws -> String",
                        headers: "[\"Cookie\": \"\(field.swiftLiteral)=\\(try await key())\"]"
                    )
                )
            case .apiKey(let field, .query):
                result.append(
                    AuthFunction(
                        name: name,
                        doc: "`\(key.rawValue)`: an API key in the `\(field)` query parameter." + described,
                        signature: "key: @escaping @Sendable () async throws -> String",
                        headers: "",
                        queryKey: field
                    )
                )
            default:
                report(location, "\(scheme.type.name.rawValue) security is not mapped to a middleware")
            }
        }
        return result
    }

    /// `enum <Family>Auth` with a function per scheme, when there is any.
    func writeAuth(to writer: inout SourceWriter) {
        let functions = authFunctions()
        guard !functions.isEmpty else { return }
        writer.line()
        writer.doc(
            "The document's security schemes as middlewares: add the one a method needs to the session's or the"
                + " method's middlewares."
        )
        writer.block("\(writer.access)enum \(familyName)Auth") { writer in
            let keyHeaders = functions.compactMap(\.keyHeader).sorted()
            if !keyHeaders.isEmpty {
                writer.doc(
                    "The headers that carry API keys: name them in the session's `SessionPolicy` secrets"
                        + " (`Secrets(headerNames:)`) so logs and redirects treat them as `Authorization` is treated."
                )
                let names = keyHeaders.map { "\"\($0.swiftLiteral)\"" }.joined(separator: ", ")
                writer.line("\(writer.access)static let secretHeaderNames: Set<String> = [\(names)]")
                writer.line()
            }
            let queryKeys = functions.compactMap(\.queryKey).sorted()
            if !queryKeys.isEmpty {
                writer.doc(
                    "The query parameters that carry API keys: name them in the session's `SessionPolicy` secrets"
                        + " (`Secrets(parameterKeys:)`) so logs, cURL output and cache keys redact them."
                )
                let names = queryKeys.map { "\"\($0.swiftLiteral)\"" }.joined(separator: ", ")
                writer.line("\(writer.access)static let secretParameterKeys: Set<String> = [\(names)]")
                writer.line()
            }
            for (index, function) in functions.enumerated() {
                if index > 0 { writer.line() }
                writer.doc(function.doc)
                let type = function.queryKey == nil ? "HeadersMiddleware" : "\(familyName)QueryKey"
                let signature = "static func \(function.name)(\(function.signature)) -> \(type)"
                writer.block(writer.access + signature) { writer in
                    if let field = function.queryKey {
                        writer.line("\(familyName)QueryKey(name: \"\(field.swiftLiteral)\", key: key)")
                    } else if function.signature.hasPrefix("user:") {
                        writer.line("HeadersMiddleware(\(function.headers))")
                    } else {
                        writer.line("HeadersMiddleware { \(function.headers) }")
                    }
                }
            }
        }
        if functions.contains(where: { $0.queryKey != nil }) { writeQueryKey(to: &writer) }
    }

    /// `struct <Family>QueryKey`, the middleware that adds an API key to every request's query.
    func writeQueryKey(to writer: inout SourceWriter) {
        let access = writer.access
        writer.line()
        writer.doc("Adds an API key to the query of every request, as `name=key`, the key asked for on every request.")
        writer.block("\(access)struct \(familyName)QueryKey: Middleware") { writer in
            writer.line("/// The query parameter's name.")
            writer.line("\(access)let name: String")
            writer.line("/// Gives the key.")
            writer.line("\(access)let key: @Sendable () async throws -> String")
            if writer.isPublic {
                writer.line()
                writer.line("/// Creates the middleware for the parameter `name`.")
                writer.block("\(access)init(name: String, key: @escaping @Sendable () async throws -> String)") {
                    writer in
                    writer.line("self.name = name")
                    writer.line("self.key = key")
                }
            }
            writer.line()
            writer.line("/// Sends `request` with the key added to its query.")
            writer.line("/// - Throws: `ApiError.invalidRequest` when the request's URL cannot take a query.")
            writer.line("\(access)func intercept(")
            writer.line("    _ request: ApiRequest,")
            writer.line("    context: MiddlewareContext,")
            writer.line("    next: @Sendable (ApiRequest) async throws -> RawResponse")
            writer.block(") async throws -> RawResponse") { writer in
                let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                writer.line("let kept = CharacterSet(charactersIn: \"\(letters)-._~\")")
                writer.line(
                    "let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: kept) ?? text }"
                )
                writer.line("let item = encode(name) + \"=\" + encode(try await key())")
                writer.line("var request = request")
                writer.line(
                    "guard var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else {"
                )
                writer.line("    throw ApiError.invalidRequest(.invalidURL(\"the request's URL cannot take a query\"))")
                writer.line("}")
                writer.line("let query = components.percentEncodedQuery ?? \"\"")
                writer.line("components.percentEncodedQuery = query.isEmpty ? item : query + \"&\" + item")
                writer.block("guard let url = components.url else") { writer in
                    writer.line("throw ApiError.invalidRequest(.invalidURL(\"the request's URL cannot take a query\"))")
                }
                writer.line("request.url = url")
                writer.line("return try await next(request)")
            }
        }
    }
}
