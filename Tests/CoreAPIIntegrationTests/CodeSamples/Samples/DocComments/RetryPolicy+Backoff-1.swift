// RetryPolicy+Backoff.swift, sample 1: expressions and their values, in the body of a `@Playground` function.
import CoreAPI

@Playground private func sample() {
    let backoff = RetryPolicy.Backoff(initialDelay: .seconds(1), factor: 2, maximumDelay: .seconds(5), jitter: .none)
    (1...4).map { backoff.delay(beforeRetry: $0) }  // 1 s, 2 s, 4 s, 5 s
}
