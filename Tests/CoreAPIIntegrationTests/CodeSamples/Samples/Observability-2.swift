// Observability.md, sample 2: with the Metrics trait only.
#if Metrics
    import CoreAPI
    import CoreAPIMetrics
    import Metrics

    func makeMeasuredSession(hosts: DictionaryHostProvider, factory: any MetricsFactory) -> ApiSession {
        ApiSession(hostProvider: hosts, middlewares: [MetricsMiddleware(factory: factory), RetryMiddleware()])
    }
#endif
