#if AsyncHTTPClient
    import CoreAPI
    import NIOCore
    import NIOPosix
    import Testing

    @testable import CoreAPIAsyncHTTPClient

    /// Which event loop ``AsyncHTTPClientTransport`` names for an exchange's delegate: one with an open
    /// connection to the server, in turn, so that AsyncHTTPClient's callbacks stay on the connection's
    /// loop when it is idle; none while no connection to that port is open.
    @Suite(.timeLimit(.minutes(1)))
    struct ConnectionLogTests {
        /// The log under test.
        let log = ConnectionLog()

        /// Runs `body` with the two loops of a group of its own, shut down after it.
        private func withTwoLoops(_ body: (any EventLoop, any EventLoop) async throws -> Void) async throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
            let first = group.next()
            let second = group.next()
            do {
                #expect(first !== second)
                try await body(first, second)
            } catch {
                try await group.shutdownGracefully()
                throw error
            }
            try await group.shutdownGracefully()
        }

        /// The loop the log names for a new exchange to `port`, which stops waiting at once.
        private func named(port: Int) -> (any EventLoop)? {
            let exchange = TrackedExchange(options: TransportOptions())
            defer { log.stopWaiting(exchange) }
            return log.wait(exchange, port: port)
        }

        /// Waits until what `loop` had queued, a closed connection's callbacks among it, has run.
        private func settle(_ loop: any EventLoop) async throws {
            try await loop.submit {}.get()
        }

        @Test func noLoopIsNamedBeforeAConnectionToThePortIsOpen() async throws {
            try await withTwoLoops { loop, _ in
                let closed = loop.makePromise(of: Void.self)
                #expect(named(port: 8080) == nil)
                log.opened(port: 8080, on: loop, closing: closed.futureResult)
                #expect(named(port: 443) == nil)
                #expect(named(port: 8080) === loop)
                closed.succeed()
            }
        }

        @Test func theLoopOfTheOnlyConnectionIsNamedEveryTime() async throws {
            try await withTwoLoops { _, loop in
                let closed = loop.makePromise(of: Void.self)
                log.opened(port: 80, on: loop, closing: closed.futureResult)
                for _ in 0..<5 {
                    #expect(named(port: 80) === loop)
                }
                closed.succeed()
            }
        }

        @Test func loopsWithConnectionsAreNamedInTurnUntilTheirConnectionsClose() async throws {
            try await withTwoLoops { first, second in
                let firstClosed = first.makePromise(of: Void.self)
                let secondClosed = second.makePromise(of: Void.self)
                log.opened(port: 80, on: first, closing: firstClosed.futureResult)
                log.opened(port: 80, on: second, closing: secondClosed.futureResult)
                // A second connection on the first loop: it stays named until both of its connections close.
                let firstAgainClosed = first.makePromise(of: Void.self)
                log.opened(port: 80, on: first, closing: firstAgainClosed.futureResult)

                let turns = (0..<4).map { _ in named(port: 80) }
                #expect(turns.filter { $0 === first }.count == 2)
                #expect(turns.filter { $0 === second }.count == 2)
                #expect(turns[0] !== turns[1])

                firstClosed.succeed()
                try await settle(first)
                let withOneClosed = (0..<4).map { _ in named(port: 80) }
                #expect(withOneClosed.filter { $0 === first }.count == 2)
                #expect(withOneClosed.filter { $0 === second }.count == 2)

                firstAgainClosed.succeed()
                try await settle(first)
                for _ in 0..<3 {
                    #expect(named(port: 80) === second)
                }

                secondClosed.succeed()
                try await settle(second)
                #expect(named(port: 80) == nil)
            }
        }
    }
#endif
