import Dispatch
import Foundation

/// A method's exchange: its request through the middleware chain to the transport, and the redirects
/// the session follows above it.
extension ApiSession {
    /// The limits of a call's exchanges: its own, else the session's defaults.
    func transportOptions(
        for settings: CallOptions,
        progress: (@Sendable (TransferProgress) -> Void)?,
        bodyHandler: TransportOptions.BodyHandler? = nil
    ) -> TransportOptions {
        var options = TransportOptions(
            maximumResponseSize: settings.maximumResponseSize ?? defaultMaximumResponseSize,
            progress: progress,
            bodyHandler: bodyHandler
        )
        // In the one timer's units, from the session's defaults unless the call sets its own: a call pays no
        // `Duration` arithmetic for limits it leaves to the session.
        if let timeout = settings.timeout, timeout > .zero {
            options.idleTimeoutNanoseconds = TransportOptions.nanoseconds(of: timeout) ?? .max  // unlimited: none
        } else {
            options.idleTimeoutNanoseconds = defaultTimeoutNanoseconds  // unset, or zero or less: the session's
        }
        let deadline = settings.deadline.map(TransportOptions.nanoseconds(of:)) ?? defaultDeadlineNanoseconds
        if let deadline {
            options.deadlineUptimeNanoseconds = DispatchTime.now().uptimeNanoseconds &+ deadline
        }
        return options
    }

    /// Builds `method`'s request, with `extraHeaders` set on it, and runs it through `middlewares` and
    /// the transport; when `shares` is `true`, the request the chain leaves joins an identical one in
    /// flight (see ``send(_:options:call:sharingFor:settings:)``). `facts` are `method`'s type's, when the
    /// caller has them already.
    /// - Returns: The response, or the ``ApiError`` the exchange ended with.
    /// - Throws: ``ApiError/invalidRequest(_:)`` when the request cannot be built; nothing is sent then.
    @inline(__always)
    func exchange<M: ApiMethod>(
        for method: M,
        settings: CallOptions,
        middlewares: [any Middleware],
        options: TransportOptions,
        extraHeaders: [(name: String, value: String)] = [],
        shares: Bool = false,
        call: Call,
        facts: MethodFacts? = nil
    ) async throws -> Result<RawResponse, ApiError> {
        let facts = facts ?? MethodFacts.of(method)
        var request = try makeEncodedRequest(for: method, facts: facts)
        defer { request.discardTemporaryFile() }
        for field in extraHeaders {
            request.headers.set(field.value, for: field.name)
        }
        // A stored-only lookup never reaches the transport (see ``StoredLookup``).
        let storedLookup = settings.storedLookup
        do {
            if middlewares.isEmpty, !shares {
                if storedLookup != nil { throw StoredLookup.Miss() }
                // `send` looks at the call's cancellation before it sends anything.
                return .success(try await send(request, options: options, call: call))
            }
            if Task.isCancelled || call.isCancelled {
                throw ApiError.cancelled  // before any middleware runs, or another call is joined
            }
            if middlewares.isEmpty {
                if storedLookup != nil { throw StoredLookup.Miss() }
                return .success(
                    try await send(request, options: options, call: call, sharingFor: method, settings: settings)
                )
            }
            let chain = MiddlewareChain(middlewares: middlewares)
            let context = MiddlewareContext(
                method: method,
                methodName: facts.name,
                options: settings,
                attempt: 1,
                session: self,
                storedLookup: storedLookup,
                call: call
            )
            // The chain's end, written at each call so that nothing keeps it (see `MiddlewareChain`).
            if storedLookup != nil {
                // The middlewares learn of the lookup from their context; calls they make on their own
                // (a token refresh) are ordinary ones.
                return .success(try await chain.run(request, context: context) { _ in throw StoredLookup.Miss() })
            }
            if shares {
                return .success(
                    try await chain.run(request, context: context) { [self] request in
                        try await send(request, options: options, call: call, sharingFor: method, settings: settings)
                    }
                )
            }
            return .success(
                try await chain.run(request, context: context) { [self] request in
                    try await send(request, options: options, call: call)
                }
            )
        } catch let error as ApiError {
            return .failure(error)
        } catch is CancellationError {
            return .failure(.cancelled)
        }
    }

    /// Validates the headers middlewares left, writes a pending body file, then sends the request with
    /// the transport and follows redirects by ``SessionPolicy``'s rules (see ``Redirect``).
    /// - Parameter request: The request as the middlewares left it; a pending body file
    ///   (`ApiRequest.pendingBodyFile`) is written now, for this attempt alone.
    func send(
        _ request: ApiRequest,
        options: TransportOptions,
        call: Call
    ) async throws -> RawResponse {
        try request.headers.validate()
        var current = request
        if let pending = current.pendingBodyFile.take() {
            if Task.isCancelled || call.isCancelled {
                throw ApiError.cancelled  // before the body is written
            }
            let deadline = options.deadlineUptimeNanoseconds
            do {
                current.body = .file(
                    try pending.write(into: &current) {
                        Task.isCancelled || call.isCancelled || DispatchTime.now().uptimeNanoseconds >= deadline
                    }
                )
            } catch ApiError.cancelled where !(Task.isCancelled || call.isCancelled) {
                throw ApiError.timeout  // the deadline passed while the body was written
            }
        }
        let written = request.pendingBodyFile == nil ? nil : current
        defer { written?.discardTemporaryFile() }
        var chain = Redirect.Chain(origin: request.url)
        while true {
            // One look at the call's state for whether it was cancelled and what wraps its exchanges.
            guard !Task.isCancelled, let wrappers = call.wrappersUnlessCancelled else {
                throw ApiError.cancelled
            }
            if options.deadlineUptimeNanoseconds != .max,
                DispatchTime.now().uptimeNanoseconds >= options.deadlineUptimeNanoseconds
            {
                throw ApiError.timeout
            }
            // The exchange's duration is part of a response's timing, measured, like the exchange's
            // phases, only for a response that carries it (`TransportOptions.measuresPhases`).
            let started = options.measuresPhases ? ContinuousClock.now : nil
            var raw: RawResponse
            do {
                if wrappers.isEmpty {
                    raw = try await call.exchange(current, with: transport, options: options)
                } else {
                    // Each attempt and hop passes the wrappers middlewares added (`withEachExchange`).
                    raw = try await wrappers.send(current) { [self] request in
                        try await call.exchange(request, with: transport, options: options)
                    }
                }
            } catch let error as ApiError {
                throw error.namingEndpoint(of: current.url)
            }
            if let started {
                raw.exchangeDuration = ContinuousClock.now - started
            }
            switch Redirect.next(after: raw.head, request: current, chain: chain, policy: policy) {
            case .success(nil):
                return raw
            case .success(let hop?):
                // The body goes along only for 307 and 308 (and a 301 or 302 that answered no POST).
                current = hop.request
                chain = hop.chain
            case .failure(let refusal):
                throw refusal
            }
        }
    }
}
