// HowACallFlows.md, sample 2: statements, compiled as the body of a function.
import CoreAPI

func makeTracingSession() -> ApiSession {
    let session = ApiSession(
        hostProvider: DictionaryHostProvider(["api": "https://api.example.com"]),
        transport: TracingTransport(base: URLSessionTransport())
    )
    return session
}
