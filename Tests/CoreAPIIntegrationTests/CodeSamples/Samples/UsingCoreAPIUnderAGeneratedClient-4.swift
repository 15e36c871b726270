// UsingCoreAPIUnderAGeneratedClient.md, sample 4: with the OpenAPI trait only.
#if OpenAPI
    import CoreAPI
    import CoreAPIOpenAPI
    import OpenAPIRuntime

    func makeSessionWithGeneratorMiddleware(hosts: any HostProvider, middleware: any ClientMiddleware) -> ApiSession {
        let adapter = ApiSessionTransport.ClientMiddlewareAdapter(middleware)
        return ApiSession(hostProvider: hosts, middlewares: [adapter, RetryMiddleware()])
    }
#endif
