// RetryPolicy.swift, sample 2: statements, in the body of a function.
import CoreAPI

private func sample() -> RetryPolicy {
    let policy = RetryPolicy(
        maximumAttempts: 5,
        backoff: RetryPolicy.Backoff(initialDelay: .seconds(1), maximumDelay: .seconds(20))
    )
    return policy
}
