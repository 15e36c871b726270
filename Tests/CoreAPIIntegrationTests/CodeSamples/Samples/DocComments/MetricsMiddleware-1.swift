// MetricsMiddleware.swift, sample 1: with the Metrics trait only; statements, in the body of a function.
#if Metrics
    import CoreAPI
    import CoreAPIMetrics

    private func sample(hosts: any HostProvider) -> ApiSession {
        let session = ApiSession(hostProvider: hosts, middlewares: [MetricsMiddleware()])
        return session
    }
#endif
