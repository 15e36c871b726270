#if OpenAPI
    public import CoreAPI
    import CoreAPIHTTPTypes
    import Foundation
    import HTTPTypes
    public import OpenAPIRuntime

    extension ApiSessionTransport {
        /// A swift-openapi `ClientMiddleware` as a step of CoreAPI's chain, so that a middleware written for
        /// generated clients runs for every call of an ``/CoreAPI/ApiSession``: its own methods' and those of a
        /// generated client over ``ApiSessionTransport`` alike.
        ///
        /// ```swift
        /// let adapter = ApiSessionTransport.ClientMiddlewareAdapter(requestIDMiddleware)
        /// let session = ApiSession(hostProvider: hosts, middlewares: [adapter])
        /// ```
        ///
        /// The middleware sees the request as swift-http-types' request whose path holds the path and query,
        /// with the scheme and authority as its base URL, and the call's name
        /// (``/CoreAPI/MiddlewareContext/methodName``: the operation ID for a generated client's call) as its
        /// operation ID. A body it leaves as it is goes on as it was (a file stays a file); one it replaces
        /// is sent as ``ApiSessionTransport`` sends a body. The response body it gets is the one the rest of
        /// the chain collected; a body it returns instead is collected within the call's size limit.
        public struct ClientMiddlewareAdapter: Middleware {
            /// The middleware that runs as this step.
            public let middleware: any ClientMiddleware

            /// Runs `middleware` as a step of the chain.
            /// - Parameter middleware: A swift-openapi client middleware.
            public init(_ middleware: any ClientMiddleware) {
                self.middleware = middleware
            }

            /// Hands `request` to the middleware as swift-openapi's request and `next` as its own.
            /// - Parameters:
            ///   - request: The request as the previous steps left it.
            ///   - context: The call; its name is the middleware's operation ID.
            ///   - next: The rest of the chain.
            /// - Returns: The response the middleware returned, its body collected.
            /// - Throws: What the middleware or the rest of the chain threw, or
            ///   ``/CoreAPI/ApiError/responseTooLarge(limit:)`` for a body it returned over the size limit.
            public func intercept(
                _ request: ApiRequest,
                context: MiddlewareContext,
                next: @Sendable (ApiRequest) async throws -> RawResponse
            ) async throws -> RawResponse {
                let head = HTTPRequest(request)
                let baseURL = try Self.origin(of: request.url)
                let body = Self.httpBody(of: request.body)
                let limit = context.options.maximumResponseSize ?? context.session.defaults.maximumResponseSize ?? .max
                let handedBack = HandedBack()
                let (response, responseBody) = try await middleware.intercept(
                    head,
                    body: body,
                    baseURL: baseURL,
                    operationID: context.methodName
                ) { head, newBody, baseURL in
                    var outgoing = request  // keeps a body the middleware left as it is, and how it is written
                    outgoing.method = HTTPMethod(head.method)
                    outgoing.url = try ApiSessionTransport.url(of: head, baseURL: baseURL)
                    outgoing.headers = Headers(head.headerFields)
                    if newBody !== body {
                        outgoing.body = try await ApiSessionTransport.requestBody(newBody, inMemoryLimit: 64 * 1024)
                    }
                    let raw = try await next(outgoing)
                    let responseBody = HTTPBody(raw.data)
                    handedBack.set(raw, body: responseBody)
                    return (HTTPResponse(raw.head), responseBody)
                }
                let url = handedBack.raw?.head.url ?? request.url
                let data: Data
                if let returned = handedBack.raw, let responseBody, responseBody === handedBack.body {
                    data = returned.data
                } else if let responseBody {
                    data = try await Self.collect(responseBody, upTo: limit)
                } else {
                    data = Data()
                }
                return RawResponse(head: ResponseHead(response, url: url), data: data)
            }

            /// The scheme and authority of `url`, as a base URL.
            private static func origin(of url: URL) throws -> URL {
                guard let scheme = url.scheme, let host = url.host else {
                    throw ApiError.invalidRequest(.invalidURL(url.absoluteString))
                }
                let authority = (host.contains(":") ? "[\(host)]" : host) + (url.port.map { ":\($0)" } ?? "")
                guard let origin = URL(string: "\(scheme)://\(authority)") else {
                    throw ApiError.invalidRequest(.invalidURL(url.absoluteString))
                }
                return origin
            }

            /// `body` as swift-openapi's body, read again for each reading; `nil` for none.
            private static func httpBody(of body: ApiRequest.Body) -> HTTPBody? {
                switch body {
                case .none:
                    return nil
                case .data(let data):
                    return HTTPBody(data)
                case .file(let file):
                    return HTTPBody(
                        FileChunks(url: file.url),
                        length: .known(file.length),
                        iterationBehavior: .multiple
                    )
                case .stream(let stream):
                    return HTTPBody(
                        stream.map { HTTPBody.ByteChunk($0) },
                        length: stream.length.map { .known($0) } ?? .unknown,
                        iterationBehavior: .multiple
                    )
                }
            }

            /// The bytes of `body`, at most `limit`.
            private static func collect(_ body: HTTPBody, upTo limit: Int64) async throws -> Data {
                var data = Data()
                for try await chunk in body {
                    guard Int64(data.count + chunk.count) <= limit else {
                        throw ApiError.responseTooLarge(limit: limit)
                    }
                    data.append(contentsOf: chunk)
                }
                return data
            }
        }
    }

    /// The response the rest of the chain returned, and the body made of it, as the middleware got them.
    private final class HandedBack: @unchecked Sendable {  // `value` is only read and written under `lock`
        private let lock = NSLock()
        private var value: (raw: RawResponse, body: HTTPBody)?

        var raw: RawResponse? { lock.withLock { value?.raw } }
        var body: HTTPBody? { lock.withLock { value?.body } }

        func set(_ raw: RawResponse, body: HTTPBody) {
            lock.withLock { value = (raw, body) }
        }
    }

    /// A file's bytes in chunks, from its start at each reading.
    private struct FileChunks: AsyncSequence, Sendable {
        typealias Element = HTTPBody.ByteChunk

        let url: URL

        func makeAsyncIterator() -> Iterator {
            Iterator(url: url)
        }

        struct Iterator: AsyncIteratorProtocol {
            let url: URL
            var handle: FileHandle?
            var isFinished = false

            mutating func next() async throws -> HTTPBody.ByteChunk? {
                guard !isFinished else { return nil }
                if handle == nil {
                    handle = try FileHandle(forReadingFrom: url)
                }
                guard let data = try handle?.read(upToCount: 64 * 1024), !data.isEmpty else {
                    isFinished = true
                    try handle?.close()
                    return nil
                }
                return HTTPBody.ByteChunk(data)
            }
        }
    }
#endif
