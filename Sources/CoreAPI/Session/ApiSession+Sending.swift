import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The end of the middleware chain: the transport, and the redirects the session follows above it.
extension ApiSession {
    /// Validates the headers middlewares left, writes a pending body file, then sends the request with
    /// the transport and follows redirects by ``TransportPolicy``'s rules (see ``Redirect``).
    /// - Parameters:
    ///   - request: The request as the middlewares left it.
    ///   - body: Where the body file comes from: ``EncodedRequest/bodyFile`` as it is, or
    ///     ``EncodedRequest/pendingBodyFile`` written now, for this attempt alone.
    func send(
        _ request: URLRequest,
        body: EncodedRequest,
        options: TransportOptions,
        call: Call
    ) async throws -> RawResponse {
        try Headers(request.allHTTPHeaderFields ?? [:]).validate()
        if Task.isCancelled || call.isCancelled {
            throw ApiError.cancelled
        }
        var current = EncodedRequest(request: request, bodyFile: body.bodyFile)
        if let pending = body.pendingBodyFile {
            let deadline = options.deadline
            do {
                current.bodyFile = try pending.write(into: &current.request) {
                    Task.isCancelled || call.isCancelled || DispatchTime.now() >= deadline
                }
            } catch ApiError.cancelled where !(Task.isCancelled || call.isCancelled) {
                throw ApiError.timeout  // the deadline passed while the body was written
            }
        }
        let written = body.pendingBodyFile == nil ? nil : current
        defer { written?.discardTemporaryFile() }
        var chain = Redirect.Chain(origin: request.url)
        while true {
            if Task.isCancelled || call.isCancelled {
                throw ApiError.cancelled
            }
            if options.deadline != .distantFuture, DispatchTime.now() >= options.deadline {
                throw ApiError.timeout
            }
            let started = ContinuousClock.now
            var raw = try await call.exchange(current, with: transport, options: options)
            raw.exchangeDuration = ContinuousClock.now - started
            switch Redirect.next(after: raw.response, request: current.request, chain: chain, policy: policy) {
            case .success(nil):
                return raw
            case .success(let hop?):
                // The body goes along only for 307 and 308 (and a 301 or 302 that answered no POST).
                current = EncodedRequest(request: hop.request, bodyFile: hop.keepsBody ? current.bodyFile : nil)
                chain = hop.chain
            case .failure(let refusal):
                throw refusal
            }
        }
    }
}
