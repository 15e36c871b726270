import Foundation

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
///     var options: CallOptions { CallOptions(middlewares: [MinimumDurationMiddleware(minimum: .milliseconds(800))]) }
/// }
/// ```
public struct MinimumDurationMiddleware: Middleware {
    /// The shortest time a call takes; never negative.
    public let minimum: Duration

    /// Waits out the rest of the minimum; throws only when the call is cancelled.
    private let wait: @Sendable (Duration) async throws -> Void

    /// Creates the middleware.
    /// - Parameter minimum: The shortest time a call takes. Zero or a negative duration means no minimum.
    public init(minimum: Duration) {
        self.init(minimum: minimum, wait: RetryPolicy.Backoff.sleep)
    }

    /// Creates the middleware with the wait it uses, so a test can see each wait it asks for.
    package init(minimum: Duration, wait: @escaping @Sendable (Duration) async throws -> Void) {
        self.minimum = max(minimum, .zero)
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
        let start = ContinuousClock.now
        let outcome: Result<RawResponse, any Error>
        do {
            outcome = .success(try await next(request))
        } catch ApiError.cancelled, is CancellationError {
            throw ApiError.cancelled
        } catch {
            outcome = .failure(error)
        }
        let elapsed = ContinuousClock.now - start
        if Task.isCancelled {
            throw ApiError.cancelled
        }
        if elapsed < minimum {
            do {
                try await wait(minimum - elapsed)
            } catch {
                // The only error a sleep throws is CancellationError.
                throw ApiError.cancelled
            }
        }
        return try outcome.get()
    }
}
