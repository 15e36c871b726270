import CoreAPI
import Foundation
import Testing

extension SerialLoopback {
    /// How the idle timeout counts over every transport: from the last byte that moved, whichever
    /// side enforces it (FoundationNetworking's own timer, or the session's for a transport that reports
    /// its activity); and the deadline, which ends a call whatever its activity.
    @Suite(.timeLimit(.minutes(1)))
    struct TimeoutLoopbackTests {
        let server: FixtureServer

        init() throws {
            server = try FixtureServer.shared()
        }

        /// A body whose bytes come 250 ms apart is read whole, although it takes longer than the 1.5 s
        /// idle timeout.
        @Test(arguments: TestTransport.underTest)
        func aBodyTricklingFasterThanTheIdleTimeoutIsReadWhole(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let start = ContinuousClock.now
            let data = try await session.perform(
                TransportCall<Data>(url: server.baseURL + "/fault/trickle?bytes=10&ms=250", timeout: .seconds(1.5))
            )
            #expect(data == Data(repeating: UInt8(ascii: "x"), count: 10))
            #expect(ContinuousClock.now - start >= .milliseconds(2250))  // longer than the idle timeout
        }

        /// Bytes 2 s apart with a 0.5 s idle timeout: the call ends with a timeout soon after the first.
        @Test(arguments: TestTransport.underTest)
        func aBodyStallingLongerThanTheIdleTimeoutTimesOut(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let start = ContinuousClock.now
            await #expect(throws: ApiError.timeout) {
                try await session.perform(
                    TransportCall<Data>(url: server.baseURL + "/fault/trickle?bytes=5&ms=2000", timeout: .seconds(0.5))
                )
            }
            let elapsed = ContinuousClock.now - start
            #expect(elapsed >= .milliseconds(450))
            #expect(elapsed < .seconds(2))  // not the 8 s the body takes
        }

        @Test(arguments: TestTransport.underTest)
        func aTricklingBodyEndsAtTheDeadline(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let start = ContinuousClock.now
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(
                    TransportCall<Data>(
                        url: server.baseURL + "/fault/trickle?bytes=20&ms=200",
                        deadline: .seconds(1.0),
                        timeout: .seconds(5)
                    )
                )
            }
            let elapsed = ContinuousClock.now - start
            #expect(error == .timeout)
            #expect(elapsed >= .milliseconds(950))
            #expect(elapsed < .seconds(3))
        }
    }
}
