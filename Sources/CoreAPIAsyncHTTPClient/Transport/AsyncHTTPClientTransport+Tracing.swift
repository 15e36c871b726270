#if AsyncHTTPClient
    import AsyncHTTPClient

    extension AsyncHTTPClientTransport {
        /// Turns off AsyncHTTPClient's own tracing in `configuration`.
        ///
        /// AsyncHTTPClient 1.37 makes a `CLIENT` span per request with the tracer bootstrapped when the
        /// configuration was made. It records the full URL with its query as it is, secret parameters
        /// included, and knows nothing of the call the request belongs to: the transport drives the
        /// client through its delegate API, which starts the span on an event loop, so the span begins a
        /// trace of its own. CoreAPI's `TracingMiddleware` (the package's `Tracing` trait) makes that
        /// `CLIENT` span instead, under the call's span, with secrets redacted, and injects its context.
        /// The transport's client therefore makes none: one `CLIENT` span and one `traceparent` per
        /// request, made by CoreAPI when its tracing middleware is in the chain.
        static func disableTracing(of configuration: inout HTTPClient.Configuration) {
            configuration.tracing.tracer = nil
        }
    }
#endif
