import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerialLoopback {
    /// `invalidate()` over every transport: it cancels the calls in flight at once and refuses later ones
    /// before they are sent.
    @Suite(.timeLimit(.minutes(1)))
    struct InvalidationLoopbackTests {
        let server: FixtureServer

        init() throws {
            server = try FixtureServer.shared()
        }

        func url(_ path: String) -> String { server.baseURL + path }

        @Test(arguments: TestTransport.underTest)
        func invalidateCancelsCallsInFlightAndRefusesLaterOnes(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let calls = (0..<5).map { _ in
                Task { try await session.perform(TransportCall<Data>(url: url("/delay?ms=3000"))) }
            }
            try await Task.sleep(for: .milliseconds(200))
            let start = ContinuousClock.now
            session.invalidate()
            for call in calls {
                let result = await call.result
                #expect(throws: ApiError.cancelled) { try result.get() }
            }
            #expect(ContinuousClock.now - start < .seconds(2))
            #expect(!session.isValid)
            let tag = "after-invalidate-\(UUID().uuidString)"
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(TransportCall<Data>(url: url("/fast"), headers: ["X-Test-Tag": tag]))
            }
            #expect(error == .invalidRequest(.sessionInvalidated))
            #expect(try server.count(tag: tag) == 0)
            session.invalidate()
        }
    }
}
