public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Reports every call's outcome for app-wide handling: failures to a delegate and to any number of
/// `AsyncStream`s, and metrics of successes to a closure.
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
        for continuation in state.withLock({ $0.streams.values }) {
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

    /// Passes the request on and reports the outcome.
    public func intercept(
        _ request: URLRequest,
        context: MiddlewareContext,
        next: @Sendable (URLRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let raw = try await next(request)
            let duration = clock.now - start
            let acceptable = context.method.acceptableStatusCodes
            if let error = ApiError(unacceptable: raw.response, body: raw.data, acceptable: acceptable) {
                report(
                    ApiFailure(
                        methodName: context.methodName,
                        httpMethod: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
                        url: request.url.map(ApiError.StatusFailure.withoutQuery),
                        statusCode: raw.statusCode,
                        error: error,
                        duration: duration
                    ),
                    session: context.session
                )
            } else {
                onSuccess?(
                    RequestMetrics(
                        methodName: context.methodName,
                        httpMethod: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
                        url: request.url.map(ApiError.StatusFailure.withoutQuery),
                        statusCode: raw.statusCode,
                        duration: duration,
                        requestBodyBytes: request.httpBody?.count ?? 0,
                        responseBodyBytes: raw.data.count
                    )
                )
            }
            return raw
        } catch {
            report(
                ApiFailure(
                    methodName: context.methodName,
                    httpMethod: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
                    url: request.url.map(ApiError.StatusFailure.withoutQuery),
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
        let (delegate, streams) = state.withLock { ($0.delegate, Array($0.streams.values)) }
        delegate?.apiSession(session, didFail: failure)
        for stream in streams {
            stream.yield(failure)
        }
    }
}

/// Told about every failure an ``ObserverMiddleware`` sees, for app-wide handling such as signing out
/// on `401` or showing an offline banner.
public protocol ApiFailureDelegate: AnyObject, Sendable {
    /// A call of `session` failed.
    func apiSession(_ session: ApiSession, didFail failure: ApiFailure)
}

/// One failed call, as an ``ObserverMiddleware`` reports it. It holds no header values and no query,
/// so it is safe to log.
public struct ApiFailure: Sendable {
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
}

/// The measurements of one successful call.
public struct RequestMetrics: Sendable, Hashable {
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
