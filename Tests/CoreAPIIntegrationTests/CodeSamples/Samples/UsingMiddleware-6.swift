// UsingMiddleware.md, sample 6: statements, compiled as the body of a function.
import CoreAPI

func loggingSample() -> LoggingMiddleware {
    let logging = LoggingMiddleware(
        level: .debug,
        redaction: Secrets.Redaction(secretHeaderNames: ["X-Api-Key"], secretParameterKeys: ["pin"]),
        handler: { record in print("[api] \(record.message)") }
    )
    return logging
}
