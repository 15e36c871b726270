// ServerSentEvents+Reconnection.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample() -> ServerSentEvents.Reconnection {
    let reconnection = ServerSentEvents.Reconnection(
        backoff: RetryPolicy.Backoff(initialDelay: .seconds(1), maximumDelay: .seconds(20)),
        maximumFailures: 5
    )
    return reconnection
}
