#if Metrics
    public import CoreAPI
    public import Metrics
    import Dispatch
    import Foundation

    /// Records the OpenTelemetry HTTP-client metrics of every request and a duration per call with
    /// swift-metrics; build with the package's `Metrics` trait to get it.
    ///
    /// Per HTTP request on the wire — each attempt and each redirect hop, seen through
    /// ``/CoreAPI/MiddlewareContext/withEachExchange(_:perform:)`` wherever the middleware sits:
    /// - `http.client.request.duration`, a timer (displayed in seconds): from sending the request to the
    ///   end of its body, with `http.request.method`, `server.address`, `server.port`, `url.scheme`,
    ///   `coreapi.method`, and `http.response.status_code` when a response came; a failure or a status
    ///   of 400 or more adds `error.type` — the status code (`503`) or the failure's
    ///   ``/CoreAPI/ApiError/Category`` (`timeout`, `network`, `offline`, `cancelled`, …) — so
    ///   failures are counted by `error.type`;
    /// - `http.client.active_requests`, a meter raised while a request is in flight, with
    ///   `http.request.method`, `server.address`, `server.port` and `url.scheme`.
    ///
    /// Per call, once, as the middleware sees it (place it first to include retries):
    /// `coreapi.client.call.duration`, a timer with `http.request.method`, `server.address`,
    /// `coreapi.method`, `http.response.status_code`, and `error.type` when the call failed or its status
    /// is one the method does not accept.
    ///
    /// Every dimension is bounded: the endpoint is the method's type name (`coreapi.method`), never a URL
    /// or a path that holds identifiers, and a method outside the registered ones is `_OTHER`. No header
    /// value or parameter is recorded.
    ///
    /// ```swift
    /// let session = ApiSession(hostProvider: hosts, middlewares: [MetricsMiddleware()])
    /// ```
    public struct MetricsMiddleware: Middleware {
        /// The factory metrics are made with.
        public var factory: any MetricsFactory { shared.factory }

        /// The factory, and the server read last, shared by every call through this middleware.
        let shared: Shared

        /// Creates a metrics middleware.
        /// - Parameter factory: The factory metrics are made with; the one `MetricsSystem` was
        ///   bootstrapped with unless given (a test passes MetricsTestKit's `TestMetrics`).
        public init(factory: any MetricsFactory = MetricsSystem.factory) {
            shared = Shared(factory: factory)
        }

        /// `true`: its recorders are fed without waiting, so a call with it needs no task of its own
        /// (see ``/CoreAPI/Middleware/waitsOnlyInNext``).
        public var waitsOnlyInNext: Bool { true }

        /// Passes the request on and records the metrics of each of its exchanges and of the call.
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
            let shared = shared
            let methodName = context.methodName
            let start = DispatchTime.now().uptimeNanoseconds
            // The server of the call's own URL, read once: every exchange but a redirect hop's goes there.
            let url = request.url
            var dimensions = Dimensions(
                method: Self.method(of: request),
                server: shared.server(of: url),
                methodName: methodName,
                status: 0,
                failed: false
            )
            let server = dimensions.server
            let response: RawResponse
            do {
                response = try await context.withEachExchange(
                    { request, send in
                        try await Self.measure(
                            request,
                            server: request.url == url ? server : shared.server(of: request.url),
                            methodName: methodName,
                            shared: shared,
                            send: send
                        )
                    },
                    perform: { try await next(request) }
                )
            } catch {
                dimensions.category = Self.category(of: error)
                Self.record(.call, since: start, label: "coreapi.client.call.duration", of: dimensions, shared: shared)
                throw error
            }
            dimensions.status = response.statusCode
            dimensions.failed = !context.options.acceptableStatusCodes.contains(response.statusCode)
            Self.record(.call, since: start, label: "coreapi.client.call.duration", of: dimensions, shared: shared)
            return response
        }

        /// Sends one request on the wire to `server` and records its duration and, while it is in
        /// flight, the active-requests meter. Inlined into the exchange wrapper, so an exchange takes no
        /// async frame of its own for it.
        @inline(__always)
        private static func measure(
            _ request: ApiRequest,
            server: Server,
            methodName: String,
            shared: Shared,
            send: @Sendable (ApiRequest) async throws -> RawResponse
        ) async throws -> RawResponse {
            // The meter's dimensions, then the same with the method's type name and the request's outcome
            // for its timer.
            var dimensions = Dimensions(
                method: method(of: request),
                server: server,
                methodName: "",
                status: 0,
                failed: false
            )
            let active = shared.factory.makeMeter(
                label: "http.client.active_requests",
                dimensions: shared.list(.meter, of: dimensions)
            )
            active.increment(by: 1)
            defer { active.decrement(by: 1) }
            let start = DispatchTime.now().uptimeNanoseconds
            dimensions.methodName = methodName
            let response: RawResponse
            do {
                response = try await send(request)
            } catch {
                dimensions.category = category(of: error)
                record(.request, since: start, label: "http.client.request.duration", of: dimensions, shared: shared)
                throw error
            }
            dimensions.status = response.statusCode
            dimensions.failed = response.statusCode >= 400
            record(.request, since: start, label: "http.client.request.duration", of: dimensions, shared: shared)
            return response
        }

        /// The `error.type` of a request or call that threw: its
        /// ``/CoreAPI/ApiError/Category``.
        private static func category(of error: any Error) -> String {
            String(describing: ApiError.Category(error))
        }

        /// Records the time since `start` in a timer `label`, displayed in seconds, with the dimensions
        /// of a record of `kind` made from `dimensions`.
        ///
        /// The meter and timers are the factory's handlers themselves, as `Meter` and `Timer` would hold
        /// them: the wrapper objects would be made and released on every request for nothing.
        private static func record(
            _ kind: Dimensions.Kind,
            since start: UInt64,
            label: String,
            of dimensions: Dimensions,
            shared: Shared
        ) {
            let timer = shared.factory.makeTimer(label: label, dimensions: shared.list(kind, of: dimensions))
            timer.preferDisplayUnit(.seconds)
            timer.recordNanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds - start))
        }

        /// The request's method as the conventions name it: one of the nine registered ones, else
        /// `_OTHER`. A switch compares the few bytes of a short string; a set would hash it.
        static func method(of request: ApiRequest) -> String {
            let method = request.method.rawValue
            switch method {
            case "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH": return method
            default: return "_OTHER"
            }
        }
    }
#endif
