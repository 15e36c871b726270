// ApiSessionTransport+ClientMiddlewareAdapter.swift, sample 1: with the OpenAPI trait only; statements, in the body of a function.
#if OpenAPI
    import CoreAPI
    import CoreAPIOpenAPI
    import OpenAPIRuntime

    private func sample(hosts: any HostProvider, requestIDMiddleware: any ClientMiddleware) -> ApiSession {
        let adapter = ApiSessionTransport.ClientMiddlewareAdapter(requestIDMiddleware)
        let session = ApiSession(hostProvider: hosts, middlewares: [adapter])
        return session
    }
#endif
