import CoreAPI

/// A session over the default transport: enough to make the build compile and link against CoreAPI.
public func makeSession() -> ApiSession {
    ApiSession(hostProvider: DictionaryHostProvider(["api": "https://api.example.com"]))
}
