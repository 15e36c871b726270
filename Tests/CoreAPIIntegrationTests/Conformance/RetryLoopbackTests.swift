import CoreAPI
import CoreAPIJSON
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A middleware after the retry one: records when each attempt set off.
private struct AttemptClock: Middleware {
    let starts = LockedValue<[ContinuousClock.Instant]>([])

    /// The seconds between consecutive attempts.
    var gaps: [Double] {
        let starts = starts.current
        return zip(starts, starts.dropFirst()).map { pair in
            let gap = pair.1 - pair.0
            return Double(gap.components.seconds) + Double(gap.components.attoseconds) / 1e18
        }
    }

    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        starts.withLock { $0.append(.now) }
        return try await next(request)
    }
}

/// The retries the middleware reported.
private final class RetryLog: Sendable {
    private let retries = LockedValue<[RetryMiddleware.Retry]>([])

    var current: [RetryMiddleware.Retry] { retries.current }

    func record(_ retry: RetryMiddleware.Retry) {
        retries.withLock { $0.append(retry) }
    }
}

private func formatted(_ seconds: [Double]) -> String {
    "[" + seconds.map { String(format: "%.3f", $0) }.joined(separator: ", ") + "]"
}

/// `RetryMiddleware` against the fixture's `/flaky` route, over every transport; delays are measured on
/// both ends.
extension SerialLoopback {
    @Suite(.timeLimit(.minutes(1)))
    struct RetryLoopbackTests {
        let server: FixtureServer
        let plain: ApiSession
        private let clock = AttemptClock()
        private let log = RetryLog()

        init() throws {
            server = try FixtureServer.shared()
            plain = ApiSession(hostProvider: server.hosts)
        }

        /// A session over `transport` whose retries are logged and whose attempts are timed.
        private func makeSession(
            _ transport: TestTransport,
            _ policy: RetryPolicy = RetryPolicy(),
            hosts: DictionaryHostProvider? = nil
        ) -> ApiSession {
            let log = log
            let retry = RetryMiddleware(policy: policy) { log.record($0) }
            return transport.makeSession(hostProvider: hosts ?? server.hosts, middlewares: [retry, clock])
        }

        /// The seconds between the server's arrivals of the `/flaky` requests for `key`.
        private func serverGaps(_ key: String) async throws -> [Double] {
            let times = try await plain.perform(FlakyLog(key: key)).times
            return zip(times, times.dropFirst()).map { $1 - $0 }
        }

        @Test(arguments: TestTransport.underTest)
        func retryAfterSecondsAreWaitedOnTheWire(transport: TestTransport) async throws {
            let key = UUID().uuidString
            let result = try await makeSession(transport).perform(FlakyCall(key: key, failures: 2, retryAfter: "1"))
            #expect(result == FlakyAttempts(attempts: 3))
            #expect(log.current.map(\.delay) == [.seconds(1), .seconds(1)])
            #expect(log.current.map(\.reason) == [.status(503), .status(503)])
            #expect(log.current.allSatisfy { $0.followsRetryAfter })
            let serverGaps = try await serverGaps(key)
            #expect(serverGaps.count == 2)
            #expect(clock.gaps.count == 2)
            for gap in serverGaps + clock.gaps {
                #expect(gap >= 1.0)
                #expect(gap < 2.5)
            }
            print("retry-after 1 s: client gaps \(formatted(clock.gaps)) s, server gaps \(formatted(serverGaps)) s")
        }

        /// The server sends a date at least 1 s ahead (rounded up to a whole second), so the gap is 1–2 s.
        @Test(arguments: TestTransport.underTest)
        func retryAfterDateIsWaitedOnTheWire(transport: TestTransport) async throws {
            let key = UUID().uuidString
            let call = FlakyCall(key: key, failures: 1, status: 429, retryAfter: "1", retryAfterDate: true)
            let result = try await makeSession(transport).perform(call)
            #expect(result == FlakyAttempts(attempts: 2))
            let retry = try #require(log.current.first)
            #expect(log.current.count == 1)
            #expect(retry.followsRetryAfter)
            #expect(retry.delay > .zero && retry.delay <= .seconds(2))
            let serverGaps = try await serverGaps(key)
            #expect(serverGaps.count == 1)
            for gap in serverGaps {
                #expect(gap >= 1.0)
                #expect(gap < 3.0)
            }
            print(
                "retry-after date: delay \(formatted([RetryPolicy.Backoff.seconds(of: retry.delay)])) s, client gap \(formatted(clock.gaps)) s, "
                    + "server gap \(formatted(serverGaps)) s"
            )
        }

        @Test(arguments: TestTransport.underTest)
        func backoffWithoutRetryAfterIsWaitedOnTheWire(transport: TestTransport) async throws {
            let key = UUID().uuidString
            let policy = RetryPolicy(backoff: RetryPolicy.Backoff(initialDelay: .milliseconds(400)))
            let result = try await makeSession(transport, policy).perform(FlakyCall(key: key, failures: 2))
            #expect(result == FlakyAttempts(attempts: 3))
            let delays = log.current.map { RetryPolicy.Backoff.seconds(of: $0.delay) }
            try #require(delays.count == 2)
            // Equal jitter: between half the backoff and the backoff, 0.4 s then 0.8 s.
            #expect(delays[0] >= 0.2 && delays[0] <= 0.4)
            #expect(delays[1] >= 0.4 && delays[1] <= 0.8)
            #expect(log.current.allSatisfy { !$0.followsRetryAfter })
            let serverGaps = try await serverGaps(key)
            try #require(serverGaps.count == 2)
            try #require(clock.gaps.count == 2)
            for (index, delay) in delays.enumerated() {
                #expect(serverGaps[index] >= delay)
                #expect(serverGaps[index] < delay + 1.0)
                #expect(clock.gaps[index] >= delay)
                #expect(clock.gaps[index] < delay + 1.0)
            }
            print(
                "backoff 0.4 s: delays \(formatted(delays)) s, client gaps \(formatted(clock.gaps)) s, "
                    + "server gaps \(formatted(serverGaps)) s"
            )
        }

        @Test(arguments: TestTransport.underTest)
        func postOn503IsNotRetried(transport: TestTransport) async throws {
            let key = UUID().uuidString
            let session = makeSession(transport)
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(FlakyCall(key: key, failures: 1, retryAfter: "1", httpMethod: .post))
            }
            guard case .unacceptableStatus(let failure) = error else {
                Issue.record("expected unacceptableStatus, got \(String(describing: error))")
                return
            }
            #expect(failure.statusCode == 503)
            #expect(failure.headers["Retry-After"] == "1")
            #expect(try await plain.perform(FlakyLog(key: key)).times.count == 1)
            #expect(log.current.isEmpty)
        }

        @Test(arguments: TestTransport.underTest)
        func retryAfterBeyondTheCapIsNotWaited(transport: TestTransport) async throws {
            let key = UUID().uuidString
            let session = makeSession(transport)
            let start = ContinuousClock.now
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(FlakyCall(key: key, failures: 1, status: 429, retryAfter: "120"))
            }
            #expect(ContinuousClock.now - start < .seconds(2))
            #expect(error?.statusCode == 429)
            #expect(try await plain.perform(FlakyLog(key: key)).times.count == 1)
        }

        @Test(arguments: TestTransport.underTest)
        func cancellingDuringTheBackoffEndsAtOnce(transport: TestTransport) async throws {
            let key = UUID().uuidString
            let session = makeSession(transport)
            let task = Task { try await session.perform(FlakyCall(key: key, failures: 5, retryAfter: "10")) }
            try await waitUntil(timeout: .seconds(5)) { [log] in !log.current.isEmpty }
            try #require(log.current.map(\.delay) == [.seconds(10)])
            let start = ContinuousClock.now
            task.cancel()
            await #expect(throws: ApiError.cancelled) { try await task.value }
            let elapsed = ContinuousClock.now - start
            // Far below the 10 s wait it skips, with room for a loaded machine.
            #expect(elapsed < .seconds(2))
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await plain.perform(FlakyLog(key: key)).times.count == 1)
            print("cancel during a 10 s Retry-After wait: ended after \(elapsed)")
        }

        /// A body cut short after its head (`Content-Length: 1000`, 100 bytes, then the connection
        /// closes) is a lost connection, which the default policy retries for a `GET`: three requests
        /// reach the server.
        @Test(arguments: TestTransport.underTest)
        func aGetWhoseBodyIsCutShortIsRetriedByTheDefaultPolicy(transport: TestTransport) async throws {
            let tag = "close-mid-body-get-\(UUID().uuidString)"
            let error = await #expect(throws: ApiError.self) {
                try await makeSession(transport).perform(
                    TransportCall<Data>(url: server.baseURL + "/fault/close-mid-body", headers: ["X-Test-Tag": tag])
                )
            }
            let lost = try #require(error)
            guard case .transport(let failure) = lost else {
                Issue.record("expected a transport failure, got \(lost)")
                return
            }
            #expect(failure.kind == .connectionLost)
            if transport.reportsFoundationNetworkingCodes {
                #expect(failure.code == -1)  // "transfer closed with 900 bytes remaining to read"
            }
            #expect(try server.count(tag: tag) == 3)
            #expect(clock.starts.current.count == 3)
            #expect(log.current.map(\.reason) == [.failure(lost), .failure(lost)])
        }

        /// The same fault after a `POST` is not retried: the server may have acted on the request.
        @Test(arguments: TestTransport.underTest)
        func aPostWhoseBodyIsCutShortIsNotRetried(transport: TestTransport) async throws {
            let tag = "close-mid-body-post-\(UUID().uuidString)"
            let error = await #expect(throws: ApiError.self) {
                try await makeSession(transport).perform(
                    TransportCall<Data>(
                        url: server.baseURL + "/fault/close-mid-body",
                        httpMethod: .post,
                        headers: ["X-Test-Tag": tag]
                    )
                )
            }
            guard case .transport(let failure) = error else {
                Issue.record("expected a transport failure, got \(String(describing: error))")
                return
            }
            #expect(failure.kind == .connectionLost)
            #expect(try server.count(tag: tag) == 1)
            #expect(log.current.isEmpty)
        }

        /// Nothing listens on port 1, so the connection is refused: the POST never reached a server and
        /// is retried.
        @Test(arguments: TestTransport.underTest)
        func postIsRetriedWhenTheConnectionIsRefused(transport: TestTransport) async throws {
            let policy = RetryPolicy(backoff: RetryPolicy.Backoff(initialDelay: .milliseconds(50), jitter: .none))
            let session = makeSession(transport, policy, hosts: ["fixture": "http://127.0.0.1:1"])
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(FlakyCall(key: "refused", failures: 0, httpMethod: .post))
            }
            guard case .transport(let failure) = error else {
                Issue.record("expected a transport failure, got \(String(describing: error))")
                return
            }
            #expect(failure.kind == .cannotConnect)
            #expect(clock.starts.current.count == 3)
            #expect(log.current.map(\.delay) == [.milliseconds(50), .milliseconds(100)])
            #expect(log.current.map(\.reason) == [.failure(.transport(failure)), .failure(.transport(failure))])
        }
    }
}
