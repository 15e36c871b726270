public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Performs ``ApiMethod`` values over one owned `URLSession`.
///
/// The session builds each request (host from the ``HostProvider``, validated method and headers,
/// encoded parameters) before anything is sent: a bad request fails with
/// ``ApiError/invalidRequest(_:)`` and never reaches the network. The request then goes through the
/// ``Middleware`` chain — the session's ``middlewares``, then the method's — and the network. Tasks are
/// driven through the session's own delegate, so cancellation, authentication challenges and
/// completion behave the same on Apple platforms and Linux.
///
/// ```swift
/// let session = ApiSession(hostProvider: DictionaryHostProvider(["api": "https://api.example.com"]))
/// let user = try await session.perform(GetUser(id: 42))
/// ```
public final class ApiSession: Sendable {
    /// Where hosts come from.
    public let hostProvider: any HostProvider
    /// Header fields sent with every request: the configuration's `httpAdditionalHeaders`, then the
    /// `headers` given at creation. A method's own headers win for the same names.
    public let headers: Headers

    /// The idle timeout of methods that set none: the configuration's `timeoutIntervalForRequest`.
    public let defaultTimeout: TimeInterval

    /// The middlewares every request goes through, outermost first, before the method's own.
    public let middlewares: [any Middleware]

    /// Redirect rules and limits; see ``TransportPolicy`` for the defaults.
    public let policy: TransportPolicy
    /// `policy.strippedHeaderNames`, worked out once rather than for every call.
    private let strippedHeaderNames: Set<String>

    let urlSession: URLSession
    let delegate: SessionDelegate
    /// The calls in flight, so ``cancelAllRequests()`` also ends calls waiting in a middleware.
    private let calls = CallRegistry()
    /// Open until ``invalidate()``; guards task creation, since a task made on an invalidated
    /// `URLSession` crashes on Linux.
    let gate = ClosingGate()
    /// Where tasks are created, resumed and cancelled. FoundationNetworking does each of these
    /// synchronously on its own work queue, which is busy while many transfers run. Done on threads of
    /// the Swift concurrency pool, a thousand calls starting at once held every pool thread waiting there
    /// (after 90 s only 484 of 1000 tasks were running). Cancels go here too, so `cancelAllRequests()`
    /// returns at once instead of cancelling a thousand tasks one after another on the caller's thread.
    let taskQueue = DispatchQueue(label: "CoreAPI.ApiSession.tasks")
    /// While fewer tasks than this are in flight, FoundationNetworking's work queue is quick to answer,
    /// so a call starts its task on its own thread and saves the hop to ``taskQueue`` (and the thread
    /// wake-up it costs); beyond it, tasks start on ``taskQueue``.
    static let tasksStartedInline = 16

    /// Creates a session.
    /// - Parameters:
    ///   - hostProvider: Supplies the host for each method's host key.
    ///   - configuration: The `URLSession` configuration, copied; ``makeDefaultConfiguration()`` by default.
    ///   - headers: Header fields for every request, after the configuration's `httpAdditionalHeaders`.
    ///   - middlewares: The chain every request goes through, outermost first.
    ///   - policy: Redirect rules and limits.
    public init(
        hostProvider: any HostProvider,
        configuration: URLSessionConfiguration = ApiSession.makeDefaultConfiguration(),
        headers: Headers = Headers(),
        middlewares: [any Middleware] = [],
        policy: TransportPolicy = TransportPolicy()
    ) {
        self.hostProvider = hostProvider
        self.middlewares = middlewares
        self.policy = policy
        self.strippedHeaderNames = policy.strippedHeaderNames
        // Set explicitly on each request so they are visible everywhere, URLProtocol stubs included
        // (Linux merges them only after protocols have seen the request).
        var additional = Headers()
        for case let (name as String, value as String) in configuration.httpAdditionalHeaders ?? [:] {
            additional.add(value, for: name)
        }
        self.headers = Headers(additional.sorted { $0.name < $1.name }).merging(headers)
        let delegate = SessionDelegate()
        let queue = DelegateQueue(label: "CoreAPI.ApiSession.delegate")
        self.delegate = delegate
        let configured = configuration.timeoutIntervalForRequest
        self.defaultTimeout = configured > 0 ? configured : 60
        self.urlSession = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        // URLSession keeps its delegate until invalidated; tasks in flight still finish.
        if gate.isOpen {
            urlSession.finishTasksAndInvalidate()
        }
    }

    /// Shuts the session down: calls in flight end with ``ApiError/cancelled``, and later calls fail at
    /// once with ``ApiError/InvalidRequestReason/sessionInvalidated`` without sending anything. The
    /// underlying `URLSession` is invalidated and releases its delegate. Calling it again does nothing.
    public func invalidate() {
        // Closing waits for tasks being made, and none is made after it: none on the invalidated session.
        guard gate.close() else { return }
        cancelAllRequests()
        urlSession.invalidateAndCancel()
    }

    /// Whether ``invalidate()`` was called.
    public var isValid: Bool { gate.isOpen }

    /// The configuration CoreAPI uses by default: an API client with token auth rarely needs cookies,
    /// and handling them costs a large part of each request's CPU, so cookies are off (no storage, none
    /// set or accepted) and there is no response cache. Pass a configuration with cookies on to opt in.
    ///
    /// Its `protocolClasses` are those of `URLSessionConfiguration.default` that load `http` and
    /// `https` URLs, in their order: every task looks its protocol up in that list, and an API session
    /// sends nothing else.
    public static func makeDefaultConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.protocolClasses = configuration.protocolClasses.map(httpProtocolClasses)
        return configuration
    }

    /// The classes in `classes` that load `http` or `https` requests, in their order.
    private static func httpProtocolClasses(_ classes: [AnyClass]) -> [AnyClass] {
        let probes = ["http", "https"].compactMap { URL(string: "\($0)://127.0.0.1/") }.map { URLRequest(url: $0) }
        return classes.filter { candidate in
            guard let type = candidate as? URLProtocol.Type else { return false }
            return probes.contains { type.canInit(with: $0) }
        }
    }

    /// The request `method` describes, built and validated but not sent, with any body in memory.
    ///
    /// ``perform(_:progress:)`` sends the same request, except that a large multipart body is uploaded
    /// from a temporary file instead (see ``ParametersEncoding/encodeRequest(_:in:)``).
    /// - Throws: ``ApiError/invalidRequest(_:)`` for an unknown host key, a bad URL, method token or
    ///   header, or parameters that cannot be encoded.
    public func makeURLRequest<M: ApiMethod>(for method: M) throws -> URLRequest {
        try method.parametersEncoding.encode(method, in: try makeRequestWithoutParameters(for: method))
    }

    /// The request as it is sent: body in memory or in a (possibly temporary) file.
    func makeEncodedRequest<M: ApiMethod>(for method: M) throws -> EncodedRequest {
        try method.parametersEncoding.encodeRequest(method, in: try makeRequestWithoutParameters(for: method))
    }

    private func makeRequestWithoutParameters<M: ApiMethod>(for method: M) throws -> URLRequest {
        let httpMethod = method.httpMethod
        try httpMethod.validate()
        let url = try method.urlInfo(from: hostProvider).makeURL()
        let headers = self.headers.merging(method.headers)
        try headers.validate()
        var request = URLRequest(url: url)
        if httpMethod != .get {
            // `GET` is the default; setting it costs a case-insensitive match against the known methods.
            request.httpMethod = httpMethod.rawValue
        }
        // CoreAPI enforces the exact idle timeout itself (see `SessionDelegate`); URLSession's own,
        // which Linux truncates to whole seconds, is only a later backstop.
        request.timeoutInterval = min(idleTimeout(for: method).rounded(.up) + 1, SessionDelegate.longestIdleTimeout)
        for field in headers {
            request.addValue(field.value, forHTTPHeaderField: field.name)
        }
        return request
    }

    /// The idle timeout of `method`: its own when positive, the session's otherwise.
    private func idleTimeout<M: ApiMethod>(for method: M) -> TimeInterval {
        guard let timeout = method.timeout, timeout > 0 else { return defaultTimeout }
        return timeout
    }

    /// Performs `method` and returns its typed response.
    ///
    /// Cancelling the calling task cancels the call wherever it is — in the network or waiting in a
    /// middleware — and it then throws ``ApiError/cancelled``. A temporary body file is removed when the
    /// call ends, however it ends.
    /// - Parameters:
    ///   - method: The call to make.
    ///   - progress: Called with upload progress while the body is sent and download progress while
    ///     the response arrives, in order, on the thread that delivers the session's network events;
    ///     keep it short and never block in it.
    /// - Throws: ``ApiError`` for every failure CoreAPI detects, whatever the response type's
    ///   ``ApiResponse/process(response:data:error:)`` returns, or an error a middleware threw itself.
    public func perform<M: ApiMethod>(
        _ method: M,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> M.Response {
        if Task.isCancelled {
            throw ApiError.cancelled
        }
        let call = CallHandle()
        let id = calls.open(call)
        defer { calls.close(id) }
        let chain = middlewareChain(for: method)
        guard !chain.isEmpty else {
            // Every wait of this call is its network exchange, which both the caller's cancellation and
            // the handle reach directly, so it runs in the caller's task.
            return try await execute(method, middlewares: chain, progress: progress, call: call)
        }
        let task = Task {
            try await execute(method, middlewares: chain, progress: progress, call: call)
        }
        call.attachTask(task.cancel)
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Performs `method` and calls `completion` with the result.
    ///
    /// `completion` runs once, on `queue` when one is given, and otherwise on a thread of the Swift
    /// concurrency pool. Cancelling the returned handle ends the call with ``ApiError/cancelled``. An
    /// invalid request completes with ``ApiError/invalidRequest(_:)`` without anything being sent.
    /// - Parameters:
    ///   - method: The call to make.
    ///   - queue: Where `completion` runs.
    ///   - progress: Called with upload and download progress, in order, on the thread that delivers
    ///     the session's network events; keep it short and never block in it.
    ///   - completion: Called once with the typed response or the error.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func perform<M: ApiMethod>(
        _ method: M,
        queue: DispatchQueue? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (Result<M.Response, any Error>) -> Void
    ) -> RequestHandle {
        let call = CallHandle()
        let id = calls.open(call)
        let chain = middlewareChain(for: method)
        let task = Task {
            defer { calls.close(id) }
            let result: Result<M.Response, any Error>
            do {
                result = .success(try await execute(method, middlewares: chain, progress: progress, call: call))
            } catch {
                result = .failure(error)
            }
            if let queue {
                queue.async { completion(result) }
            } else {
                completion(result)
            }
        }
        call.attachTask(task.cancel)
        return RequestHandle(cancel: call.cancel)
    }

    /// The session's middlewares followed by `method`'s; the session's own array when `method` adds none.
    private func middlewareChain<M: ApiMethod>(for method: M) -> [any Middleware] {
        let own = method.middlewares
        return own.isEmpty ? middlewares : middlewares + own
    }

    /// Cancels every call in flight, in the network or waiting in a middleware; each ends with
    /// ``ApiError/cancelled``.
    public func cancelAllRequests() {
        // Each call's handle cancels its network exchange and, when the call has one, its task.
        calls.cancelAll()
    }

    /// Builds the request, runs it through the middleware chain and the network, and processes the reply.
    private func execute<M: ApiMethod>(
        _ method: M,
        middlewares: [any Middleware],
        progress: (@Sendable (TransferProgress) -> Void)?,
        call: CallHandle
    ) async throws -> M.Response {
        guard isValid else {
            throw ApiError.invalidRequest(.sessionInvalidated)
        }
        let encoded = try makeEncodedRequest(for: method)
        defer { encoded.discardTemporaryFile() }
        let seconds = method.deadline ?? policy.deadline
        let deadline: UInt64 =
            seconds.isFinite && seconds > 0 && seconds < SessionDelegate.longestIdleTimeout
            ? DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1_000_000_000) : .max
        let options = TaskOptions(
            idleTimeout: idleTimeout(for: method),
            deadline: deadline,
            maximumResponseSize: method.maximumResponseSize ?? policy.maximumResponseSize,
            maximumRedirects: policy.maximumRedirects,
            strippedHeaderNames: strippedHeaderNames,
            temporaryBodyFile: encoded.bodyFile.flatMap { $0.isTemporary ? $0.url : nil },
            progress: progress
        )
        let exchange: Exchange
        do {
            if Task.isCancelled || call.isCancelled {
                throw ApiError.cancelled
            }
            let raw: RawResponse
            if middlewares.isEmpty {
                raw = try await send(encoded.request, bodyFile: encoded.bodyFile, options: options, call: call)
            } else {
                let chain = MiddlewareChain(middlewares: middlewares) { [self] request in
                    try await send(request, bodyFile: encoded.bodyFile, options: options, call: call)
                }
                raw = try await chain.run(
                    encoded.request,
                    context: MiddlewareContext(method: method, attempt: 1, session: self)
                )
            }
            exchange = Exchange(response: raw.response, data: raw.data, error: nil)
        } catch let error as ApiError {
            exchange = Exchange(response: nil, data: nil, error: error)
        } catch is CancellationError {
            exchange = Exchange(response: nil, data: nil, error: ApiError.cancelled)
        }
        return try Self.process(exchange, for: method).get()
    }

    private static func process<M: ApiMethod>(_ exchange: Exchange, for method: M) -> Result<M.Response, any Error> {
        let codes = method.acceptableStatusCodes
        guard codes != AcceptableStatusCodes.current else {
            // Already in effect (usually the default, 2xx): no task-local value to bind.
            return M.Response.process(response: exchange.response, data: exchange.data, error: exchange.error)
        }
        return AcceptableStatusCodes.$current.withValue(codes) {
            M.Response.process(response: exchange.response, data: exchange.data, error: exchange.error)
        }
    }
}
