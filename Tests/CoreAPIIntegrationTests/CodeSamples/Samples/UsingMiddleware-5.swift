// UsingMiddleware.md, sample 5: statements, compiled as the body of a function.
import CoreAPI

func retrySample() -> RetryMiddleware {
    let patientRetry = RetryMiddleware(
        policy: RetryPolicy(
            maximumAttempts: 5,
            backoff: RetryPolicy.Backoff(initialDelay: .seconds(1), maximumDelay: .seconds(20))
        ),
        onRetry: { retry in print("retrying: \(retry)") }
    )
    return patientRetry
}
