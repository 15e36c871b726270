import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Responses read as they arrive: the body in pieces, its lines, server-sent events.
extension ApiSession {
    /// Performs `method` and returns as soon as its response head has arrived, with the body to read
    /// as it arrives.
    ///
    /// ```swift
    /// let response = try await session.stream(ExportOrders())
    /// for try await line in response.lines {
    ///     print(line)
    /// }
    /// ```
    ///
    /// The call goes through the middlewares, redirects and status checks like any other: a status the
    /// method does not accept throws here, with its body, as ``perform(_:options:progress:)`` would. The call is
    /// in flight (``callsInFlight``, ``cancelAllRequests()``) until its body has ended; leaving the loop
    /// over the body, or dropping it, cancels it.
    ///
    /// Pieces that arrive before the loop takes them wait in a buffer of at most `bufferLimit` bytes.
    /// When it is full, the transfer waits for the reader where the transport can make it wait:
    /// AsyncHTTPClient reads no more from the connection (TCP flow control holds the server), Apple's
    /// URLSession suspends the task. URLSession on Linux cannot pause a task, so there a reader that falls
    /// `bufferLimit` bytes behind gets the pieces buffered, then ``ApiError/streamBufferFull(limit:)``.
    /// - Parameters:
    ///   - method: The call to make.
    ///   - limits: ``StreamedResponse/Limits/method`` to hold the whole stream to the method's size limit and
    ///     deadline; ``StreamedResponse/Limits/unlimited`` for a stream that may run without end.
    ///   - bufferLimit: The most bytes that wait for the reader;
    ///     ``StreamedResponse/Body/defaultBufferLimit`` (16 MiB) unless given.
    /// - Throws: ``ApiError`` when the call fails before its body starts.
    public func stream<M: ApiMethod>(
        _ method: M,
        limits: StreamedResponse.Limits = .method,
        bufferLimit: Int = StreamedResponse.Body.defaultBufferLimit
    ) async throws -> StreamedResponse {
        try await stream(method, limits: limits, extraHeaders: [], bufferLimit: bufferLimit)
    }

    /// ``stream(_:limits:bufferLimit:)`` with `extraHeaders` set on the request.
    func stream<M: ApiMethod>(
        _ method: M,
        limits: StreamedResponse.Limits,
        extraHeaders: [(name: String, value: String)],
        bufferLimit: Int = StreamedResponse.Body.defaultBufferLimit
    ) async throws -> StreamedResponse {
        let settings = settings(for: method)
        let limit = limits == .method ? settings.maximumResponseSize ?? defaultMaximumResponseSize : .max
        let acceptable = settings.acceptableStatusCodes
        return try await StreamedResponse.start(bufferLimit: bufferLimit) { [self] handover in
            let handler = TransportOptions.BodyHandler.streaming(
                limit: limit,
                buffer: handover.buffer,
                head: handover.head,
                into: handover.pieces,
                accepts: { acceptable.contains($0.statusCode) }
            )
            _ = try await exchange(
                method,
                handingBodyTo: handler,
                limits: limits,
                extraHeaders: extraHeaders,
                progress: nil
            )
        }
    }

    /// Performs `method` and reads its `text/event-stream` body as server-sent events, reconnecting as
    /// `reconnection` says when the connection ends.
    ///
    /// ```swift
    /// for try await event in session.events(WatchOrders(), reconnection: ServerSentEvents.Reconnection()) {
    ///     print(event.event, event.data)
    /// }
    /// ```
    ///
    /// No deadline or size limit applies (see ``StreamedResponse/Limits/unlimited``); the idle timeout does. Each
    /// reconnection sends `Last-Event-ID` with the last event ID when there is one, after the wait
    /// `reconnection` gives (see ``ServerSentEvents/Reconnection``: a backoff, which the stream's `retry` starts from,
    /// held to its cap). A `204` ends the events for good; a status the method does not accept, or a
    /// response whose `Content-Type` is not `text/event-stream`
    /// (``ApiError/unacceptableContentType(_:)``), throws, whatever `reconnection` says. Leaving the loop
    /// cancels the call.
    /// - Parameters:
    ///   - method: The call that opens the stream; give it `Accept: text/event-stream`.
    ///   - reconnection: When and how often to reconnect; `nil` (the default) ends the events when the
    ///     connection ends.
    public func events<M: ApiMethod>(
        _ method: M,
        reconnection: ServerSentEvents.Reconnection? = nil
    ) -> ServerSentEvents {
        let (events, continuation) = AsyncThrowingStream<ServerSentEvents.Event, any Error>.makeStream()
        let task = Task { [self] in
            var lastEventID: String?
            var retry: Int?
            var failures = 0
            while true {
                var parser = ServerSentEventParser(lastEventID: lastEventID)
                do {
                    let response = try await stream(
                        method,
                        limits: .unlimited,
                        extraHeaders: lastEventID.map { [(name: "Last-Event-ID", value: $0)] } ?? []
                    )
                    if response.statusCode == 204 {
                        continuation.finish()
                        return
                    }
                    try ServerSentEvents.checkMediaType(of: response)
                    failures = 0
                    defer {
                        lastEventID = parser.lastEventID
                        retry = parser.retry ?? retry
                    }
                    for try await piece in response.body {
                        for event in parser.append(piece) {
                            continuation.yield(event)
                        }
                    }
                } catch let error as ApiError
                    where reconnection.map({ error.allowsReconnection && failures < $0.maximumFailures }) ?? false
                {
                    failures += 1
                } catch {
                    continuation.finish(throwing: error)
                    return
                }
                guard let reconnection, !Task.isCancelled else {
                    continuation.finish(throwing: Task.isCancelled ? ApiError.cancelled : nil)
                    return
                }
                let delay = reconnection.delay(
                    afterFailures: failures,
                    serverRetry: retry.map { Duration.milliseconds($0) },
                    random: Double.random(in: 0...1)
                )
                do {
                    try await RetryPolicy.Backoff.sleep(delay)
                } catch {
                    continuation.finish(throwing: ApiError.cancelled)
                    return
                }
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return ServerSentEvents(events, end: { task.cancel() })
    }
}

extension ApiError {
    /// Whether a stream that ended with this error may be opened again: the connection failed or was
    /// lost, or nothing arrived for too long; never for a status, a refused redirect or a bad request.
    var allowsReconnection: Bool {
        switch self {
        case .timeout: true
        case .transport(let failure): failure.kind != .tls && failure.kind != .badResponse
        default: false
        }
    }
}
