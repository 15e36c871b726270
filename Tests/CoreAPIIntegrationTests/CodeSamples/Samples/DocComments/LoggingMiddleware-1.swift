// LoggingMiddleware.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample(hosts: any HostProvider, logger: AppLogger) -> ApiSession {
    let logging = LoggingMiddleware(level: .debug, redaction: Secrets.Redaction(secretHeaderNames: ["X-Api-Key"])) {
        logger.log(level: $0.level == .error ? .error : .info, "\($0.message)")
    }
    let session = ApiSession(hostProvider: hosts, middlewares: [logging])
    return session
}
