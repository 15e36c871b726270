import Testing

@testable import CoreAPI

/// The one backoff of retries, reconnections and download resumes: exact without jitter, within its
/// bounds with it, finite whatever the settings.
@Suite struct BackoffTests {
    @Test(arguments: [
        (
            RetryPolicy.Backoff(initialDelay: .seconds(1), factor: 2, maximumDelay: .seconds(10), jitter: .none),
            [1.0, 2, 4, 8, 10, 10]
        ),
        (
            RetryPolicy.Backoff(initialDelay: .milliseconds(500), factor: 3, maximumDelay: .seconds(30), jitter: .none),
            [0.5, 1.5, 4.5, 13.5, 30, 30]
        ),
        (RetryPolicy.Backoff.constant(.milliseconds(250)), [0.25, 0.25, 0.25, 0.25, 0.25, 0.25]),
        (RetryPolicy.Backoff(initialDelay: .zero, jitter: .none), [0, 0, 0, 0, 0, 0]),
    ])
    func withoutJitterTheWaitsAreExact(backoff: RetryPolicy.Backoff, seconds: [Double]) {
        #expect((1...6).map { backoff.delay(beforeRetry: $0) } == seconds.map { Duration.milliseconds(Int($0 * 1000)) })
        #expect(backoff.delay(beforeRetry: 0) == backoff.delay(beforeRetry: 1))
    }

    @Test func jitterIsOnByDefault() {
        #expect(RetryPolicy.Backoff().jitter == .equal)
        #expect(
            RetryPolicy.Backoff()
                == RetryPolicy.Backoff(initialDelay: .milliseconds(500), factor: 2, maximumDelay: .seconds(30))
        )
    }

    @Test(arguments: [RetryPolicy.Backoff.Jitter.equal, .full])
    func withJitterEveryWaitStaysWithinItsBounds(jitter: RetryPolicy.Backoff.Jitter) {
        let backoff = RetryPolicy.Backoff(
            initialDelay: .seconds(1),
            factor: 2,
            maximumDelay: .seconds(10),
            jitter: jitter
        )
        let ceilings: [Duration] = [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10)]
        var spread = Set<Duration>()
        for (retry, ceiling) in zip(1..., ceilings) {
            let floor = jitter == .equal ? ceiling / 2 : .zero
            for _ in 0..<200 {
                let delay = backoff.delay(beforeRetry: retry)
                #expect(delay >= floor && delay <= ceiling, "retry \(retry): \(delay)")
                spread.insert(delay)
            }
        }
        #expect(spread.count > 100)  // random, not one fixed point per retry
        // The ends of the range: random 0 the shortest wait, random 1 the longest.
        #expect(backoff.delay(beforeRetry: 4, random: 0) == (jitter == .equal ? .seconds(4) : .zero))
        #expect(backoff.delay(beforeRetry: 4, random: 1) == .seconds(8))
    }

    @Test func oddSettingsGiveFiniteWaitsWithinTheCap() {
        let backoffs = [
            RetryPolicy.Backoff(factor: .nan), RetryPolicy.Backoff(factor: .infinity), RetryPolicy.Backoff(factor: -2),
            RetryPolicy.Backoff(factor: 0),
            RetryPolicy.Backoff(initialDelay: .seconds(-5)), RetryPolicy.Backoff(maximumDelay: .seconds(-1)),
            RetryPolicy.Backoff(initialDelay: .seconds(Int64.max), maximumDelay: .seconds(Int64.max)),
        ]
        for backoff in backoffs {
            for retry in [Int.min, 0, 1, 2, 1000, Int.max] {
                for random in [0, 0.5, 1, .nan, -3, 7] {
                    let delay = backoff.delay(beforeRetry: retry, random: random)
                    #expect(delay >= .zero && delay <= max(backoff.maximumDelay, .zero), "\(backoff) \(retry)")
                    #expect(delay <= .seconds(1_000_000_000))
                }
            }
        }
    }

    @Test func aServersWaitIsHeldToTheCap() {
        let backoff = RetryPolicy.Backoff(maximumDelay: .seconds(30))
        #expect(backoff.capping(.seconds(10)) == .seconds(10))
        #expect(backoff.capping(.seconds(3600)) == .seconds(30))
        #expect(backoff.capping(.seconds(-1)) == .zero)
    }

    /// ``RetryPolicy``'s waits are its backoff's, with the same defaults.
    @Test func retryPolicyWaitsAreItsBackoffs() {
        var policy = RetryPolicy(
            backoff: RetryPolicy.Backoff(initialDelay: .milliseconds(250), factor: 3, maximumDelay: .seconds(20))
        )
        #expect(RetryPolicy().backoff == RetryPolicy.Backoff())
        policy.backoff.jitter = .none
        #expect(policy.backoffDelay(beforeRetry: 3, random: 0.7) == .milliseconds(2250))
        policy.backoff.maximumDelay = .seconds(1)
        #expect(policy.backoffDelay(beforeRetry: 3, random: 0.7) == .seconds(1))
    }
}
