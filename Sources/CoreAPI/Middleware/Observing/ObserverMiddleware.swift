#if canImport(FoundationNetworking)
    public import Foundation
    import FoundationNetworking
#else
    public import Foundation
#endif

/// Reports every call's outcome for app-wide handling: failures to a delegate and to any number of
/// `AsyncStream`s, metrics of successes to a closure, and each call's start, finish or failure as a
/// ``ObserverMiddleware/Event`` stream (see ``events()``).
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
        weak var delegate: (any ObserverMiddleware.FailureDelegate)?
        var streams: [UUID: AsyncStream<ObserverMiddleware.Failure>.Continuation] = [:]
        var eventStreams: [UUID: AsyncStream<ObserverMiddleware.Event>.Continuation] = [:]
    }

    private let state = LockedValue(State())
    private let onSuccess: (@Sendable (ObserverMiddleware.Metrics) -> Void)?

    /// Creates an observer.
    /// - Parameters:
    ///   - delegate: Told about every failure; held weakly.
    ///   - onSuccess: Called with the metrics of every call whose status the method accepts.
    public init(
        delegate: (any ObserverMiddleware.FailureDelegate)? = nil,
        onSuccess: (@Sendable (ObserverMiddleware.Metrics) -> Void)? = nil
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
    public var delegate: (any ObserverMiddleware.FailureDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    /// A new stream of the failures from now on; each call gives an independent stream, which ends
    /// when its consumer stops iterating or the observer is released. Failures are buffered (up to
    /// the newest 100) while the consumer is busy.
    public func failures() -> AsyncStream<ObserverMiddleware.Failure> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<ObserverMiddleware.Failure>.makeStream(
            bufferingPolicy: .bufferingNewest(100)
        )
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.streams.removeValue(forKey: id) }
        }
        state.withLock { $0.streams[id] = continuation }
        return stream
    }

    /// A new stream of call events from now on: a ``ObserverMiddleware/Event/started(_:)`` as each call (each attempt,
    /// when the observer sits after a retry middleware) reaches the observer, then its
    /// ``ObserverMiddleware/Event/finished(_:)`` or ``ObserverMiddleware/Event/failed(_:)``. A stream made while a call is under way
    /// sees that call's end without its start, and events of concurrent calls interleave. Each call
    /// gives an independent stream, which ends when it is released or the observer is; events are
    /// buffered (up to the newest 100) while the consumer is busy, older ones dropped.
    public func events() -> AsyncStream<ObserverMiddleware.Event> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<ObserverMiddleware.Event>.makeStream(
            bufferingPolicy: .bufferingNewest(100)
        )
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.eventStreams.removeValue(forKey: id) }
        }
        state.withLock { $0.eventStreams[id] = continuation }
        return stream
    }

    /// `true`: its streams and handlers are fed without waiting, so a call with it needs no task of its own
    /// (see ``Middleware/waitsOnlyInNext``).
    public var waitsOnlyInNext: Bool { true }

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
            let started = ObserverMiddleware.Event.started(
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
                    ObserverMiddleware.Failure(
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
                let metrics = ObserverMiddleware.Metrics(
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
                ObserverMiddleware.Failure(
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

    private func report(_ failure: ObserverMiddleware.Failure, session: ApiSession) {
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

extension ObserverMiddleware {
    /// Told about every failure an ``ObserverMiddleware`` sees, for app-wide handling such as signing out
    /// on `401` or showing an offline banner.
    public protocol FailureDelegate: AnyObject, Sendable {
        /// A call of `session` failed.
        func apiSession(_ session: ApiSession, didFail failure: ObserverMiddleware.Failure)
    }
}

extension ObserverMiddleware {
    /// One failed call, as an ``ObserverMiddleware`` reports it. It holds no header values and no query,
    /// so it is safe to log.
    public struct Failure: Sendable {
        /// The method's type name.
        public var methodName: String
        /// The HTTP method.
        public var httpMethod: HTTPMethod
        /// The URL without query, fragment or credentials.
        public var url: URL?
        /// The status code, when a response arrived.
        public var statusCode: Int?
        /// The error: an ``ApiError`` (for a status, ``ApiError/unacceptableStatus(_:)`` or
        /// ``ApiError/unauthorized(_:)``), or a middleware's own error.
        public var error: any Error
        /// How long the call took.
        public var duration: Duration

        /// What kind of failure it is, for handling that does not need the details.
        public var category: ApiError.Category { ApiError.Category(error) }
    }
}

extension ObserverMiddleware {
    /// A step in the life of a call, as an ``ObserverMiddleware`` sees it: it started, it finished with a
    /// status the method accepts, or it failed.
    ///
    /// Like ``ObserverMiddleware/Failure``, events hold no header values and no query, so they are safe to log.
    public enum Event: Sendable {
        /// The call reached the observer, about to be sent.
        case started(Start)
        /// A response arrived with a status the method accepts.
        case finished(ObserverMiddleware.Metrics)
        /// The call failed; ``ObserverMiddleware/Failure/category`` says how.
        case failed(ObserverMiddleware.Failure)

        /// A call that reached the observer.
        public struct Start: Sendable, Hashable {
            /// The method's type name.
            public var methodName: String
            /// The HTTP method.
            public var httpMethod: HTTPMethod
            /// The URL without query, fragment or credentials.
            public var url: URL?
            /// Which attempt of the call this is: 1, then 2 and on when a retry runs the chain again.
            public var attempt: Int
        }
    }
}

extension ObserverMiddleware {
    /// The measurements of one successful call.
    public struct Metrics: Sendable, Hashable {
        /// The method's type name.
        public var methodName: String
        /// The HTTP method.
        public var httpMethod: HTTPMethod
        /// The URL without query, fragment or credentials.
        public var url: URL?
        /// The status code.
        public var statusCode: Int
        /// How long the call took, from this middleware to the end of the response body.
        public var duration: Duration
        /// The bytes of the request body held in memory (0 for bodies uploaded from a file).
        public var requestBodyBytes: Int
        /// The bytes of the response body, after content decoding.
        public var responseBodyBytes: Int
    }
}
