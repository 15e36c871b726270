import CoreAPITesting
import Foundation
import Testing

@testable import CoreAPI

private struct Watch: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var headers: Headers { ["Accept": "text/event-stream"] }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/events")
    }

    func encode(to encoder: any Encoder) throws {}
}

/// When server-sent events are opened again: a backoff that grows with failures, a server's `retry`
/// held to its cap, and a limit on failures in a row by default.
@Suite(.timeLimit(.minutes(1)))
struct ServerSentEventsReconnectionTests {
    /// The waits without jitter, from a backoff of 100 ms doubling up to 1 s.
    @Test(
        arguments: [
            (0, nil, 100),  // a stream that ended normally: the first wait
            (1, nil, 100),
            (3, nil, 400),
            (9, nil, 1_000),  // the cap
            (0, 250, 250),  // the server's retry replaces the first wait…
            (2, 250, 500),  // …and grows like it
            (0, 3_600_000, 1_000),  // an hour asked for: held to the cap
            (0, 0, 0),
        ] as [(Int, Int?, Int)]
    )
    func theWaitGrowsAndTheServersRetryIsCapped(failures: Int, serverRetry: Int?, milliseconds: Int) {
        let reconnection = ServerSentEvents.Reconnection(
            backoff: RetryPolicy.Backoff(initialDelay: .milliseconds(100), maximumDelay: .seconds(1), jitter: .none)
        )
        let delay = reconnection.delay(
            afterFailures: failures,
            serverRetry: serverRetry.map { .milliseconds($0) },
            random: 0.5
        )
        #expect(delay == .milliseconds(milliseconds))
    }

    @Test func theDefaultsLimitFailuresAndBackOff() {
        let reconnection = ServerSentEvents.Reconnection()
        #expect(reconnection.maximumFailures == 10)
        #expect(reconnection.backoff.initialDelay == .seconds(3))
        #expect(reconnection.backoff.maximumDelay == .seconds(30))
        #expect(reconnection.backoff.jitter == .equal)
        #expect(ServerSentEvents.Reconnection(delay: .seconds(60)).backoff.maximumDelay == .seconds(60))
    }

    /// A server that is never reached is given up after the default ten failures in a row: eleven
    /// attempts, then the last error.
    @Test func failuresEndTheEventsAfterTheDefaultLimit() async throws {
        let transport = StubTransport()
        transport.on("/events", reply: .failure(.transport(.init(kind: .connectionLost))))
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        let reconnection = ServerSentEvents.Reconnection(backoff: .constant(.milliseconds(1)))
        #expect(reconnection.maximumFailures == ServerSentEvents.Reconnection.defaultMaximumFailures)
        await #expect {
            for try await _ in session.events(Watch(), reconnection: reconnection) {}
        } throws: { error in
            guard case .transport(let failure) = error as? ApiError else { return false }
            return failure.kind == .connectionLost
        }
        #expect(transport.requests.count == 11)
    }

    /// A stream that is not `text/event-stream` throws at once and is not opened again.
    @Test func anotherMediaTypeIsNotReadAsEvents() async throws {
        let transport = StubTransport()
        transport.on(
            "/events",
            reply: .data(Data("data: x\n\n".utf8), headers: ["Content-Type": "text/html"])
        )
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        await #expect(
            throws: ApiError.unacceptableContentType(
                .init(contentType: "text/html", acceptable: ["text/event-stream"], statusCode: 200)
            )
        ) {
            for try await _ in session.events(
                Watch(),
                reconnection: ServerSentEvents.Reconnection(delay: .milliseconds(1))
            ) {}
        }
        #expect(transport.requests.count == 1)
    }
}
