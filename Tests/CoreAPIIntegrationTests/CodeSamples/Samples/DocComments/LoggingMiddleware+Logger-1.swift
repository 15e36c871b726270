// LoggingMiddleware+Logger.swift, sample 1: with the Logging trait only; statements, in the body of a function.
#if Logging
    import CoreAPI
    import CoreAPILogging
    import Logging

    private func sample() -> LoggingMiddleware {
        let logging = LoggingMiddleware(logger: Logger(label: "api"))
        return logging
    }
#endif
