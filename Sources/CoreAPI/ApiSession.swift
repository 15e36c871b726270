public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Performs ``ApiMethod`` values over one owned `URLSession`.
///
/// The session builds each request (host from the ``HostProvider``, validated method and headers,
/// encoded parameters) before anything is sent: a bad request fails with
/// ``ApiError/invalidRequest(_:)`` and never reaches the network. Tasks are driven through the
/// session's own delegate, so cancellation, authentication challenges and completion behave the
/// same on Apple platforms and Linux.
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

    let urlSession: URLSession
    let delegate: SessionDelegate

    /// Creates a session.
    /// - Parameters:
    ///   - hostProvider: Supplies the host for each method's host key.
    ///   - configuration: The `URLSession` configuration, copied; ``makeDefaultConfiguration()`` by default.
    ///   - headers: Header fields for every request, after the configuration's `httpAdditionalHeaders`.
    public init(
        hostProvider: any HostProvider,
        configuration: URLSessionConfiguration = ApiSession.makeDefaultConfiguration(),
        headers: Headers = Headers()
    ) {
        self.hostProvider = hostProvider
        // Set explicitly on each request so they are visible everywhere, URLProtocol stubs included
        // (Linux merges them only after protocols have seen the request).
        var additional = Headers()
        for case let (name as String, value as String) in configuration.httpAdditionalHeaders ?? [:] {
            additional.add(value, for: name)
        }
        self.headers = Headers(additional.sorted { $0.name < $1.name }).merging(headers)
        let delegate = SessionDelegate()
        let queue = OperationQueue()
        queue.name = "CoreAPI.ApiSession.delegate"
        queue.maxConcurrentOperationCount = 1
        self.delegate = delegate
        let configured = configuration.timeoutIntervalForRequest
        self.defaultTimeout = configured > 0 ? configured : 60
        self.urlSession = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        // URLSession keeps its delegate until invalidated; tasks in flight still finish.
        urlSession.finishTasksAndInvalidate()
    }

    /// The configuration CoreAPI uses by default: an API client with token auth rarely needs cookies,
    /// and handling them costs a large part of each request's CPU, so cookies are off (no storage, none
    /// set or accepted) and there is no response cache. Pass a configuration with cookies on to opt in.
    public static func makeDefaultConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
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
        request.httpMethod = httpMethod.rawValue
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
    /// Cancelling the calling task cancels the network task; the call then throws
    /// ``ApiError/cancelled``. A temporary body file is removed when the call ends, however it ends.
    /// - Parameters:
    ///   - method: The call to make.
    ///   - progress: Called with upload progress while the body is sent and download progress while
    ///     the response arrives, on the session's delegate queue; keep it short.
    /// - Throws: ``ApiError`` for every failure CoreAPI detects, or whatever the response type's
    ///   ``ApiResponse/process(response:data:error:)`` returns.
    public func perform<M: ApiMethod>(
        _ method: M,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> M.Response {
        let encoded = try makeEncodedRequest(for: method)
        if Task.isCancelled {
            encoded.discardTemporaryFile()
            throw ApiError.cancelled
        }
        let holder = HandleHolder()
        let exchange = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                holder.attach(
                    start(encoded, idleTimeout: idleTimeout(for: method), progress: progress) {
                        continuation.resume(returning: $0)
                    }
                )
            }
        } onCancel: {
            holder.cancel()
        }
        return try Self.process(exchange, for: method).get()
    }

    /// Performs `method` and calls `completion` with the result.
    ///
    /// `completion` runs once, on `queue` when one is given, and otherwise on an internal serial queue
    /// of the session that also delivers network events: keep it short there, or pass a queue. Cancelling
    /// the returned handle ends the call with ``ApiError/cancelled``. An invalid request completes with
    /// ``ApiError/invalidRequest(_:)`` without anything being sent.
    /// - Parameters:
    ///   - method: The call to make.
    ///   - queue: Where `completion` runs.
    ///   - progress: Called with upload and download progress on the session's delegate queue.
    ///   - completion: Called once with the typed response or the error.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func perform<M: ApiMethod>(
        _ method: M,
        queue: DispatchQueue? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (Result<M.Response, any Error>) -> Void
    ) -> RequestHandle {
        let deliver: @Sendable (Result<M.Response, any Error>) -> Void = { result in
            if let queue {
                queue.async { completion(result) }
            } else {
                completion(result)
            }
        }
        let encoded: EncodedRequest
        do {
            encoded = try makeEncodedRequest(for: method)
        } catch {
            deliver(.failure(error))
            return RequestHandle(task: nil)
        }
        return start(encoded, idleTimeout: idleTimeout(for: method), progress: progress) { exchange in
            deliver(Self.process(exchange, for: method))
        }
    }

    /// Cancels every request in flight; each ends with ``ApiError/cancelled``.
    public func cancelAllRequests() {
        for task in delegate.activeTasks {
            task.cancel()
        }
    }

    private func start(
        _ encoded: EncodedRequest,
        idleTimeout: TimeInterval,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Exchange) -> Void
    ) -> RequestHandle {
        let task: URLSessionTask
        if let file = encoded.bodyFile {
            task = urlSession.uploadTask(with: encoded.request, fromFile: file.url)
        } else {
            task = urlSession.dataTask(with: encoded.request)
        }
        delegate.register(
            task,
            idleTimeout: idleTimeout,
            temporaryFile: encoded.bodyFile.flatMap { $0.isTemporary ? $0.url : nil },
            progress: progress,
            completion: completion
        )
        task.resume()
        return RequestHandle(task: task)
    }

    private static func process<M: ApiMethod>(_ exchange: Exchange, for method: M) -> Result<M.Response, any Error> {
        AcceptableStatusCodes.$current.withValue(method.acceptableStatusCodes) {
            M.Response.process(response: exchange.response, data: exchange.data, error: exchange.error)
        }
    }
}

/// A handle to one request started with ``ApiSession/perform(_:queue:progress:completion:)``.
public final class RequestHandle: Sendable {
    private let task: URLSessionTask?

    init(task: URLSessionTask?) {
        self.task = task
    }

    /// Cancels the request; its completion receives ``ApiError/cancelled`` unless it already finished.
    public func cancel() {
        task?.cancel()
    }
}

/// Holds the handle of an async call so a cancellation that arrives first is not lost.
final class HandleHolder: Sendable {
    private let state = LockedValue<(handle: RequestHandle?, isCancelled: Bool)>((nil, false))

    func attach(_ handle: RequestHandle) {
        let cancelNow = state.withLock { state in
            state.handle = handle
            return state.isCancelled
        }
        if cancelNow { handle.cancel() }
    }

    func cancel() {
        let handle = state.withLock { state in
            state.isCancelled = true
            return state.handle
        }
        handle?.cancel()
    }
}
