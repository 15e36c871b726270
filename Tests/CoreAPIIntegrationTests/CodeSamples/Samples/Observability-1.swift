// Observability.md, sample 1: with the Logging trait only.
#if Logging
    import CoreAPI
    import CoreAPILogging
    import Logging

    func makeLoggedSession(hosts: DictionaryHostProvider) -> ApiSession {
        let logger = Logger(label: "shop.api")
        return ApiSession(
            hostProvider: hosts,
            middlewares: [RetryMiddleware(), LoggingMiddleware(logger: logger)]
        )
    }
#endif
