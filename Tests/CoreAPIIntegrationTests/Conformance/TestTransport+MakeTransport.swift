import CoreAPI

#if AsyncHTTPClient
    import CoreAPIAsyncHTTPClient
#endif

extension TestTransport {
    /// The transport itself, for code that makes its own session over it, such as the cases of
    /// `TransportConformance`: the same engine ``makeSession(hostProvider:configuration:headers:middlewares:policy:defaults:)``
    /// puts under a session, with URLSession's default configuration.
    func makeTransport() -> any Transport {
        switch self {
        case .urlSession:
            return Self.sharedURLSessionTransport
        #if AsyncHTTPClient
            case .asyncHTTPClient:
                return Self.sharedAsyncHTTPClientTransport
            case .wrappedAsyncHTTPClient:
                return DetachedTransport(
                    HeaderAddingTransport(base: Self.sharedAsyncHTTPClientTransport),
                    reportsActivity: true
                )
        #endif
        }
    }

    /// The one URLSession transport ``makeTransport()`` hands out, with the default configuration: like
    /// the AsyncHTTPClient transport, shared by its sessions and never invalidated.
    static let sharedURLSessionTransport = URLSessionTransport()
}
