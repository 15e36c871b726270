// TracingMiddleware.swift, sample 1: with the Tracing trait only; statements, in the body of a function.
#if Tracing
    import CoreAPI
    import CoreAPITracing

    private func sample(hosts: any HostProvider) -> ApiSession {
        let session = ApiSession(hostProvider: hosts, middlewares: [TracingMiddleware()])
        return session
    }
#endif
