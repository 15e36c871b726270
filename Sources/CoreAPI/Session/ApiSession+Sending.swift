import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The end of the middleware chain: the transport, and the redirects the session follows above it.
extension ApiSession {
    /// Validates the headers middlewares left, then sends the request with the transport and follows
    /// redirects by ``TransportPolicy``'s rules (see ``Redirect``).
    func send(
        _ request: URLRequest,
        bodyFile: EncodedRequest.BodyFile?,
        options: TransportOptions,
        call: Call
    ) async throws -> RawResponse {
        try Headers(request.allHTTPHeaderFields ?? [:]).validate()
        var current = EncodedRequest(request: request, bodyFile: bodyFile)
        var chain = Redirect.Chain(origin: request.url)
        while true {
            if Task.isCancelled || call.isCancelled {
                throw ApiError.cancelled
            }
            if options.deadline != .distantFuture, DispatchTime.now() >= options.deadline {
                throw ApiError.timeout
            }
            let raw = try await call.exchange(deadline: options.deadline) { [transport, current] in
                try await transport.send(current, options: options)
            }
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
