#if Tracing && AsyncHTTPClient
    import AsyncHTTPClient
    import CoreAPI
    import CoreAPIAsyncHTTPClient
    import CoreAPITracing
    import Foundation
    import InMemoryTracing
    import Testing
    import Tracing

    /// The process's one bootstrapped tracer: `InstrumentationSystem.bootstrap` may run only once.
    enum GlobalTracer {
        static let shared: InMemoryTracer = {
            let tracer = InMemoryTracer()
            InstrumentationSystem.bootstrap(tracer)
            return tracer
        }()
    }

    @Suite(.timeLimit(.minutes(1)))
    struct TracingOverAsyncHTTPClientTests {
        /// Over AsyncHTTPClient with the tracer bootstrapped globally, which AsyncHTTPClient's clients trace
        /// with by default: the transport's own client leaves the `CLIENT` span and the `traceparent` to the
        /// middleware, so each request has one of each. A client of one's own that keeps AsyncHTTPClient's
        /// tracing adds a span per request, outside the call's trace (AsyncHTTPClient's delegate API starts
        /// it on an event loop), and no second `traceparent`.
        @Test(arguments: [false, true])
        func eachRequestHasOneClientSpanAndOneInjectedContext(clientTracesToo: Bool) async throws {
            let tracer = GlobalTracer.shared
            let fixture = try FixtureServer.shared()
            var configuration = AsyncHTTPClientTransport.makeClientConfiguration()
            if clientTracesToo {
                configuration.tracing.tracer = InstrumentationSystem.tracer
            }
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            let transport = AsyncHTTPClientTransport(client: client)
            let session = ApiSession(
                hostProvider: fixture.hosts,
                transport: transport,
                middlewares: [TracingMiddleware()]
            )
            // A redirect, then the echo of the headers the second request carried.
            let query = "n=1&run=\(clientTracesToo)&access_token="
            let method = TransportCall<RawEcho>(url: "\(fixture.baseURL)/redirect/chain?\(query)query-secret-3")
            let echo: RawEcho
            do {
                echo = try await session.perform(method)
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()

            let spans = tracer.finishedSpans
            let call = try #require(
                spans.first { span in
                    span.kind == .internal
                        && span.attributes.get("url.full")
                            == .string("\(fixture.baseURL)/redirect/chain?\(query)<redacted>")
                }
            )
            let clients = spans.filter { $0.kind == .client && $0.traceID == call.traceID }
            #expect(clients.count == 2)
            #expect(echo.values(InMemoryTracer.spanIDKey).count == 1)
            #expect(echo.values(InMemoryTracer.traceIDKey) == [call.traceID])
            let ours = clients.filter { $0.attributes.get("coreapi.method") != nil }
            #expect(ours.count == 2)
            // AsyncHTTPClient's own spans: none joins the call's trace; the client that traces made one for
            // the first request (the second one's URL, `/echo/raw`, carries no mark of the run).
            let clientsOwn = spans.filter { $0.kind == .client && $0.attributes.get("coreapi.method") == nil }
            #expect(clientsOwn.allSatisfy { $0.traceID != call.traceID })
            let firstRequests = clientsOwn.filter { span in
                guard case .string(let url) = span.attributes.get("url.full") else { return false }
                return url.contains("run=\(clientTracesToo)")
            }
            #expect(firstRequests.count == (clientTracesToo ? 1 : 0))
            #expect(echo.values(InMemoryTracer.spanIDKey).contains(try #require(ours.last).spanID))
        }
    }
#endif
