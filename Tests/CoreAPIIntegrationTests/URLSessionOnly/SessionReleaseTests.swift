import CoreAPITesting
import Foundation
import Testing

// `@testable` for the session's `delegate`, whose release is checked.
@testable import CoreAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerialLoopback {
    /// The session's timeout timer holds its delegate; the delegate must still go with the session. The
    /// delegate is URLSessionTransport's, made for a session from its configuration: other transports
    /// have none.
    @Suite(.timeLimit(.minutes(1)))
    struct SessionReleaseTests {
        /// One call arms the timer; then the session is dropped, invalidated first or not.
        @Test(arguments: [false, true])
        func delegateIsReleasedWithItsSession(invalidatedFirst: Bool) async throws {
            let server = try FixtureServer.shared()
            weak let delegate: SessionDelegate?
            do {
                let session = ApiSession(hostProvider: server.hosts)
                delegate = session.delegate
                _ = try await session.perform(RawGet(path: "/empty", timeout: .seconds(30)))
                #expect(session.delegate.taskCount == 0)
                if invalidatedFirst {
                    session.invalidate()
                }
            }
            // Throws when the SessionDelegate is still alive 5 s after its session went.
            try await waitUntil(timeout: .seconds(5)) { delegate == nil }
        }
    }
}
