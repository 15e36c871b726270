public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Makes every call last at least a minimum time, so a fast reply does not flash past the user.
///
/// A call that ends sooner waits until the minimum has passed since it entered this middleware; one that
/// takes longer returns at once. The wait applies to failures as well as successes: an error screen that
/// replaces a spinner after a few milliseconds flickers just like a result does, and a failure that
/// answers visibly faster than a success would tell the user (or an observer) something the success
/// path hides. Cancellation is the exception: a cancelled call — cancelled before or during the wait,
/// or ending with ``ApiError/cancelled`` — ends at once with ``ApiError/cancelled``.
///
/// Put it first in the session's middlewares to time the whole call, retries included, or in a method's
/// ``CallOptions/middlewares`` for that method alone.
///
/// ```swift
/// struct Login: ApiMethod {
///     typealias Response = EmptyResponse
///     let email: String
///     let password: String
///     var hostProviderKey: String { "api" }
///     var httpMethod: HTTPMethod { .post }
///     var path: String { "/login" }
///     var options: CallOptions { CallOptions(middlewares: [MinimumDurationMiddleware(seconds: 0.8)]) }
/// }
/// ```
public struct MinimumDurationMiddleware: Middleware {
    /// The shortest time a call takes, in seconds; never negative.
    public let seconds: TimeInterval

    /// Waits out the rest of the minimum; throws only when the call is cancelled.
    private let wait: @Sendable (TimeInterval) async throws -> Void

    /// Creates the middleware.
    /// - Parameter seconds: The shortest time a call takes. Zero, a negative value, NaN or infinity
    ///   means no minimum.
    public init(seconds: TimeInterval) {
        self.init(seconds: seconds, wait: { try await RetryMiddleware.sleep(seconds: $0) })
    }

    /// Creates the middleware with the wait it uses, so a test can see each wait it asks for.
    package init(seconds: TimeInterval, wait: @escaping @Sendable (TimeInterval) async throws -> Void) {
        self.seconds = seconds.isFinite && seconds > 0 ? seconds : 0
        self.wait = wait
    }

    /// Sends `request` through `next`, then waits out the rest of the minimum.
    /// - Parameters:
    ///   - request: The request to send.
    ///   - context: The call.
    ///   - next: The rest of the chain.
    /// - Returns: The response of `next`.
    /// - Throws: The error of `next`, after the wait; ``ApiError/cancelled`` at once when the call is cancelled.
    public func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        let start = DispatchTime.now().uptimeNanoseconds
        let outcome: Result<RawResponse, any Error>
        do {
            outcome = .success(try await next(request))
        } catch ApiError.cancelled, is CancellationError {
            throw ApiError.cancelled
        } catch {
            outcome = .failure(error)
        }
        let elapsed = TimeInterval(DispatchTime.now().uptimeNanoseconds &- start) / 1e9
        if Task.isCancelled {
            throw ApiError.cancelled
        }
        if elapsed < seconds {
            do {
                try await wait(seconds - elapsed)
            } catch {
                // The only error a sleep throws is CancellationError.
                throw ApiError.cancelled
            }
        }
        return try outcome.get()
    }
}
