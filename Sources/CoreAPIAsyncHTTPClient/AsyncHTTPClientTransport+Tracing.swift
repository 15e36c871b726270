#if AsyncHTTPClient
    import AsyncHTTPClient

    extension AsyncHTTPClientTransport {
        /// Turns off AsyncHTTPClient's own tracing in `configuration`.
        ///
        /// AsyncHTTPClient 1.37 makes a `CLIENT` span per request with the tracer bootstrapped when the
        /// configuration was made, and injects that span's context into the request's header fields. It
        /// records the full URL with its query as it is, secret parameters included, and knows nothing of
        /// the call the request belongs to. CoreAPI's `TracingMiddleware` (the package's `Tracing` trait)
        /// makes that `CLIENT` span instead, under the call's span, with secrets redacted, and injects its
        /// context — so with both, each request would carry two spans and two `traceparent` fields. The
        /// transport's client therefore makes none: one `CLIENT` span and one `traceparent` per request,
        /// made by CoreAPI when its tracing middleware is in the chain.
        static func disableTracing(of configuration: inout HTTPClient.Configuration) {
            configuration.tracing.tracer = nil
        }
    }
#endif
