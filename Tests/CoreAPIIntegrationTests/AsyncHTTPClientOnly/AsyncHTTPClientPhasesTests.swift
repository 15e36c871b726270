#if AsyncHTTPClient
    import AsyncHTTPClient
    import CoreAPI
    import CoreAPIAsyncHTTPClient
    import Foundation
    import Testing

    /// `/json/user` with its metadata.
    private struct TimedUser: ApiMethod {
        typealias Response = WithMetadata<Data>
        var hostProviderKey: String { "fixture" }
        var path: String { "/json/user" }
    }

    extension SerialLoopback {
        /// Which connection an exchange of ``AsyncHTTPClientTransport`` went over, as its phases say.
        @Suite(.timeLimit(.minutes(1)))
        struct AsyncHTTPClientPhasesTests {
            let server: FixtureServer

            init() throws {
                server = try FixtureServer.shared()
            }

            /// A transport of its own opens a connection for the first call, whose phases start with its
            /// setup, and the second call goes over the same connection. A request without a body has a
            /// request phase too: it ends when AsyncHTTPClient has written the request.
            @Test func aNewConnectionIsReportedAndThenReused() async throws {
                let transport = AsyncHTTPClientTransport()
                let session = ApiSession(hostProvider: server.hosts, transport: transport)
                let first = try await session.perform(TimedUser()).timing?.phases
                let second = try await session.perform(TimedUser()).timing?.phases
                try await transport.shutdown()
                #expect(first?.reusedConnection == false)
                let connection = try #require(first?.connection)
                #expect(connection.lowerBound == .zero)
                let request = try #require(first?.request)
                #expect(request.lowerBound == connection.upperBound)
                #expect(first?.response.map { $0.lowerBound >= request.upperBound } == true)
                #expect(second?.reusedConnection == true)
                #expect(second?.connection == nil)
                let secondRequest = try #require(second?.request)
                #expect(second?.response.map { $0.lowerBound >= secondRequest.upperBound } == true)
            }

            /// Over a client of another maker the transport hears of no connection: whether one was
            /// reused is unknown, and the response phase is still there.
            @Test func aClientOfAnotherMakerLeavesTheConnectionUnknown() async throws {
                let client = HTTPClient(configuration: AsyncHTTPClientTransport.makeClientConfiguration())
                let session = ApiSession(
                    hostProvider: server.hosts,
                    transport: AsyncHTTPClientTransport(client: client)
                )
                let phases = try await session.perform(TimedUser()).timing?.phases
                try await client.shutdown()
                #expect(phases?.reusedConnection == nil)
                #expect(phases?.connection == nil)
                #expect(phases?.response != nil)
            }
        }
    }
#endif
