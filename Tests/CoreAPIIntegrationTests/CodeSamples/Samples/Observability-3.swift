// Observability.md, sample 3: with the Tracing trait only.
#if Tracing
    import CoreAPI
    import CoreAPITracing
    import Tracing

    func makeTracedSession(hosts: DictionaryHostProvider, tracer: any Tracer) -> ApiSession {
        ApiSession(hostProvider: hosts, middlewares: [TracingMiddleware(tracer: tracer), RetryMiddleware()])
    }
#endif
