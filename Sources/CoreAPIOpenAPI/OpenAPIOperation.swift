#if OpenAPI
    import CoreAPI
    import Foundation

    /// One request of a generated client as a call of the session: its URL, method, header fields and
    /// body as they are, every status accepted (the generated client judges it), and the transport's
    /// settings for its operation.
    struct OpenAPIOperation: ApiMethod {
        typealias Response = Data

        /// Where the request goes: the server URL and the operation's path and query.
        let target: URL
        /// The request method.
        let verb: HTTPMethod
        /// The request's header fields, in order.
        let fields: Headers
        /// The body, set on the request as the parameters' encoding.
        let bodyEncoding: BodyEncoding
        /// The settings of this operation's calls, every status accepted.
        let callOptions: CallOptions

        /// Every status a server may send.
        static let everyStatus = CallOptions.AcceptableStatusCodes([100..<1000])

        var hostProviderKey: String { "" }
        var httpMethod: HTTPMethod { verb }
        var headers: Headers { fields }
        var parametersEncoding: any ParametersEncoding { bodyEncoding }
        var options: CallOptions { callOptions }

        func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
            .url(target)
        }

        /// Nothing: the request is made already, and its body is set by ``bodyEncoding``.
        func encode(to encoder: any Encoder) throws {}

        /// Sets a body made ahead on the request and encodes nothing; a streamed body's `Content-Length`
        /// is its declared length, or none when it has none, as ``/CoreAPI/RequestBody`` sets it.
        struct BodyEncoding: ParametersEncoding {
            let body: ApiRequest.Body

            func encode(_ parameters: any Encodable, in request: ApiRequest) throws -> ApiRequest {
                var request = request
                switch body {
                case .none:
                    return request
                case .stream(let stream):
                    if let length = stream.length {
                        request.headers.set(String(length), for: "Content-Length")
                    } else {
                        request.headers.remove("Content-Length")
                    }
                case .data, .file:
                    break
                }
                request.body = body
                return request
            }
        }
    }
#endif
