#if Tracing
    public import CoreAPI
    import Foundation
    public import Tracing

    /// Traces every call with swift-distributed-tracing: an `INTERNAL` span per call and a `CLIENT` span
    /// per HTTP request on the wire, with the request's `traceparent` injected; build with the package's
    /// `Tracing` trait to get it.
    ///
    /// Place it first in the session's middlewares. The call's span is named after the method's type
    /// (`GetUser`) and is the parent of one `CLIENT` span per exchange — each attempt and each redirect
    /// hop, seen through ``/CoreAPI/MiddlewareContext/withEachExchange(_:perform:)`` — named after the HTTP method
    /// (`GET`). Each `CLIENT` span's context is injected into its request with the tracer's injector
    /// (W3C `traceparent` with an OpenTelemetry tracer), replacing a field of the same name, so the
    /// server sees exactly one per request.
    ///
    /// Attributes follow the OpenTelemetry HTTP-client conventions: `http.request.method`,
    /// `server.address`, `server.port`, `url.scheme`, `url.full` with secrets redacted (user
    /// information and secret query parameters, the session's ``/CoreAPI/SessionPolicy/secrets`` included),
    /// `http.response.status_code`, `http.request.resend_count` (0 for the first request of the call),
    /// and `coreapi.method`. No header value is recorded. A `CLIENT` span with a status of 400 or more,
    /// and a call span whose status the method does not accept, get the error status and `error.type`
    /// (the status code); a thrown error is recorded on the spans it crosses, with `error.type` its
    /// ``/CoreAPI/ApiError/Category``. A span that records nothing (one a sampler dropped,
    /// or the no-op tracer's) gets no attribute, status or error, which would be made for nothing; its
    /// context is still injected, and it is ended.
    ///
    /// **Over AsyncHTTPClient.** AsyncHTTPClient 1.37 makes a `CLIENT` span and injects `traceparent`
    /// itself with the tracer of its client's configuration, recording the full URL with its query as
    /// it is. The `CLIENT` span of each request is this middleware's: `AsyncHTTPClientTransport`'s
    /// client configuration (`makeClientConfiguration()`, which the transport's own client is made
    /// with) turns AsyncHTTPClient's tracing off, so there is one `CLIENT` span and one `traceparent`
    /// per request, with secrets redacted. A client of your own made another way keeps its tracing and
    /// would add a second `CLIENT` span: set its `configuration.tracing.tracer` to `nil`.
    ///
    /// ```swift
    /// let session = ApiSession(hostProvider: hosts, middlewares: [TracingMiddleware()])
    /// ```
    public struct TracingMiddleware: Middleware {
        /// The tracer spans are made with; `nil` for `InstrumentationSystem.tracer` at each call.
        public let tracer: (any Tracer)?

        /// Creates a tracing middleware.
        /// - Parameter tracer: The tracer spans are made with; the globally bootstrapped one
        ///   (`InstrumentationSystem.tracer`, read at each call) unless given.
        public init(tracer: (any Tracer)? = nil) {
            self.tracer = tracer
        }

        /// `true`: its spans are started and ended without waiting, so a call with it needs no task of its own
        /// (see ``/CoreAPI/Middleware/waitsOnlyInNext``).
        public var waitsOnlyInNext: Bool { true }

        /// Runs the call in its span and each of its exchanges in a `CLIENT` span.
        /// - Parameters:
        ///   - request: The request as the previous steps left it.
        ///   - context: The method, for its type name and acceptable status codes.
        ///   - next: Sends the request through the rest of the chain.
        /// - Returns: The response of `next`, unchanged.
        /// - Throws: The error of `next`, unchanged.
        public func intercept(
            _ request: ApiRequest,
            context: MiddlewareContext,
            next: @Sendable (ApiRequest) async throws -> RawResponse
        ) async throws -> RawResponse {
            let tracer = tracer ?? InstrumentationSystem.tracer
            let methodName = context.methodName
            // `withSpan` by hand: its generic code, run for any tracer, costs more than the few steps.
            let span = tracer.startSpan(methodName, ofKind: .internal)
            defer { span.end() }
            // A span that records nothing (the no-op tracer's) gets no attributes and no status, which
            // would be made for nothing: the URL's redaction, for which the session's policy is read, among
            // them. Whether a span records is decided when it starts.
            let session = context.session
            let recording = span.isRecording
            let redaction = recording ? Secrets.Redaction(secrets: session.policy.secrets) : nil
            if let redaction {
                Self.describe(request, methodName: methodName, redaction: redaction, in: span)
            }
            let exchanges = SharedCounter()  // the call's exchanges so far, for `http.request.resend_count`
            do {
                let response = try await ServiceContext.$current.withValue(span.context) {
                    try await context.withEachExchange(
                        { request, send in
                            try await Self.exchange(
                                request,
                                number: exchanges.next(),
                                methodName: methodName,
                                redaction: redaction,
                                session: session,
                                tracer: tracer,
                                send: send
                            )
                        },
                        perform: { try await next(request) }
                    )
                }
                if recording {
                    Self.record(
                        response,
                        failed: !context.options.acceptableStatusCodes.contains(response.statusCode),
                        on: span
                    )
                }
                return response
            } catch {
                if recording {
                    Self.record(error, on: span)
                }
                throw error
            }
        }

        /// Sends one exchange in a `CLIENT` span, with the span's context injected into its header fields.
        ///
        /// The span is started and ended here rather than with `withSpan`: nothing below runs code that
        /// would read the current context (the transport's own tracing is off), so it is not bound as a
        /// task-local value for the exchange, which spares that for every request on the wire.
        private static func exchange(
            _ request: ApiRequest,
            number: Int,
            methodName: String,
            redaction: Secrets.Redaction?,
            session: ApiSession,
            tracer: any Tracer,
            send: @Sendable (ApiRequest) async throws -> RawResponse
        ) async throws -> RawResponse {
            let span = tracer.startSpan(request.method.rawValue, ofKind: .client)
            defer { span.end() }
            let recording = span.isRecording
            if recording {
                let redaction = redaction ?? Secrets.Redaction(secrets: session.policy.secrets)
                describe(request, methodName: methodName, redaction: redaction, in: span)
                span.attributes["http.request.resend_count"] = number
            }
            var request = request
            tracer.inject(span.context, into: &request.headers, using: HeadersInjector())
            do {
                let response = try await send(request)
                if recording {
                    record(response, failed: response.statusCode >= 400, on: span)
                }
                return response
            } catch {
                if recording {
                    record(error, on: span)
                }
                throw error
            }
        }

        /// Sets the status code of `response` on `span`, which records, and marks the span failed when
        /// `failed`.
        private static func record(_ response: RawResponse, failed: Bool, on span: any Span) {
            span.attributes["http.response.status_code"] = response.statusCode
            if failed {
                span.attributes["error.type"] = String(response.statusCode)
                span.setStatus(SpanStatus(code: .error))
            }
        }

        /// Records `error` on `span`, which records: the error itself, the error status, and the error's
        /// category as the span's `error.type`.
        private static func record(_ error: any Error, on span: any Span) {
            span.attributes["error.type"] = String(describing: ApiError.Category(error))
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
        }

        /// Sets the request's attributes on `span`, which records: nothing secret, the URL redacted.
        private static func describe(
            _ request: ApiRequest,
            methodName: String,
            redaction: Secrets.Redaction,
            in span: any Span
        ) {
            let scheme = request.url.scheme?.lowercased() ?? ""
            span.attributes["coreapi.method"] = methodName
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["server.address"] = request.url.host ?? ""
            span.attributes["server.port"] = request.url.port ?? (scheme == "https" ? 443 : 80)
            span.attributes["url.scheme"] = scheme
            span.attributes["url.full"] = redaction.redact(request.url)
        }
    }

    extension TracingMiddleware {
        /// Sets injected values as header fields, replacing fields of the same name.
        private struct HeadersInjector: Injector {
            func inject(_ value: String, forKey key: String, into carrier: inout Headers) {
                carrier.set(value, for: key)
            }
        }
    }
#endif
