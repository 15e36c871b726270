import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Call: ApiMethod {
    typealias Response = Data
    var httpMethod: HTTPMethod = .get
    var hostProviderKey: String { "api" }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/x")
    }

    func encode(to encoder: any Encoder) throws {}
}

/// A call whose method changes the policy: `never` opts out, `allowingPost` adds `POST`.
private struct CustomCall: ApiMethod {
    typealias Response = Data
    var httpMethod: HTTPMethod = .post
    var optsOut = false
    var hostProviderKey: String { "api" }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/x")
    }

    var options: CallOptions {
        CallOptions(retryPolicy: { [optsOut] policy in
            if optsOut { return .never }
            var policy = policy
            policy.retryableMethods.insert(.post)
            return policy
        })
    }

    func encode(to encoder: any Encoder) throws {}
}

/// Replies in order; the last one repeats.
private final class Replies: Sendable {
    private let replies: LockedValue<[CannedResponse]>

    init(_ replies: [CannedResponse]) {
        self.replies = LockedValue(replies)
    }

    func next() -> CannedResponse {
        replies.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
    }
}

/// Stands in for `Task.sleep`: records each wait and returns at once (or throws when cancelled).
private final class Recorder: Sendable {
    private let state = LockedValue<(waits: [TimeInterval], retries: [RetryMiddleware.Retry])>(([], []))

    var waits: [TimeInterval] { state.current.waits }
    var retries: [RetryMiddleware.Retry] { state.current.retries }

    func sleep(_ delay: Duration) async throws {
        state.withLock { $0.waits.append(RetryPolicy.Backoff.seconds(of: delay)) }
        try Task.checkCancellation()
    }

    func record(_ retry: RetryMiddleware.Retry) {
        state.withLock { $0.retries.append(retry) }
    }
}

/// A middleware after the retry one: records the attempt number it sees, and may throw instead of sending.
private struct Probe: Middleware {
    let attempts = LockedValue<[Int]>([])
    var error: (any Error)?

    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        attempts.withLock { $0.append(context.attempt) }
        if let error { throw error }
        return try await next(request)
    }
}

private struct Boom: Error, Equatable {}

/// `RetryMiddleware` and `RetryPolicy` against the stub server, with recorded instead of real waits.
@Suite(.timeLimit(.minutes(1)))
struct RetryMiddlewareTests {
    let server = StubTransport()
    private let recorder = Recorder()

    /// A session with the retry middleware (random values in turn, the last one repeating), then `inner`.
    private func makeSession(
        _ policy: RetryPolicy = RetryPolicy(),
        random: [Double] = [0.5],
        now: Date = Date(timeIntervalSince1970: 784_111_777),
        inner: [any Middleware] = []
    ) -> ApiSession {
        let randoms = LockedValue(random)
        let recorder = recorder
        let retry = RetryMiddleware(
            policy: policy,
            onRetry: { recorder.record($0) },
            random: { randoms.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] } },
            sleep: { try await recorder.sleep($0) },
            now: { now }
        )
        return server.makeSession(hosts: ["api": "https://api.test"], middlewares: [retry] + inner)
    }

    private func reply(_ replies: CannedResponse...) {
        let replies = Replies(replies)
        server.on("/x") { _ in replies.next() }
    }

    // MARK: - Statuses and methods

    @Test(arguments: [408, 429, 500, 502, 503, 504])
    func retryableStatusIsRetriedUntilAttemptsRunOut(status: Int) async throws {
        reply(.json(#"{"busy":true}"#, statusCode: status))
        let error = await #expect(throws: ApiError.self) { try await makeSession().perform(Call()) }
        #expect(error?.category == .status)
        #expect(error?.statusCode == status)
        #expect(server.requests.count == 3)
        // Equal jitter with random 0.5: 3/4 of the backoff 0.5 s, then of 1 s.
        #expect(recorder.waits == [0.375, 0.75])
        #expect(recorder.retries.map(\.reason) == [.status(status), .status(status)])
        #expect(recorder.retries.map(\.attempt) == [1, 2])
    }

    @Test(arguments: [400, 401, 403, 404, 409, 422, 501, 505])
    func otherStatusIsNotRetried(status: Int) async throws {
        reply(.status(status))
        let error = await #expect(throws: ApiError.self) { try await makeSession().perform(Call()) }
        #expect(error?.statusCode == status)
        #expect(server.requests.count == 1)
        #expect(recorder.waits.isEmpty)
    }

    @Test func successAfterFailuresEndsTheRetries() async throws {
        reply(.status(503), .status(502), .text("done"), .status(500))
        let data = try await makeSession(RetryPolicy(maximumAttempts: 5)).perform(Call())
        #expect(data == Data("done".utf8))
        #expect(server.requests.count == 3)
        #expect(recorder.retries.map(\.reason) == [.status(503), .status(502)])
    }

    @Test(arguments: [HTTPMethod.get, .head, .options, .put, .delete, .trace])
    func idempotentMethodsAreRetried(method: HTTPMethod) async throws {
        reply(.status(503))
        let error = await #expect(throws: ApiError.self) { try await makeSession().perform(Call(httpMethod: method)) }
        #expect(error?.statusCode == 503)
        #expect(server.requests.map(\.method) == [method, method, method])
    }

    @Test(arguments: [HTTPMethod.post, .patch, HTTPMethod(rawValue: "PURGE")])
    func nonIdempotentMethodIsNotRetriedOnAStatus(method: HTTPMethod) async throws {
        reply(.json(#"{"busy":true}"#, statusCode: 503, headers: ["Retry-After": "1"]))
        let error = await #expect(throws: ApiError.self) { try await makeSession().perform(Call(httpMethod: method)) }
        guard case .unacceptableStatus(let failure) = error else {
            Issue.record("expected unacceptableStatus, got \(String(describing: error))")
            return
        }
        #expect(failure.statusCode == 503)
        #expect(server.requests.count == 1)
        #expect(recorder.retries.isEmpty)
    }

    @Test(arguments: [0, 1])
    func oneAttemptOrFewerMeansNoRetry(maxAttempts: Int) async throws {
        reply(.status(503))
        await #expect(throws: ApiError.self) {
            try await makeSession(RetryPolicy(maximumAttempts: maxAttempts)).perform(Call())
        }
        #expect(server.requests.count == 1)
    }

    @Test func policySetsTheStatusesAndMethods() async throws {
        reply(.status(418))
        var policy = RetryPolicy(maximumAttempts: 2, retryableMethods: [.post])
        policy.retryableStatusCodes = [418]
        await #expect(throws: ApiError.self) { try await makeSession(policy).perform(Call(httpMethod: .post)) }
        #expect(server.requests.count == 2)
        await #expect(throws: ApiError.self) { try await makeSession(policy).perform(Call(httpMethod: .get)) }
        #expect(server.requests.count == 3)
    }

    @Test func methodCanCustomizeOrOptOut() async throws {
        reply(.status(503))
        await #expect(throws: ApiError.self) { try await makeSession().perform(CustomCall()) }
        #expect(server.requests.count == 3)
        await #expect(throws: ApiError.self) {
            try await makeSession().perform(CustomCall(httpMethod: .get, optsOut: true))
        }
        #expect(server.requests.count == 4)
        // One call opts out on its own; its change applies after the method's, which allowed POST.
        await #expect(throws: ApiError.self) {
            try await makeSession().perform(CustomCall(), options: CallOptions(retryPolicy: { _ in .never }))
        }
        #expect(server.requests.count == 5)
    }

    // MARK: - Transport failures

    /// Connection refused and DNS failures end before the request is written, so every method is retried.
    @Test(arguments: [
        (URLError.Code.cannotConnectToHost, HTTPMethod.get, 3), (.cannotConnectToHost, .post, 3),
        (.cannotConnectToHost, .patch, 3), (.cannotFindHost, .get, 3), (.cannotFindHost, .post, 3),
        (.networkConnectionLost, .get, 3), (.networkConnectionLost, .post, 1), (.timedOut, .put, 3),
        (.timedOut, .post, 1), (.notConnectedToInternet, .get, 1), (.secureConnectionFailed, .get, 1),
        (.badServerResponse, .get, 1), (.unknown, .get, 1), (.cancelled, .get, 1),
    ])
    func transportFailuresAreRetriedWhenTransient(code: URLError.Code, method: HTTPMethod, attempts: Int) async throws {
        reply(.failure(ApiError(URLError(code))))
        let error = await #expect(throws: ApiError.self) { try await makeSession().perform(Call(httpMethod: method)) }
        #expect(error == ApiError(URLError(code)))
        #expect(server.requests.count == attempts)
        #expect(
            recorder.retries.map(\.reason) == Array(repeating: .failure(ApiError(URLError(code))), count: attempts - 1)
        )
    }

    @Test func postSucceedsAfterConnectionRefused() async throws {
        reply(
            .failure(.transport(.init(kind: .cannotConnect))),
            .failure(.transport(.init(kind: .cannotConnect))),
            .text("created", statusCode: 201)
        )
        let data = try await makeSession().perform(Call(httpMethod: .post))
        #expect(data == Data("created".utf8))
        #expect(server.requests.map(\.method) == [.post, .post, .post])
    }

    @Test func timeoutsCanBeExcluded() async throws {
        reply(.failure(.timeout))
        await #expect(throws: ApiError.timeout) {
            try await makeSession(RetryPolicy(retriesTimeouts: false)).perform(Call())
        }
        #expect(server.requests.count == 1)
    }

    @Test func invalidRequestFromTheChainIsNotRetried() async throws {
        reply(.text("ok"))
        let probe = Probe(error: ApiError.invalidRequest(.invalidHeader(name: "X-Bad")))
        await #expect(throws: ApiError.invalidRequest(.invalidHeader(name: "X-Bad"))) {
            try await makeSession(inner: [probe]).perform(Call())
        }
        #expect(probe.attempts.current == [1])
        #expect(server.requests.isEmpty)
    }

    @Test func ownErrorOfAMiddlewareIsNotRetriedAndStaysUnchanged() async throws {
        let probe = Probe(error: Boom())
        await #expect(throws: Boom()) { try await makeSession(inner: [probe]).perform(Call()) }
        #expect(probe.attempts.current == [1])
    }

    @Test func statusErrorThrownCloserToTheNetworkIsRetriedLikeTheResponse() async throws {
        let failure = ApiError.StatusFailure(statusCode: 503, headers: ["Retry-After": "4"])
        let probe = Probe(error: ApiError.unacceptableStatus(failure))
        await #expect(throws: ApiError.unacceptableStatus(failure)) {
            try await makeSession(inner: [probe]).perform(Call())
        }
        #expect(probe.attempts.current == [1, 2, 3])
        #expect(recorder.waits == [4, 4])
    }

    @Test func laterMiddlewaresSeeEachAttemptNumber() async throws {
        reply(.status(500), .status(500), .text("ok"))
        let probe = Probe()
        _ = try await makeSession(inner: [probe]).perform(Call())
        #expect(probe.attempts.current == [1, 2, 3])
    }

    // MARK: - Waits

    @Test func retryAfterSecondsSetTheWait() async throws {
        reply(.json("{}", statusCode: 429, headers: ["Retry-After": "7"]), .text("ok"))
        _ = try await makeSession().perform(Call())
        #expect(recorder.waits == [7])
        #expect(
            recorder.retries == [.init(attempt: 1, delay: .seconds(7), reason: .status(429), followsRetryAfter: true)]
        )
    }

    @Test func retryAfterDateSetsTheWait() async throws {
        // `now` is Sun, 06 Nov 1994 08:49:37 GMT.
        reply(.json("{}", statusCode: 503, headers: ["Retry-After": "Sun, 06 Nov 1994 08:50:07 GMT"]), .text("ok"))
        _ = try await makeSession().perform(Call())
        #expect(recorder.waits == [30])
        #expect(recorder.retries.map(\.followsRetryAfter) == [true])
    }

    @Test func retryAfterInThePastRetriesAtOnce() async throws {
        reply(.json("{}", statusCode: 503, headers: ["Retry-After": "Sun, 06 Nov 1994 08:00:00 GMT"]), .text("ok"))
        _ = try await makeSession().perform(Call())
        #expect(recorder.waits == [0])
    }

    @Test func retryAfterUpToTheCapIsHonoured() async throws {
        reply(.json("{}", statusCode: 503, headers: ["Retry-After": "60"]), .text("ok"))
        _ = try await makeSession().perform(Call())
        #expect(recorder.waits == [60])
    }

    /// A longer `Retry-After` than `maximumRetryAfter` returns the response at once, header included.
    @Test(arguments: ["61", "Sun, 06 Nov 1994 08:50:38 GMT", "99999999999999999999999"])
    func retryAfterBeyondTheCapEndsTheRetries(value: String) async throws {
        reply(.json("{}", statusCode: 503, headers: ["Retry-After": value]))
        let error = await #expect(throws: ApiError.self) { try await makeSession().perform(Call()) }
        guard case .unacceptableStatus(let failure) = error else {
            Issue.record("expected unacceptableStatus, got \(String(describing: error))")
            return
        }
        #expect(failure.headers["Retry-After"] == value)
        #expect(server.requests.count == 1)
        #expect(recorder.waits.isEmpty)
    }

    @Test(arguments: ["soon", "-5", "1.5", ""])
    func invalidRetryAfterFallsBackToTheBackoff(value: String) async throws {
        reply(.json("{}", statusCode: 503, headers: ["Retry-After": value]), .text("ok"))
        _ = try await makeSession().perform(Call())
        #expect(recorder.waits == [0.375])
        #expect(recorder.retries.map(\.followsRetryAfter) == [false])
    }

    @Test func retryAfterCanBeIgnored() async throws {
        reply(.json("{}", statusCode: 503, headers: ["Retry-After": "120"]), .text("ok"))
        _ = try await makeSession(RetryPolicy(honorsRetryAfter: false)).perform(Call())
        #expect(recorder.waits == [0.375])
    }

    @Test func backoffGrowsUpToTheMaximumWithInjectedJitter() async throws {
        reply(.status(503))
        let policy = RetryPolicy(
            maximumAttempts: 6,
            backoff: RetryPolicy.Backoff(initialDelay: .seconds(1), factor: 3, maximumDelay: .seconds(20))
        )
        await #expect(throws: ApiError.self) {
            try await makeSession(policy, random: [0, 0.5, 0.25, 1, 0.75]).perform(Call())
        }
        // Backoffs 1, 3, 9, 20, 20; equal jitter gives half of each plus random × the other half.
        #expect(recorder.waits == [0.5, 2.25, 5.625, 20, 17.5])
        #expect(server.requests.count == 6)
    }

    @Test(arguments: [
        (RetryPolicy.Backoff.Jitter.none, 0.3, [1.0, 2, 4, 8, 10]),
        (.equal, 0.0, [0.5, 1, 2, 4, 5]),
        (.equal, 0.5, [0.75, 1.5, 3, 6, 7.5]),
        (.full, 0.5, [0.5, 1, 2, 4, 5]),
        (.full, 0.0, [0, 0, 0, 0, 0]),
    ])
    func backoffFollowsTheJitterScheme(jitter: RetryPolicy.Backoff.Jitter, random: Double, expected: [TimeInterval]) {
        let policy = RetryPolicy(
            backoff: RetryPolicy.Backoff(initialDelay: .seconds(1), maximumDelay: .seconds(10), jitter: jitter)
        )
        let delays = (1...5).map { policy.backoffDelay(beforeRetry: $0, random: random) }
        #expect(delays.map(RetryPolicy.Backoff.seconds(of:)) == expected)
    }

    @Test func oddSettingsGiveFiniteNonNegativeBackoffs() {
        let longest = Duration.seconds(Int64.max)
        let policies = [
            RetryPolicy.Backoff(initialDelay: .seconds(-1)), RetryPolicy.Backoff(factor: .nan),
            RetryPolicy.Backoff(factor: .infinity), RetryPolicy.Backoff(factor: -2),
            RetryPolicy.Backoff(maximumDelay: longest), RetryPolicy.Backoff(maximumDelay: .seconds(-3)),
            RetryPolicy.Backoff(initialDelay: longest, maximumDelay: longest),
        ].map { RetryPolicy(backoff: $0) }
        for policy in policies {
            for retry in [0, 1, 2, 1000, Int.max] {
                for random in [0, 0.5, 1, .nan, -3, 7] {
                    let delay = policy.backoffDelay(beforeRetry: retry, random: random)
                    #expect(delay >= .zero && delay <= .seconds(1e9), "\(policy) \(retry) \(random)")
                }
            }
        }
    }

    // MARK: - Cancellation

    /// The real `Task.sleep`: cancelling during a 10 s backoff ends the call at once, without another attempt.
    @Test func cancellingDuringTheBackoffEndsAtOnce() async throws {
        reply(.status(503))
        let retried = LockedValue(false)
        let retry = RetryMiddleware(policy: RetryPolicy(backoff: .constant(.seconds(60)))) { _ in
            retried.withLock { $0 = true }
        }
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [retry])
        let task = Task { try await session.perform(Call()) }
        try await waitUntil { retried.current }
        let start = ContinuousClock.now
        task.cancel()
        await #expect(throws: ApiError.cancelled) { try await task.value }
        #expect(ContinuousClock.now - start < promptly)  // not the 60 s backoff
        try await Task.sleep(for: .milliseconds(100))
        #expect(server.requests.count == 1)
    }

    @Test func cancelAllRequestsEndsACallWaitingToRetry() async throws {
        reply(.failure(.transport(.init(kind: .cannotConnect))))
        let retried = LockedValue(false)
        let retry = RetryMiddleware(policy: RetryPolicy(backoff: .constant(.seconds(60)))) { _ in
            retried.withLock { $0 = true }
        }
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [retry])
        let task = Task { try await session.perform(Call(httpMethod: .post)) }
        try await waitUntil { retried.current }
        let start = ContinuousClock.now
        session.cancelAllRequests()
        await #expect(throws: ApiError.cancelled) { try await task.value }
        #expect(ContinuousClock.now - start < promptly)  // not the 60 s backoff
        #expect(server.requests.count == 1)
    }

    @Test func callCancelledInFlightIsNotRetried() async throws {
        reply(CannedResponse.status(503).delayed(by: .seconds(0.5)))
        let session = makeSession()
        let task = Task { try await session.perform(Call()) }
        try await waitUntil { server.requests.count == 1 }
        task.cancel()
        await #expect(throws: ApiError.cancelled) { try await task.value }
        try await Task.sleep(for: .milliseconds(600))
        #expect(server.requests.count == 1)
        #expect(recorder.retries.isEmpty)
    }

    // MARK: - Reporting

    @Test func retryDescriptionsAreOneLineWithoutSecrets() {
        let status = RetryMiddleware.Retry(
            attempt: 1,
            delay: .seconds(1),
            reason: .status(503),
            followsRetryAfter: true
        )
        #expect(status.description == "attempt 1 failed with status 503; retrying in 1.000 s (Retry-After)")
        let failure = RetryMiddleware.Retry(
            attempt: 2,
            delay: .milliseconds(250),
            reason: .failure(.transport(.init(kind: .cannotConnect, code: -1004))),
            followsRetryAfter: false
        )
        #expect(
            failure.description
                == "attempt 2 failed with Transport failure: cannotConnect (URLError -1004); retrying in 0.250 s"
        )
        for delay in [Duration.seconds(Int64.max), .seconds(-5)] {
            let odd = RetryMiddleware.Retry(
                attempt: 3,
                delay: delay,
                reason: .failure(.timeout),
                followsRetryAfter: false
            )
            #expect(odd.description.hasPrefix("attempt 3 failed with The request timed out; retrying in "))
        }
    }

    @Test func onRetryReportsEachRetryInOrder() async throws {
        reply(
            .failure(.transport(.init(kind: .cannotConnect))),
            .json("{}", statusCode: 503, headers: ["Retry-After": "2"]),
            .text("ok")
        )
        _ = try await makeSession().perform(Call())
        #expect(
            recorder.retries == [
                .init(
                    attempt: 1,
                    delay: .milliseconds(375),
                    reason: .failure(ApiError(URLError(.cannotConnectToHost))),
                    followsRetryAfter: false
                ),
                .init(attempt: 2, delay: .seconds(2), reason: .status(503), followsRetryAfter: true),
            ]
        )
    }
}
