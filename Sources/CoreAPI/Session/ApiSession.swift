#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// Performs ``ApiMethod`` values through a ``Transport``.
///
/// The session builds each request (host from the ``HostProvider``, validated method and headers,
/// encoded parameters) before anything is sent: a bad request fails with
/// ``ApiError/invalidRequest(_:)`` and never reaches the network. The request then goes through the
/// ``Middleware`` chain — the session's ``middlewares``, then the method's — and the transport, which
/// is ``URLSessionTransport`` unless another is given. Redirects, the call's deadline and cancellation
/// are handled here, above the transport, so they behave the same with every engine.
///
/// ```swift
/// let session = ApiSession(hostProvider: DictionaryHostProvider(["api": "https://api.example.com"]))
/// let user = try await session.perform(GetUser(id: 42))
/// ```
public final class ApiSession: Sendable {
    /// Where hosts come from.
    public let hostProvider: any HostProvider
    /// Header fields sent with every request. A method's own headers win for the same names.
    public let headers: Headers

    /// The middlewares every request goes through, outermost first, before the method's own.
    public let middlewares: [any Middleware]

    /// Redirect rules and secret header names; see ``SessionPolicy`` for the defaults.
    public let policy: SessionPolicy

    /// The settings of every call, under its method's ``ApiMethod/options`` and the call's own: each
    /// setting a method or a call sets wins (see ``CallOptions/merging(_:)``). Its ``CallOptions/timeout``,
    /// ``CallOptions/deadline`` and ``CallOptions/maximumResponseSize`` are always set: 60 seconds (or the
    /// configuration's `timeoutIntervalForRequest`, for a session that made its ``URLSessionTransport``),
    /// 60 seconds and 10 MiB unless given.
    public let defaults: CallOptions
    /// Whether ``defaults`` sets more than the limits and status messages, which a call reads from it
    /// directly: only then is it merged under each method's options.
    let mergesDefaults: Bool
    /// ``defaults``' idle timeout in seconds and its size limit, read by every call.
    let defaultTimeoutSeconds: TimeInterval
    /// ``defaults``' idle timeout and deadline in nanoseconds, as every exchange's control counts them;
    /// `.max` and `nil` for none.
    let defaultTimeoutNanoseconds: UInt64
    let defaultDeadlineNanoseconds: UInt64?
    let defaultMaximumResponseSize: Int64

    /// The engine requests are sent with.
    public let transport: any Transport

    /// The transport this session made itself, invalidated with it.
    private let ownTransport: URLSessionTransport?

    /// The calls in flight, so ``cancelAllRequests()`` also ends calls waiting in a middleware.
    let calls = CallRegistry()
    /// Identical calls in flight that share one exchange.
    let sharedCalls = SharedCalls()
    /// Whether ``invalidate()`` was called.
    private let invalidated = LockedValue(false)

    /// Creates a session over a new ``URLSessionTransport``.
    /// - Parameters:
    ///   - hostProvider: Supplies the host for each method's host key.
    ///   - configuration: The `URLSession` configuration, copied; ``makeDefaultConfiguration()`` by default.
    ///   - headers: Header fields for every request, after the configuration's `httpAdditionalHeaders`.
    ///   - middlewares: The chain every request goes through, outermost first.
    ///   - policy: Redirect rules and secret header names.
    ///   - defaults: The settings of every call, under its method's and its own; see ``defaults``.
    public convenience init(
        hostProvider: any HostProvider,
        configuration: URLSessionConfiguration = ApiSession.makeDefaultConfiguration(),
        headers: Headers = Headers(),
        middlewares: [any Middleware] = [],
        policy: SessionPolicy = SessionPolicy(),
        defaults: CallOptions = CallOptions()
    ) {
        self.init(
            hostProvider: hostProvider,
            owning: URLSessionTransport(configuration: configuration),
            headers: headers,
            middlewares: middlewares,
            policy: policy,
            defaults: defaults
        )
    }

    /// Creates a session over a new ``URLSessionTransport`` that judges servers and presents a client
    /// certificate as `trust` says.
    /// - Parameters:
    ///   - hostProvider: Supplies the host for each method's host key.
    ///   - configuration: The `URLSession` configuration, copied; ``makeDefaultConfiguration()`` by default.
    ///   - trust: Which servers are trusted, and the client certificate for mutual TLS.
    ///   - headers: Header fields for every request, after the configuration's `httpAdditionalHeaders`.
    ///   - middlewares: The chain every request goes through, outermost first.
    ///   - policy: Redirect rules and secret header names.
    ///   - defaults: The settings of every call, under its method's and its own; see ``defaults``.
    /// - Throws: ``TLSTrust/Failure`` when the transport cannot enforce `trust` on this platform (see
    ///   ``URLSessionTransport/init(configuration:trust:)``).
    public convenience init(
        hostProvider: any HostProvider,
        configuration: URLSessionConfiguration = ApiSession.makeDefaultConfiguration(),
        trust: TLSTrust,
        headers: Headers = Headers(),
        middlewares: [any Middleware] = [],
        policy: SessionPolicy = SessionPolicy(),
        defaults: CallOptions = CallOptions()
    ) throws(TLSTrust.Failure) {
        self.init(
            hostProvider: hostProvider,
            owning: try URLSessionTransport(configuration: configuration, trust: trust),
            headers: headers,
            middlewares: middlewares,
            policy: policy,
            defaults: defaults
        )
    }

    /// Creates a session over a transport it made and invalidates with itself, with the
    /// configuration's additional headers and request timeout.
    private convenience init(
        hostProvider: any HostProvider,
        owning transport: URLSessionTransport,
        headers: Headers,
        middlewares: [any Middleware],
        policy: SessionPolicy,
        defaults: CallOptions
    ) {
        let configuration = transport.configuration
        // Set explicitly on each request so they are visible everywhere, URLProtocol stubs included
        // (Linux merges them only after protocols have seen the request).
        var additional = Headers()
        for case let (name as String, value as String) in configuration.httpAdditionalHeaders ?? [:] {
            additional.add(value, for: name)
        }
        let configured = configuration.timeoutIntervalForRequest
        var defaults = defaults
        if defaults.timeout == nil, configured > 0, configured.isFinite {
            defaults.timeout = .nanoseconds(Int64(min(configured, 1e9) * 1e9))
        }
        self.init(
            hostProvider: hostProvider,
            transport: transport,
            ownsTransport: true,
            headers: Headers(additional.sorted { $0.name < $1.name }).merging(headers),
            middlewares: middlewares,
            policy: policy,
            defaults: defaults
        )
    }

    /// Creates a session over `transport`.
    ///
    /// The transport stays the caller's: ``invalidate()`` ends the session's calls but does not shut the
    /// transport down, so one transport can serve several sessions.
    /// - Parameters:
    ///   - hostProvider: Supplies the host for each method's host key.
    ///   - transport: The engine requests are sent with.
    ///   - headers: Header fields for every request.
    ///   - middlewares: The chain every request goes through, outermost first.
    ///   - policy: Redirect rules and secret header names.
    ///   - defaults: The settings of every call, under its method's and its own; see ``defaults``.
    public convenience init(
        hostProvider: any HostProvider,
        transport: any Transport,
        headers: Headers = Headers(),
        middlewares: [any Middleware] = [],
        policy: SessionPolicy = SessionPolicy(),
        defaults: CallOptions = CallOptions()
    ) {
        self.init(
            hostProvider: hostProvider,
            transport: transport,
            ownsTransport: false,
            headers: headers,
            middlewares: middlewares,
            policy: policy,
            defaults: defaults
        )
    }

    /// Creates a session over `transport`; when `ownsTransport` is `true` and the transport is a
    /// ``URLSessionTransport``, ``invalidate()`` invalidates it too.
    package init(
        hostProvider: any HostProvider,
        transport: any Transport,
        ownsTransport: Bool,
        headers: Headers,
        middlewares: [any Middleware],
        policy: SessionPolicy,
        defaults: CallOptions
    ) {
        var defaults = defaults
        if CallOptions.seconds(defaults.timeout).map({ !($0 > 0) }) ?? true {
            defaults.timeout = .seconds(60)
        }
        defaults.deadline = defaults.deadline ?? .seconds(60)
        defaults.maximumResponseSize = defaults.maximumResponseSize ?? 10 * 1024 * 1024
        self.defaults = defaults
        self.mergesDefaults = !defaults.setsOnlyLimitsAndMessages
        self.defaultTimeoutSeconds = defaults.timeoutSeconds ?? 60
        self.defaultTimeoutNanoseconds = TransportOptions.nanoseconds(of: defaults.timeout) ?? .max
        self.defaultDeadlineNanoseconds = TransportOptions.nanoseconds(of: defaults.deadline)
        self.defaultMaximumResponseSize = defaults.maximumResponseSize ?? 10 * 1024 * 1024
        self.hostProvider = hostProvider
        self.transport = transport
        self.ownTransport = ownsTransport ? transport as? URLSessionTransport : nil
        self.headers = headers
        self.middlewares = middlewares
        self.policy = policy
    }

    /// Shuts the session down: calls in flight end with ``ApiError/cancelled``, and later calls fail at
    /// once with ``ApiError/InvalidRequestReason/sessionInvalidated`` without sending anything. A
    /// transport the session made itself is invalidated too. Calling it again does nothing.
    public func invalidate() {
        let wasInvalidated = invalidated.withLock { invalidated in
            defer { invalidated = true }
            return invalidated
        }
        guard !wasInvalidated else { return }
        cancelAllRequests()
        ownTransport?.invalidate()
    }

    /// Whether ``invalidate()`` was not called yet.
    public var isValid: Bool { !invalidated.withLock { $0 } }

    /// ``URLSessionTransport/makeDefaultConfiguration()``: cookies and the response cache off.
    public static func makeDefaultConfiguration() -> URLSessionConfiguration {
        URLSessionTransport.makeDefaultConfiguration()
    }

    /// Performs `method` and returns its typed response.
    ///
    /// Cancelling the calling task cancels the call wherever it is — in the network or waiting in a
    /// middleware — and it then throws ``ApiError/cancelled`` at once, whatever the transport is doing.
    /// A temporary body file is removed when the call ends, however it ends, or as soon as the engine
    /// has stopped reading it.
    /// - Parameters:
    ///   - method: The call to make.
    ///   - options: Settings for this call alone, on top of the method's ``ApiMethod/options`` and the
    ///     session's ``defaults``: each one set wins, the others keep the method's or the session's (see
    ///     ``CallOptions/merging(_:)``).
    ///   - progress: Called with upload progress while the body is sent and download progress while
    ///     the response arrives, in order, on the thread that delivers the session's network events;
    ///     keep it short and never block in it.
    /// - Throws: ``ApiError`` for every failure CoreAPI detects, whatever the response type's
    ///   ``ApiResponse/process(response:data:error:)`` returns, or an error a middleware threw itself.
    public func perform<M: ApiMethod>(
        _ method: M,
        options: CallOptions? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> M.Output {
        try await performOwnCall(
            method,
            settings: settings(for: method, overriding: options),
            progress: progress,
            group: nil
        )
    }

    /// Performs `method` as a call of `group`'s (a provider's) when one is given.
    func perform<M: ApiMethod>(
        _ method: M,
        progress: (@Sendable (TransferProgress) -> Void)?,
        group: ObjectIdentifier?
    ) async throws -> M.Output {
        try await performOwnCall(method, settings: settings(for: method), progress: progress, group: group)
    }

    /// Performs `method` with `settings` as a call of its own, which shares only its exchange with
    /// identical calls in flight when the settings say so.
    @inline(__always)
    private func performOwnCall<M: ApiMethod>(
        _ method: M,
        settings: CallOptions,
        progress: (@Sendable (TransferProgress) -> Void)?,
        group: ObjectIdentifier?
    ) async throws -> M.Output {
        let opened = try openCall(of: method, settings: settings, group: group)
        defer { calls.close(opened.id) }
        guard opened.needsTask else {
            // No closure to allocate, and no copy of the settings in one.
            return try await execute(
                method,
                settings: settings,
                middlewares: opened.chain,
                progress: progress,
                call: opened.call
            )
        }
        return try await runInOwnTask(opened.call) { [self] in
            try await execute(
                method,
                settings: settings,
                middlewares: opened.chain,
                progress: progress,
                call: opened.call
            )
        }
    }

    /// Opens a call of `method`: listed, counted and cancellable (see ``Call``) until the caller closes it
    /// with `calls.close(id)`. With a middleware that may wait on its own, the call must run in a task of
    /// its own (``runInOwnTask(_:_:)``), which a cancel reaches wherever that middleware waits; otherwise
    /// every wait is the network exchange, which the caller's cancellation and the call's handle reach
    /// directly, so it runs in the caller's task (see ``Middleware/waitsOnlyInNext``).
    /// - Returns: The call, its number in the registry, its middlewares, and whether it needs a task.
    /// - Throws: ``ApiError/cancelled`` when the calling task is cancelled already.
    @inline(__always)
    func openCall<M: ApiMethod>(
        of method: M,
        settings: CallOptions,
        group: ObjectIdentifier?
    ) throws -> (call: Call, id: Int, chain: [any Middleware], needsTask: Bool) {
        if Task.isCancelled {
            throw ApiError.cancelled
        }
        let call = Call()
        let id = calls.open(call, method: method, key: settings.callKey, group: group)
        let chain = middlewareChain(for: settings)
        return (call, id, chain, chain.contains { !$0.waitsOnlyInNext })
    }

    /// Runs `operation` in a task of its own that cancelling `call` cancels, and waits for it.
    func runInOwnTask<T: Sendable>(
        _ call: Call,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let task = Task {
            try await operation()
        }
        call.attachTask(task.cancel)
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Builds the request, runs it through the middleware chain and the transport, and processes the
    /// reply.
    func execute<M: ApiMethod>(
        _ method: M,
        settings: CallOptions,
        middlewares: [any Middleware],
        progress: (@Sendable (TransferProgress) -> Void)?,
        call: Call
    ) async throws -> M.Output {
        guard isValid else {
            throw ApiError.invalidRequest(.sessionInvalidated)
        }
        // Only a response type that carries the timing has the clocks read for it.
        let facts = MethodFacts.of(method)
        let timed = facts.takesTiming
        let startDate = timed ? Date() : Date.distantPast
        let startNanoseconds = timed ? DispatchTime.now().uptimeNanoseconds : 0
        // The transport measures the exchange's phases only for a response that carries them.
        var options = transportOptions(for: settings, progress: progress)
        options.measuresPhases = timed
        let outcome = try await exchange(
            for: method,
            settings: settings,
            middlewares: middlewares,
            options: options,
            shares: settings.sharesIdenticalCalls,
            call: call,
            facts: facts
        )
        var response = try process(outcome, for: method, settings: settings)
        if timed {
            let raw = try? outcome.get()
            response = Self.adding(
                ResponseTiming(
                    start: startDate,
                    total: .nanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - startNanoseconds)),
                    exchange: raw?.exchangeDuration,
                    phases: raw?.phases
                ),
                to: response
            )
        }
        return try await method.finalize(response)
    }

    /// `response` with `timing`, when its type carries one (``ResponseTimingCarrier``).
    ///
    /// A function of its own: an optional of the response type, which the cast back needs, would
    /// otherwise be part of the caller's frame, and its metadata looked up on every call.
    private static func adding<Response>(_ timing: ResponseTiming, to response: Response) -> Response {
        guard let carrier = response as? any ResponseTimingCarrier else { return response }
        return carrier.adding(timing) as? Response ?? response
    }
}
