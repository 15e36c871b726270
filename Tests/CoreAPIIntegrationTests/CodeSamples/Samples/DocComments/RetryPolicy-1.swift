// RetryPolicy.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample(hosts: any HostProvider) -> ApiSession {
    var policy = RetryPolicy(maximumAttempts: 4, backoff: RetryPolicy.Backoff(initialDelay: .milliseconds(200)))
    policy.retryableStatusCodes.remove(500)
    let session = ApiSession(hostProvider: hosts, middlewares: [RetryMiddleware(policy: policy)])
    return session
}
