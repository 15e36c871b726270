import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Calls for a bridge that hands every response on, whatever its status, to code that judges it itself
/// (a generated client): the whole chain applies, and nothing here throws for a status.
extension ApiSession {
    /// Performs `method` as a call named `name` and returns its response as soon as its head has arrived,
    /// whatever its status: no status check, no ``ApiResponse`` processing.
    ///
    /// A response whose head `streamsBody` accepts has its body handed on as it arrives, under the call's
    /// size limit and deadline, with back-pressure as ``stream(_:limits:bufferLimit:)`` has; the body of
    /// every other response is collected first (within the same limits), so that middlewares that act on
    /// a status — a retry, a token refresh — see it whole and may send the request again before anything
    /// is handed on. With `streamsBody` `nil`, every body is collected, and the call shares an identical
    /// exchange in flight when its settings say so (``CallOptions/sharesIdenticalCalls``).
    /// - Parameters:
    ///   - method: The call to make; its ``ApiMethod/options`` should accept every status.
    ///   - name: The call's name for middlewares (``MiddlewareContext/methodName``): logs, metrics, spans.
    ///   - streamsBody: Whether the body of a response with this head is handed on as it arrives.
    ///   - bufferLimit: The most bytes of a streamed body that wait for the reader.
    /// - Throws: ``ApiError`` when the call fails before a response head is handed on.
    package func handThrough<M: ApiMethod>(
        _ method: M,
        name: String,
        streamsBody: (@Sendable (ResponseHead) -> Bool)?,
        bufferLimit: Int = StreamedResponse.Body.defaultBufferLimit
    ) async throws -> StreamedResponse {
        guard isValid else {
            throw ApiError.invalidRequest(.sessionInvalidated)
        }
        let settings = settings(for: method)
        let known = MethodFacts.of(method)
        let facts = MethodFacts(
            takesTiming: false,
            storedRequirements: known.storedRequirements,
            name: name,
            unusedSetting: known.unusedSetting
        )
        guard let streamsBody else {
            let raw = try await handedThroughCall(
                method,
                settings: settings,
                facts: facts,
                options: transportOptions(for: settings, progress: nil),
                shares: settings.sharesIdenticalCalls
            )
            return StreamedResponse(head: raw.head, body: StreamedResponse.Body(pieces: [raw.data]))
        }
        let limit = settings.maximumResponseSize ?? defaultMaximumResponseSize
        return try await StreamedResponse.start(bufferLimit: bufferLimit) { [self] handover in
            let bodyHandler = TransportOptions.BodyHandler.streaming(
                limit: limit,
                buffer: handover.buffer,
                head: handover.head,
                into: handover.pieces,
                accepts: streamsBody
            )
            let raw = try await handedThroughCall(
                method,
                settings: settings,
                facts: facts,
                options: transportOptions(for: settings, progress: nil, bodyHandler: bodyHandler),
                shares: false
            )
            // A body that was not handed on as it arrived (a status the caller collects, a response a
            // middleware made, a transport that ignores the handler) goes on from memory now.
            if handover.head.resolve(.success(raw.head)), !raw.data.isEmpty {
                handover.buffer.add(raw.data.count)
                handover.pieces.yield(raw.data)
            }
        }
    }

    /// One call of `method` through the session's whole chain with `options`, registered while it runs and
    /// in a task of its own when its middlewares need one.
    private func handedThroughCall<M: ApiMethod>(
        _ method: M,
        settings: CallOptions,
        facts: MethodFacts,
        options: TransportOptions,
        shares: Bool
    ) async throws -> RawResponse {
        let opened = try openCall(of: method, settings: settings, group: nil)
        defer { calls.close(opened.id) }
        let operation: @Sendable () async throws -> Result<RawResponse, ApiError> = { [self] in
            try await exchange(
                for: method,
                settings: settings,
                middlewares: opened.chain,
                options: options,
                shares: shares,
                call: opened.call,
                facts: facts
            )
        }
        return try await (opened.needsTask ? runInOwnTask(opened.call, operation) : operation()).get()
    }
}
