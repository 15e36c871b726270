#if HTTPTypes
    public import CoreAPI
    public import Foundation
    public import HTTPTypes

    extension HTTPRequest {
        /// The head of `request` as swift-http-types' request, for code built on it (swift-openapi,
        /// Hummingbird, Vapor): its method, the scheme, authority and path with query of its URL, and
        /// its header fields in order, a repeated name as separate fields. The body is not part of it.
        ///
        /// A field whose name is not a valid token is left out; ``/CoreAPI/ApiSession`` would refuse it anyway.
        /// - Parameter request: The request to convert.
        public init(_ request: ApiRequest) {
            let components = URLComponents(url: request.url, resolvingAgainstBaseURL: true)
            var path = components?.percentEncodedPath ?? request.url.path
            if path.isEmpty { path = "/" }
            if let query = components?.percentEncodedQuery { path += "?" + query }
            var authority = components?.percentEncodedHost ?? request.url.host ?? ""
            if let port = components?.port { authority += ":\(port)" }
            self.init(
                method: HTTPRequest.Method(request.method.rawValue) ?? .get,
                scheme: request.url.scheme,
                authority: authority,
                path: path,
                headerFields: HTTPFields(request.headers)
            )
        }
    }

    extension ApiRequest {
        /// A request with the method, URL and header fields of swift-http-types' `request`, and `body`.
        /// - Parameters:
        ///   - request: The request to convert; it needs a scheme and an authority, which make the URL
        ///     with its path.
        ///   - body: The body; none unless given.
        /// - Throws: ``/CoreAPI/ApiError/invalidRequest(_:)`` with ``/CoreAPI/ApiError/InvalidRequestReason/invalidURL(_:)``
        ///   when `request` has no scheme or authority, or they do not make a URL.
        public init(_ request: HTTPRequest, body: Body = .none) throws {
            let text = "\(request.scheme ?? "")://\(request.authority ?? "")\(request.path ?? "/")"
            guard request.scheme != nil, request.authority != nil, let url = URL(string: text) else {
                throw ApiError.invalidRequest(.invalidURL(text))
            }
            self.init(
                method: HTTPMethod(rawValue: request.method.rawValue),
                url: url,
                headers: Headers(request.headerFields),
                body: body
            )
        }
    }

    extension HTTPResponse {
        /// The status and header fields of `head` as swift-http-types' response, a repeated name as
        /// separate fields; a field whose name is not a valid token is left out.
        /// - Parameter head: The response head to convert.
        public init(_ head: ResponseHead) {
            let code = (0...999).contains(head.statusCode) ? head.statusCode : 500
            self.init(
                status: HTTPResponse.Status(code: code, reasonPhrase: head.status.reasonPhrase),
                headerFields: HTTPFields(head.headers)
            )
        }
    }

    extension ResponseHead {
        /// The status and header fields of swift-http-types' `response`, as the response to `url`.
        /// - Parameters:
        ///   - response: The response to convert.
        ///   - url: The URL the response answers.
        public init(_ response: HTTPResponse, url: URL) {
            self.init(
                status: HTTPStatus(response.status.code, reasonPhrase: response.status.reasonPhrase),
                headers: Headers(response.headerFields),
                url: url
            )
        }
    }

    extension HTTPFields {
        /// `headers` as swift-http-types' fields, in order, a repeated name as separate fields; a field
        /// whose name is not a valid token is left out.
        /// - Parameter headers: The header fields to convert.
        public init(_ headers: Headers) {
            self.init()
            for field in headers.fields {
                if let name = HTTPField.Name(field.name) {
                    append(HTTPField(name: name, value: field.value))
                }
            }
        }
    }

    extension Headers {
        /// swift-http-types' `fields`, in order, a repeated name as separate fields, names as they were
        /// first written.
        /// - Parameter fields: The fields to convert.
        public init(_ fields: HTTPFields) {
            self.init(fields.map { Headers.Field(name: $0.name.rawName, value: $0.value) })
        }
    }

    extension HTTPMethod {
        /// swift-http-types' `method`.
        /// - Parameter method: The method to convert.
        public init(_ method: HTTPRequest.Method) {
            self.init(rawValue: method.rawValue)
        }
    }
#endif
