#if OpenAPI
    public import CoreAPI
    import CoreAPIHTTPTypes
    public import Foundation
    public import HTTPTypes
    public import OpenAPIRuntime

    /// A transport for clients made by swift-openapi-generator that sends every request through an
    /// ``/CoreAPI/ApiSession``.
    ///
    /// Give it to the generated client as it is:
    ///
    /// ```swift
    /// let transport = ApiSessionTransport(session: session)
    /// let client = Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: transport)
    /// ```
    ///
    /// Each request is a call of the session, named after its operation ID: the session's middlewares
    /// (and ``options``' own) see it and its attempts — token refresh, retry with `Retry-After`, logging
    /// with redaction, metrics and tracing under the operation ID, an HTTP cache — and the session follows
    /// its redirects by its ``/CoreAPI/SessionPolicy`` (secrets stripped when the origin changes), ends it
    /// at the idle timeout and the deadline, holds its body to the size limit, and sends it with the
    /// session's transport, whichever it is. Cancelling the calling task ends the exchange at once.
    ///
    /// Every response is handed back, whatever its status: the generated client decides what a status
    /// means. A call that fails throws the ``/CoreAPI/ApiError`` it failed with (``/CoreAPI/ApiError/timeout``,
    /// ``/CoreAPI/ApiError/responseTooLarge(limit:)``, ``/CoreAPI/ApiError/cancelled``, a refused redirect, a
    /// transport failure), which the generated client hands on as the `underlyingError` of its
    /// `ClientError`.
    ///
    /// **Bodies.** A request body of `.multiple` iteration whose length is known and at most
    /// ``inMemoryBodyLimit`` is gathered into memory (it is in memory already: a JSON or form body);
    /// every other one is streamed as the session sends a stream (see ``/CoreAPI/ApiRequest/Stream``), with
    /// its `Content-Length` when it is known. A body of `.single` iteration is read once: an attempt
    /// that would send it again — a retry, a `307`/`308` redirect, a token refresh — fails with
    /// ``/CoreAPI/ApiError/InvalidRequestReason/bodyStreamFailed(_:)`` whose cause is ``BodyNotReplayable``,
    /// instead of sending an empty body.
    ///
    /// The body of a `2xx` response comes back as it arrives (with ``ResponseBodies/streamed``, the
    /// default): an `HTTPBody` of `.single` iteration, fed through a buffer of at most ``bufferLimit``
    /// bytes that holds the transfer back while the reader is slow, and ended by the call's size limit and
    /// deadline. The body of any other status is collected first, so that a retry or a token refresh
    /// sees it whole. A middleware sees a streamed response with an empty body, and the caller gets its
    /// head as it arrived. ``ResponseBodies/collected`` collects every body, so that every middleware sees
    /// and may change the whole response: a call through a chain with a ``ClientMiddlewareAdapter``, and a
    /// `GET` or `HEAD` through a chain with an ``/CoreAPI/HTTPCacheMiddleware`` (to store the body) or whose
    /// settings share identical calls (``/CoreAPI/CallOptions/sharesIdenticalCalls``), are collected
    /// whatever ``responseBodies`` says.
    public struct ApiSessionTransport: ClientTransport {
        /// The session every request goes through.
        public let session: ApiSession
        /// The settings of every call through this transport, over the session's
        /// ``/CoreAPI/ApiSession/defaults``; whatever ``/CoreAPI/CallOptions/acceptableStatusCodes`` says,
        /// every status is handed back.
        public var options: CallOptions
        /// Settings for one operation's calls, by operation ID, over ``options``.
        public var operationOptions: [String: CallOptions]
        /// Whether response bodies are handed on as they arrive or collected first.
        public var responseBodies: ResponseBodies
        /// The most bytes of a streamed response body that wait for the reader.
        public var bufferLimit: Int
        /// The largest request body of known length and `.multiple` iteration that is gathered into
        /// memory rather than streamed: 64 KiB unless given.
        public var inMemoryBodyLimit: Int64

        /// How response bodies come back.
        public enum ResponseBodies: Sendable, Hashable {
            /// A `2xx` response's body as it arrives, under the call's limits; others collected first.
            case streamed
            /// Every body collected, within the call's size limit, before the response is handed back.
            case collected
        }

        /// Creates a transport over `session`.
        /// - Parameters:
        ///   - session: The session every request goes through.
        ///   - options: The settings of every call, over the session's defaults.
        ///   - operationOptions: Settings for one operation's calls, by operation ID, over `options`.
        ///   - responseBodies: Whether response bodies are streamed (the default) or collected.
        ///   - bufferLimit: The most bytes of a streamed body that wait for the reader;
        ///     ``/CoreAPI/StreamedResponse/Body/defaultBufferLimit`` unless given.
        ///   - inMemoryBodyLimit: The largest request body gathered into memory; 64 KiB unless given.
        public init(
            session: ApiSession,
            options: CallOptions = CallOptions(),
            operationOptions: [String: CallOptions] = [:],
            responseBodies: ResponseBodies = .streamed,
            bufferLimit: Int = StreamedResponse.Body.defaultBufferLimit,
            inMemoryBodyLimit: Int64 = 64 * 1024
        ) {
            self.session = session
            self.options = options
            self.operationOptions = operationOptions
            self.responseBodies = responseBodies
            self.bufferLimit = bufferLimit
            self.inMemoryBodyLimit = inMemoryBodyLimit
        }

        /// Sends `request` with `body` to the server at `baseURL` through the session, as a call named
        /// `operationID`, and returns the response, whatever its status.
        /// - Parameters:
        ///   - request: The request; its path (with the query) is appended to `baseURL`.
        ///   - body: The request body, if any.
        ///   - baseURL: The server URL.
        ///   - operationID: The operation's ID, the call's name for middlewares.
        /// - Returns: The response and its body; no body for a `HEAD` request.
        /// - Throws: The ``/CoreAPI/ApiError`` the call failed with, or an error a middleware threw.
        public func send(
            _ request: HTTPRequest,
            body: HTTPBody?,
            baseURL: URL,
            operationID: String
        ) async throws -> (HTTPResponse, HTTPBody?) {
            var settings = options
            if let own = operationOptions[operationID] {
                settings = settings.merging(own)
            }
            settings.acceptableStatusCodes = OpenAPIOperation.everyStatus
            let method = HTTPMethod(request.method)
            let operation = OpenAPIOperation(
                target: try Self.url(of: request, baseURL: baseURL),
                verb: method,
                fields: Headers(request.headerFields),
                bodyEncoding: .init(body: try await Self.requestBody(body, inMemoryLimit: inMemoryBodyLimit)),
                callOptions: settings
            )
            var streamsBody: (@Sendable (ResponseHead) -> Bool)?
            if !collects(method, settings: settings) {
                streamsBody = { head in (200..<300).contains(head.statusCode) }
            }
            let response = try await session.handThrough(
                operation,
                name: operationID,
                streamsBody: streamsBody,
                bufferLimit: bufferLimit
            )
            let head = HTTPResponse(response.head)
            guard method != .head else { return (head, nil) }
            return (head, Self.responseBody(response))
        }

        /// Whether the responses of a `method` call with `settings` are collected: when so configured; when
        /// the chain has a ``ClientMiddlewareAdapter``, which hands the whole response to its middleware; and for
        /// a `GET` or `HEAD` that an HTTP cache may store or that may share an identical call.
        private func collects(_ method: HTTPMethod, settings: CallOptions) -> Bool {
            if responseBodies == .collected { return true }
            let chain = session.middlewares + session.defaults.middlewares + settings.middlewares
            if chain.contains(where: { $0 is ClientMiddlewareAdapter }) { return true }
            guard method == .get || method == .head else { return false }
            if session.defaults.sharesIdenticalCalls || settings.sharesIdenticalCalls { return true }
            return chain.contains { $0 is HTTPCacheMiddleware }
        }

        /// The URL of `request`: its path and query after `baseURL`, as swift-openapi's own transports
        /// join them.
        /// - Throws: ``/CoreAPI/ApiError/invalidRequest(_:)`` when they do not make a URL.
        static func url(of request: HTTPRequest, baseURL: URL) throws -> URL {
            var text = baseURL.absoluteString
            if text.hasSuffix("/") { text.removeLast() }
            text += request.path ?? ""
            guard let url = URL(string: text) else {
                throw ApiError.invalidRequest(.invalidURL(text))
            }
            return url
        }
    }
#endif
