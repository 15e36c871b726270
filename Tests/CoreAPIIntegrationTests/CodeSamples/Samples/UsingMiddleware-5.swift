// UsingMiddleware.md, sample 5: statements, compiled as the body of a function.
import CoreAPI

func retrySample() -> RetryMiddleware {
    let patientRetry = RetryMiddleware(
        policy: RetryPolicy(maxAttempts: 5, initialDelay: 1, maxDelay: 20),
        onRetry: { retry in print("retrying: \(retry)") }
    )
    return patientRetry
}
