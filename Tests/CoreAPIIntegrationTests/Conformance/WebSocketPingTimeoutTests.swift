#if AsyncHTTPClient || !canImport(FoundationNetworking)
    import CoreAPI
    import Foundation
    import Testing

    /// The keep-alive of a WebSocket against a loopback `websockets` server that stops reading, over every
    /// engine that can open WebSockets here: a peer that misses its pong is failed at the ping timeout
    /// (RFC 6455 §7.1.7), without waiting for a close frame it will never send.
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct WebSocketPingTimeoutTests {
        /// The engines that open WebSockets on this platform: FoundationNetworking's URLSession cannot
        /// (Docs/PlatformBehaviour.md), so on Linux only AsyncHTTPClient's engine is tested.
        static let engines: [TestTransport] = TestTransport.engines.filter { transport in
            #if canImport(FoundationNetworking)
                transport != .urlSession
            #else
                true
            #endif
        }

        /// The fixture's `/silent` route: it sends `ready`, then reads nothing more, so no ping gets
        /// its pong and no close frame its answer.
        struct Silent: WebSocket.Method {
            var name: String
            @Excluded var options: WebSocket.Options
            var hostProviderKey: String { "ws" }
            var path: String { "/silent" }
            var webSocketOptions: WebSocket.Options { options }
        }

        let fixture: WebSocketFixture

        init() async throws {
            fixture = try await WebSocketFixture.shared()
        }

        /// The first ping goes out at most one ``WebSocket/Options/pingInterval`` after the connection
        /// opened, which is before `ready` is read; the server stopped reading as it sent `ready`, so that
        /// ping's pong never comes and the connection is failed ``WebSocket/Options/pingTimeout`` later.
        /// The ``WebSocket/Options/closeTimeout`` (5 seconds by default) is not waited for: the closure
        /// is 1006, since no close frame came.
        @Test(arguments: engines)
        func aPeerThatMissesItsPongIsFailedAtThePingTimeout(_ transport: TestTransport) async throws {
            let options = WebSocket.Options(
                pingInterval: .milliseconds(200),
                pingTimeout: .milliseconds(800),
                closeTimeout: .seconds(30)
            )
            let pingInterval = try #require(options.pingInterval)
            let socket = try await transport.makeSession(hostProvider: fixture.hosts)
                .webSocket(Silent(name: uniqueName("silent"), options: options))
            var events = socket.events.makeAsyncIterator()
            #expect(try await events.next() == .message(.text("ready")))
            let start = ContinuousClock.now
            await #expect(throws: WebSocket.Failure.pingTimeout) {
                while try await events.next() != nil {}
            }
            let elapsed = ContinuousClock.now - start
            // What the code controls: the close timeout is not waited out for a frame from a dead peer, so
            // the failure comes before ping interval + ping timeout + close timeout (31 s here, with a 30 s close timeout). Run alone it
            // comes about 1.0 s after `ready` (within ping interval + ping timeout + 250 ms); beside the
            // stress suites the machine has delayed it by seconds, which is the machine's, not the code's.
            let bound = pingInterval + options.pingTimeout + options.closeTimeout
            #expect(elapsed < bound, "failed \(elapsed) after ready; a wait for a close frame ends after \(bound)")
            #expect(socket.closure == WebSocket.Closure(code: .abnormalClosure))
        }
    }
#endif
