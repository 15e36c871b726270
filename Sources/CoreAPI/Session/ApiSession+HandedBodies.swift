import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Calls whose body is read as it arrives — streams and downloads — rather than collected: one place
/// decides which responses hand their body over and how the others fail.
extension ApiSession {
    /// Performs `method` as a call in flight, handing the body of a response `handler` accepts to it,
    /// and returns that response's head once its body has ended.
    ///
    /// A response whose body was collected all the same — answered by a middleware (a mock), or by a
    /// transport that ignores ``TransportOptions/bodyHandler`` — is handed over here from memory. A
    /// response the handler refuses (a status the method does not accept) fails as ``perform(_:options:progress:)``
    /// would fail: with the method's own status error, else the status error with its body.
    /// - Parameters:
    ///   - limits: With ``StreamedResponse/Limits/unlimited``, no deadline ends the exchange.
    ///   - extraHeaders: Fields set on the request after the method's own (a range, a last event ID).
    func exchange<M: ApiMethod>(
        _ method: M,
        handingBodyTo handler: TransportOptions.BodyHandler,
        limits: StreamedResponse.Limits,
        extraHeaders: [(name: String, value: String)],
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> ResponseHead {
        guard isValid else {
            throw ApiError.invalidRequest(.sessionInvalidated)
        }
        let handedOver = LockedValue(false)
        let tracked = {
            var tracked = handler  // the same pieces, into the same buffer
            tracked.accepts = { head in
                let accepted = try handler.accepts(head)
                if accepted { handedOver.withLock { $0 = true } }
                return accepted
            }
            return tracked
        }()
        let settings = settings(for: method)
        let opened = try openCall(of: method, settings: settings, group: nil)
        defer { calls.close(opened.id) }
        let operation: @Sendable () async throws -> Result<RawResponse, ApiError> = { [self] in
            var options = transportOptions(for: settings, progress: progress, bodyHandler: tracked)
            if limits == .unlimited {
                options.deadlineUptimeNanoseconds = .max
            }
            return try await exchange(
                for: method,
                settings: settings,
                middlewares: opened.chain,
                options: options,
                extraHeaders: extraHeaders,
                call: opened.call
            )
        }
        let outcome = try await opened.needsTask ? runInOwnTask(opened.call, operation) : operation()
        let raw = try outcome.get()
        if handedOver.current {
            return raw.head
        }
        if !HeadChecks(raw.head).isRedirect {
            let accepted: Bool
            do {
                accepted = try handler.accepts(raw.head)
                if accepted {
                    try handler.receive(raw.data)
                }
            } catch {
                throw ApiError(error)
            }
            if accepted {
                return raw.head
            }
        }
        _ = try process(outcome, for: method, settings: settings)
        // The response type accepted a status the method does not: still no body to hand over.
        throw ApiError(unacceptable: raw.head, body: raw.data, acceptable: CallOptions.AcceptableStatusCodes([]))
            ?? ApiError.transport(.init(kind: .badResponse))
    }
}
