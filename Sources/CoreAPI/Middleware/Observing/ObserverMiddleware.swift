#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    public import Foundation
#endif

/// Reports every call's outcome for app-wide handling: failures to a delegate and to any number of
/// `AsyncStream`s, metrics of successes to a closure, and each call's start, finish or failure as a
/// ``CallEvent`` stream (see ``events()``).
///
/// A failure is an error thrown by the rest of the chain (transport failures, timeouts,
/// cancellations, a middleware's own errors) or a response whose status the method does not accept.
/// Put the observer first in the session's middlewares to see each call once, after retries and
/// token refreshes; put it later to see every attempt. Parse failures happen after the chain and are
/// not reported here.
///
/// ```swift
/// let observer = ObserverMiddleware { metrics in print(metrics.methodName, metrics.duration) }
/// let session = ApiSession(hostProvider: hosts, middlewares: [observer])
/// Task {
///     for await failure in observer.failures() {
///         if failure.statusCode == 401 { await signOut() }
///     }
/// }
/// ```
public final class ObserverMiddleware: Middleware {
    private struct State {
        weak var delegate: (any ApiFailureDelegate)?
        var streams: [UUID: AsyncStream<ApiFailure>.Continuation] = [:]
        var eventStreams: [UUID: AsyncStream<CallEvent>.Continuation] = [:]
    }

    private let state = LockedValue(State())
    private let onSuccess: (@Sendable (RequestMetrics) -> Void)?

    /// Creates an observer.
    /// - Parameters:
    ///   - delegate: Told about every failure; held weakly.
    ///   - onSuccess: Called with the metrics of every call whose status the method accepts.
    public init(
        delegate: (any ApiFailureDelegate)? = nil,
        onSuccess: (@Sendable (RequestMetrics) -> Void)? = nil
    ) {
        self.onSuccess = onSuccess
        state.withLock { $0.delegate = delegate }
    }

    deinit {
        let (failures, events) = state.withLock { (Array($0.streams.values), Array($0.eventStreams.values)) }
        for continuation in failures {
            continuation.finish()
        }
        for continuation in events {
            continuation.finish()
        }
    }

    /// The failure delegate, held weakly.
    public var delegate: (any ApiFailureDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    /// A new stream of the failures from now on; each call gives an independent stream, which ends
    /// when its consumer stops iterating or the observer is released. Failures are buffered (up to
    /// the newest 100) while the consumer is busy.
    public func failures() -> AsyncStream<ApiFailure> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<ApiFailure>.makeStream(bufferingPolicy: .bufferingNewest(100))
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.streams.removeValue(forKey: id) }
        }
        state.withLock { $0.streams[id] = continuation }
        return stream
    }

    /// A new stream of call events from now on: a ``CallEvent/started(_:)`` as each call (each attempt,
    /// when the observer sits after a retry middleware) reaches the observer, then its
    /// ``CallEvent/finished(_:)`` or ``CallEvent/failed(_:)``. A stream made while a call is under way
    /// sees that call's end without its start, and events of concurrent calls interleave. Each call
    /// gives an independent stream, which ends when it is released or the observer is; events are
    /// buffered (up to the newest 100) while the consumer is busy, older ones dropped.
    public func events() -> AsyncStream<CallEvent> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<CallEvent>.makeStream(bufferingPolicy: .bufferingNewest(100))
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.eventStreams.removeValue(forKey: id) }
        }
        state.withLock { $0.eventStreams[id] = continuation }
        return stream
    }

    /// Passes the request on and reports the outcome.
    public func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        let clock = ContinuousClock()
        let start = clock.now
        let eventStreams = state.withLock { Array($0.eventStreams.values) }
        if !eventStreams.isEmpty {
            let started = CallEvent.started(
                .init(
                    methodName: context.methodName,
                    httpMethod: HTTPMethod(rawValue: request.method.rawValue),
                    url: ApiError.StatusFailure.withoutQuery(request.url),
                    attempt: context.attempt
                )
            )
            for stream in eventStreams {
                stream.yield(started)
            }
        }
        do {
            let raw = try await next(request)
            let duration = clock.now - start
            let acceptable = context.options.acceptableStatusCodes
            if let error = ApiError(unacceptable: raw.head, body: raw.data, acceptable: acceptable) {
                report(
                    ApiFailure(
                        methodName: context.methodName,
                        httpMethod: HTTPMethod(rawValue: request.method.rawValue),
                        url: ApiError.StatusFailure.withoutQuery(request.url),
                        statusCode: raw.statusCode,
                        error: error,
                        duration: duration
                    ),
                    session: context.session
                )
            } else {
                let metrics = RequestMetrics(
                    methodName: context.methodName,
                    httpMethod: HTTPMethod(rawValue: request.method.rawValue),
                    url: ApiError.StatusFailure.withoutQuery(request.url),
                    statusCode: raw.statusCode,
                    duration: duration,
                    requestBodyBytes: Int(request.body.length),
                    responseBodyBytes: raw.data.count
                )
                onSuccess?(metrics)
                for stream in state.withLock({ Array($0.eventStreams.values) }) {
                    stream.yield(.finished(metrics))
                }
            }
            return raw
        } catch {
            report(
                ApiFailure(
                    methodName: context.methodName,
                    httpMethod: HTTPMethod(rawValue: request.method.rawValue),
                    url: ApiError.StatusFailure.withoutQuery(request.url),
                    statusCode: nil,
                    error: error,
                    duration: clock.now - start
                ),
                session: context.session
            )
            throw error
        }
    }

    private func report(_ failure: ApiFailure, session: ApiSession) {
        let (delegate, streams, eventStreams) = state.withLock {
            ($0.delegate, Array($0.streams.values), Array($0.eventStreams.values))
        }
        delegate?.apiSession(session, didFail: failure)
        for stream in streams {
            stream.yield(failure)
        }
        for stream in eventStreams {
            stream.yield(.failed(failure))
        }
    }
}
