// RetryMiddleware.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample(hosts: any HostProvider, logger: AppLogger) -> ApiSession {
    let retry = RetryMiddleware(policy: RetryPolicy(maximumAttempts: 4)) { retry in
        logger.info("\(retry)")  // "attempt 1 failed with status 503; retrying in 1.000 s (Retry-After)"
    }
    let session = ApiSession(hostProvider: hosts, middlewares: [retry])
    return session
}
