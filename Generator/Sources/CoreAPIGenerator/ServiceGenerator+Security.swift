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
    }

    /// The schemes sent in a header (HTTP Bearer and Basic, OAuth 2 and OpenID Connect tokens as Bearer, API
    /// keys in a header or a cookie); the others are reported.
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
            case .apiKey(_, .query):
                report(location, "an API key in the query is not mapped: add it as a parameter or in a middleware")
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
            for (index, function) in functions.enumerated() {
                if index > 0 { writer.line() }
                writer.doc(function.doc)
                let signature = "static func \(function.name)(\(function.signature)) -> HeadersMiddleware"
                writer.block(writer.access + signature) { writer in
                    if function.signature.hasPrefix("user:") {
                        writer.line("HeadersMiddleware(\(function.headers))")
                    } else {
                        writer.line("HeadersMiddleware { \(function.headers) }")
                    }
                }
            }
        }
    }
}
