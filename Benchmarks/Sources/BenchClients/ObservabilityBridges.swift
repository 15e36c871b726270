#if Observability
    public import CoreAPI
    import CoreAPILogging
    import CoreAPIMetrics
    import CoreAPITracing
    import CoreMetrics
    import Logging
    import Tracing

    /// The observability bridges whose cost the stub-transport clients measure, each with its library's
    /// no-op backend: what a call pays for a bridge that is installed while its backend records nothing.
    public enum ObservabilityBridge: String, CaseIterable, Sendable {
        /// `LoggingMiddleware(logger:)` with a `Logger` whose handler is `SwiftLogNoOpLogHandler`.
        case logging
        /// `MetricsMiddleware(factory:)` with `NOOPMetricsHandler`.
        case metrics
        /// `TracingMiddleware(tracer:)` with `NoOpTracer`.
        case tracing

        /// The bridge's middleware over its no-op backend.
        public func makeMiddleware() -> any Middleware {
            switch self {
            case .logging:
                LoggingMiddleware(logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))
            case .metrics:
                MetricsMiddleware(factory: NOOPMetricsHandler.instance)
            case .tracing:
                TracingMiddleware(tracer: NoOpTracer())
            }
        }
    }
#endif
