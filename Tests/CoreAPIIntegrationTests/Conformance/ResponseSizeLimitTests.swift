import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerialLoopback {
    /// The response size limit, over every transport: a body over it ends the call at the limit however
    /// it is framed or coded (a gzip bomb is inflated no further), and a method can raise the limit. A
    /// redirect's body over it is in ``RedirectLoopbackTests``.
    @Suite(.timeLimit(.minutes(1)))
    struct ResponseSizeLimitTests {
        let server: FixtureServer

        init() throws {
            server = try FixtureServer.shared()
        }

        /// A session over `transport` with the default policy.
        func makeSession(_ transport: TestTransport) -> ApiSession {
            transport.makeSession(hostProvider: server.hosts)
        }

        func url(_ path: String) -> String { server.baseURL + path }

        @Test(
            arguments: TestTransport.underTest,
            [
                "/fault/huge?mb=200", "/fault/huge-chunked?mb=200", "/fault/gzip-bomb?mb=200",
                "/fault/big-content-length",
                // A length no Int64 holds: libcurl reads to the end of the connection, reporting no length.
                "/fault/conflicting-content-length?lengths=99999999999999999999999",
            ]
        )
        func oversizedBodiesEndAtTheLimit(transport: TestTransport, path: String) async throws {
            let session = makeSession(transport)
            let start = ContinuousClock.now
            let refusedHead = path.contains("lengths=") && !transport.acceptsRepeatedOrHugeContentLength
            let expected =
                refusedHead
                ? ApiError.transport(.init(kind: .badResponse)) : ApiError.responseTooLarge(limit: 10 * 1024 * 1024)
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(TransportCall<RawEcho>(url: url(path)))
            }
            if case .transport(let failure) = error {
                #expect(ApiError.transport(.init(kind: failure.kind)) == expected, "\(path)")
            } else {
                #expect(error == expected, "\(path)")
            }
            #expect(ContinuousClock.now - start < .seconds(10))
        }

        /// Whether the engine goes on inflating a gzip bomb once the size limit has refused it
        /// (``TestTransport/stopsInflatingAtTheLimit``), measured in a child process of its own
        /// (``GzipBombScenarios``), where nothing else uses the processor.
        @Test(arguments: TestTransport.underTest)
        func aRefusedGzipBombIsInflatedNoFurther(transport: TestTransport) async throws {
            try await StressChild.run(#function, of: "GzipBombScenarios", over: transport)
        }

        @Test(arguments: TestTransport.underTest)
        func aMethodCanRaiseTheSizeLimit(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let data = try await session.perform(
                TransportCall<Data>(url: url("/fault/huge?mb=12"), maximumResponseSize: 16 * 1024 * 1024)
            )
            #expect(data.count == 12 * 1024 * 1024)
        }
    }
}
