import Dispatch

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The default ``Transport``: one owned `URLSession`, driven through CoreAPI's own delegate.
///
/// Tasks are delegate-based rather than the built-in async `data(for:)`, which deadlocks on Linux when
/// a task is cancelled as it completes; cancellation, idle timeouts, `401` challenges and the response
/// size limit therefore behave the same on Apple platforms and Linux (see `SessionDelegate`).
/// Redirects are never followed here: the delegate refuses every hop, and the `3xx` goes back to the
/// session, which applies ``SessionPolicy``'s rules.
///
/// ``ApiSession/init(hostProvider:configuration:headers:middlewares:policy:defaults:)`` makes one and invalidates
/// it with the session. A transport passed to ``ApiSession/init(hostProvider:transport:headers:middlewares:policy:defaults:)``
/// stays its creator's: call ``invalidate()`` when no session uses it any more, or let it go, which
/// lets the tasks in flight finish first. Either way its connections are closed.
public final class URLSessionTransport: Transport {
    /// A copy of the configuration the `URLSession` uses.
    public var configuration: URLSessionConfiguration { sessionConfiguration.current }

    /// The configuration's copy, read from the `URLSession` once it is made; kept after ``invalidate()``.
    private let sessionConfiguration: LockedValue<URLSessionConfiguration>
    /// The `URLSession` until ``invalidate()`` lets it go: FoundationNetworking closes its connections
    /// only when the `URLSession` is freed, and a transport kept after its invalidation would otherwise
    /// hold them open for as long as it lives. Tasks are made while this lock is held, and the
    /// invalidation takes the `URLSession` out under it, so no task is ever made on an invalidated
    /// `URLSession` (which crashes on Linux), even by a caller's thread that made its task itself.
    private let engine: LockedValue<URLSession?>
    let delegate: SessionDelegate
    /// Whether ``invalidate()`` was called: from then on no task is made, and exchanges fail at once.
    private let isInvalidated = LockedValue(false)
    /// Where tasks are created and resumed off the caller's thread whenever another task of the process
    /// is in flight. FoundationNetworking does both synchronously on its one work queue, shared by
    /// every session of the process, which can be busy for seconds (making a task waits while another
    /// session inflates a large gzip body). Done on threads of the Swift concurrency pool, a thousand
    /// calls starting at once held every pool thread waiting there (long after, fewer than half of the
    /// tasks were running), and a call waiting there could not end on a cancel or its idle timeout. With no task in flight the work queue answers at once, and the
    /// caller's thread makes the task itself (a `URLSession` CoreAPI does not drive is not counted).
    let taskQueue = DispatchQueue(label: "CoreAPI.URLSessionTransport.tasks")

    /// Header fields added to every request as it is handed to `URLSession`, below the middleware
    /// chain: no middleware, log or recording sees them.
    private let addedHeaders: [(name: String, value: String)]

    /// Creates a transport over a new `URLSession`.
    /// - Parameter configuration: The `URLSession` configuration, copied; ``makeDefaultConfiguration()``
    ///   by default.
    public convenience init(configuration: URLSessionConfiguration = URLSessionTransport.makeDefaultConfiguration()) {
        self.init(configuration: configuration, addedHeaders: [])
    }

    /// Creates a transport over a new `URLSession` that judges servers and presents a client
    /// certificate as `trust` says.
    ///
    /// On Apple platforms URLSession hands its server-trust and client-certificate challenges to the
    /// transport, which answers them with `trust`. FoundationNetworking on Linux hands over neither and
    /// has no setting for them, so there only ``TLSTrust/system`` is accepted; use the AsyncHTTPClient
    /// transport for the rest.
    /// - Parameters:
    ///   - configuration: The `URLSession` configuration, copied.
    ///   - trust: Which servers are trusted, and the client certificate.
    /// - Throws: ``TLSTrust/Failure/unsupported(transport:feature:)`` on Linux for anything but
    ///   ``TLSTrust/system``; ``TLSTrust/Failure/invalidClientIdentity(_:)`` when the client identity
    ///   cannot be opened, ``TLSTrust/Failure/invalidPin(_:)`` or
    ///   ``TLSTrust/Failure/invalidCertificate(_:)`` when a pin cannot be read.
    public convenience init(
        configuration: URLSessionConfiguration = URLSessionTransport.makeDefaultConfiguration(),
        trust: TLSTrust
    ) throws(TLSTrust.Failure) {
        #if canImport(FoundationNetworking)
            guard trust.isSystemDefault else {
                throw .unsupported(
                    transport: "URLSessionTransport",
                    feature: "\(trust.customisations) (FoundationNetworking hands no TLS challenge to its delegate)"
                )
            }
        #else
            _ = try trust.clientCredential()
            _ = try trust.pinnedKeyDigests()
        #endif
        self.init(configuration: configuration, addedHeaders: [], trust: trust)
    }

    /// Creates a transport that adds `addedHeaders` to every request it sends (a test server's routing
    /// field, for instance).
    package init(
        configuration: URLSessionConfiguration,
        addedHeaders: [(name: String, value: String)],
        trust: TLSTrust = .system
    ) {
        self.addedHeaders = addedHeaders
        let delegate = SessionDelegate(trust: trust)
        self.delegate = delegate
        let queue = DelegateQueue(label: "CoreAPI.URLSessionTransport.delegate")
        let urlSession = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
        self.engine = LockedValue(urlSession)
        self.sessionConfiguration = LockedValue(urlSession.configuration)
    }

    deinit {
        // URLSession keeps its delegate until invalidated; unless `invalidate()` cancelled them, tasks
        // in flight still finish, and the connections close once the last of them has.
        guard let urlSession = engine.withLock({ $0.take() }) else { return }
        if isInvalidated.current {
            urlSession.invalidateAndCancel()
        } else {
            urlSession.finishTasksAndInvalidate()
        }
    }

    /// The `URLSession`, or `nil` once ``invalidate()`` has let it go.
    var urlSession: URLSession? {
        engine.current
    }

    /// Cancels every task and invalidates the `URLSession`, which releases its delegate and closes its
    /// connections; later exchanges fail with ``ApiError/InvalidRequestReason/sessionInvalidated``.
    /// Returns at once: the `URLSession` is invalidated on the transport's task queue, after the tasks
    /// already being made, and let go, so its connections close even while the transport lives on.
    /// Calling it again does nothing.
    public func invalidate() {
        let first = isInvalidated.withLock { isInvalidated in
            defer { isInvalidated = true }
            return !isInvalidated
        }
        guard first else { return }
        taskQueue.async { [engine] in
            // Waits for a task being made on a caller's thread; none is made after this.
            engine.withLock { $0.take() }?.invalidateAndCancel()
        }
    }

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

    /// Sends `request` with one `URLSessionTask` and waits for its end, cancelling the task when the
    /// calling task is cancelled.
    ///
    /// A streamed body (``ApiRequest/Body/stream(_:)``) is written to a temporary file first, which is
    /// uploaded with its length as `Content-Length` and removed once the exchange has ended; a cancel,
    /// the idle timeout or the deadline stops the writing. On Linux every body, in memory or in a file,
    /// goes to FoundationNetworking as a stream made again from its first byte whenever the engine sends
    /// the request again on a new connection, so a body is never sent from its middle.
    /// - Parameters:
    ///   - request: The request, with its body in memory, in a file to upload from, or streamed.
    ///   - options: The limits, timeouts and progress handler of this exchange.
    /// - Returns: The response as it is, a `3xx` included.
    /// - Throws: ``ApiError``.
    public func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
        // The session's control, or one of the transport's own; the delegate touches it as the task
        // reports, and it is handed on beside the options, which need no copy to carry it.
        let control = ExchangeControl.for(options)
        defer { control.finish() }
        guard let stream = request.body.stream else {
            return try await send(request, options: options, control: control)
        }
        // FoundationNetworking takes no async sequence as a body: the stream goes to a file first, removed
        // once no task reads it (see `TemporaryBodyFiles`); the session's own files are its own.
        let file = try await Self.spool(stream, control: control)
        defer { TemporaryBodyFiles.discard(file.url) }
        var spooled = request
        spooled.body = .file(file)
        spooled.headers.set(String(file.length), for: "Content-Length")
        return try await send(spooled, options: options, control: control)
    }

    /// The `timeoutInterval` of a request with `idleTimeout`: CoreAPI enforces the exact idle timeout
    /// itself (see `SessionDelegate`); URLSession's own, which Linux truncates to whole seconds, is only
    /// a later backstop.
    static func backstopTimeout(forIdleTimeout idleTimeout: TimeInterval) -> TimeInterval {
        guard idleTimeout > 0 else { return TransportOptions.longestIdleTimeout }
        return min(idleTimeout.rounded(.up) + 1, TransportOptions.longestIdleTimeout)
    }

    /// Sends `request`; the exchange ends at once when `control` ends, or when the calling task is
    /// cancelled, even while FoundationNetworking is still making its task. Inlined into
    /// ``send(_:options:)``, which saves the exchange a frame and an executor check.
    @inline(__always)
    private func send(
        _ request: ApiRequest,
        options: TransportOptions,
        control: ExchangeControl
    ) async throws -> RawResponse {
        #if canImport(FoundationNetworking)
            // Every body goes to FoundationNetworking as a stream it can be given again from the start
            // (see `RewindableBody`); none is uploaded from its file.
            let body = try RewindableBody(request.body)
            let urlRequest = foundationRequest(for: request, body: body, idleTimeout: options.idleTimeoutSeconds)
            let uploadFile: URL? = nil
        #else
            let body: RewindableBody? = nil
            let urlRequest = foundationRequest(for: request, idleTimeout: options.idleTimeoutSeconds)
            let uploadFile = request.body.file?.url
        #endif
        let bodyFile = request.body.file
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // The clocks start now, and a cancel ends the exchange from now on: making the task
                // waits for FoundationNetworking's work queue, which can be busy for seconds.
                let state = delegate.reserve(
                    options: options,
                    control: control,
                    method: request.method,
                    temporaryBodyFile: bodyFile.flatMap { $0.isTemporary ? $0 : nil },
                    body: body
                ) {
                    continuation.resume(returning: $0)
                }
                // The control's end ends the exchange from now on (the spooling has had its own end
                // handler), at once if it has ended already.
                control.onEnd { [delegate] reason in delegate.end(exchangeOf: state, with: reason) }
                if SessionDelegate.engineTasks.current == 0 {
                    // FoundationNetworking has nothing else to do: it makes the task at once, and
                    // starting here saves the hop to the task queue and the thread wake-up it costs.
                    start(urlRequest, uploadFile: uploadFile, state: state, queued: false)
                } else {
                    taskQueue.async { [self] in
                        start(urlRequest, uploadFile: uploadFile, state: state, queued: true)
                    }
                }
            }
        } onCancel: {
            control.end(.cancelled)
        }
        return try outcome.rawResponse()
    }

    /// The Foundation request for `request`, built once: its method, URL, header fields with the
    /// transport's own added, the body when it is in memory (a file is uploaded from, see
    /// ``start(_:uploadFile:state:queued:)``), and the backstop timeout.
    private func foundationRequest(for request: ApiRequest, idleTimeout: TimeInterval) -> URLRequest {
        var prepared = foundationHead(for: request, idleTimeout: idleTimeout)
        if case .data(let data) = request.body {
            prepared.httpBody = data
        }
        return prepared
    }

    #if canImport(FoundationNetworking)
        /// The Foundation request for `request` on Linux: its head, and `body` as a stream of the whole
        /// body, sent with its length as `Content-Length`.
        ///
        /// FoundationNetworking gives a body stream no length, and libcurl frames a body of unknown
        /// length as chunked, even beside a `Content-Length` field: the `Transfer-Encoding` field of
        /// blank value tells libcurl a framing is chosen (not chunked) and is itself never sent.
        private func foundationRequest(
            for request: ApiRequest,
            body: RewindableBody?,
            idleTimeout: TimeInterval
        ) -> URLRequest {
            var prepared = foundationHead(for: request, idleTimeout: idleTimeout)
            guard let body else {
                if case .data(let data) = request.body {
                    prepared.httpBody = data  // empty: nothing to send again
                }
                return prepared
            }
            prepared.httpBodyStream = body.makeStream()
            // Set in the fields at once: `setValue(_:forHTTPHeaderField:)` capitalises the name and
            // compares it with every field, which cost two thirds of what this change adds to a small
            // upload. `addValue` stored any field of the request under its capitalised name, so these
            // replace one the request had.
            var fields = prepared.allHTTPHeaderFields ?? [:]
            fields["Content-Length"] = String(body.length)
            fields["Transfer-Encoding"] = " "
            prepared.allHTTPHeaderFields = fields
            return prepared
        }
    #endif

    /// The Foundation request for `request` without its body: its method, URL, header fields with the
    /// transport's own added, and the backstop timeout.
    @inline(__always)
    private func foundationHead(for request: ApiRequest, idleTimeout: TimeInterval) -> URLRequest {
        var prepared = URLRequest(
            url: request.url,
            timeoutInterval: Self.backstopTimeout(forIdleTimeout: idleTimeout)
        )
        if request.method != .get {
            // `GET` is the default; setting it costs a case-insensitive match against the known methods.
            prepared.httpMethod = request.method.rawValue
        }
        for field in request.headers {
            prepared.addValue(field.value, forHTTPHeaderField: field.name)
        }
        for field in addedHeaders {
            prepared.setValue(field.value, forHTTPHeaderField: field.name)
        }
        return prepared
    }

    /// Creates and resumes the task of the exchange `state` holds, unless the exchange has ended
    /// already or the transport is invalidated; runs on ``taskQueue`` (`queued`), like the
    /// invalidation, unless no task of the process keeps FoundationNetworking busy.
    private func start(
        _ request: URLRequest,
        uploadFile: URL?,
        state: SessionDelegate.TaskState,
        queued: Bool
    ) {
        guard !isInvalidated.current else {
            delegate.endWaiting(state, with: .invalidRequest(.sessionInvalidated))
            return
        }
        // An exchange that waited for its turn may have been cancelled or timed out meanwhile: no task
        // is made for it. One started at once is looked at when its task is attached.
        if queued, !delegate.isWaiting(state) { return }
        let made = engine.withLock { urlSession -> URLSessionTask? in
            guard let urlSession else { return nil }
            if let uploadFile {
                return urlSession.uploadTask(with: request, fromFile: uploadFile)
            }
            return urlSession.dataTask(with: request)
        }
        guard let task = made else {
            delegate.endWaiting(state, with: .invalidRequest(.sessionInvalidated))
            return
        }
        guard delegate.attach(task, to: state) else {
            // Ended (timed out or cancelled) while FoundationNetworking made the task: never started.
            taskQueue.async { task.cancel() }
            return
        }
        task.resume()
    }
}
