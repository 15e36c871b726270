import CoreAPI
import Foundation
import Testing

/// What an engine does with a gzip bomb the size limit has refused, seen in the processor time of the
/// child process the parent test starts, which runs nothing else.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: StressChild.isChild))
struct GzipBombScenarios {
    /// What the bomb inflates to, in MiB; its compressed body is about 1 MB.
    static let megabytes = 1024

    let server: FixtureServer
    let transport: TestTransport

    init() throws {
        server = try FixtureServer.shared()
        transport = try StressChild.transport()
    }

    /// The call ends with ``ApiError/responseTooLarge(limit:)`` at 10 MiB of 1 GiB. An engine that stops
    /// with the call leaves the process idle at once; FoundationNetworking goes on inflating the rest
    /// (``TestTransport/stopsInflatingAtTheLimit``): 1.4–1.8 s of processor time on two shared cores.
    @Test func aRefusedGzipBombIsInflatedNoFurther() async throws {
        let session = transport.makeSession(hostProvider: server.hosts)
        _ = try await session.perform(RawGet(path: "/fast"))  // the engine and a connection ready
        let start = ContinuousClock.now
        await #expect(throws: ApiError.responseTooLarge(limit: 10 * 1024 * 1024)) {
            try await session.perform(
                TransportCall<Data>(url: server.baseURL + "/fault/gzip-bomb?mb=\(Self.megabytes)")
            )
        }
        let refused = ProcessorTime.now()
        let ended = ContinuousClock.now - start
        let afterwards = try await ProcessorTime.untilIdle(since: refused)
        if transport.stopsInflatingAtTheLimit {
            #expect(afterwards < .milliseconds(250), "\(afterwards) of processor time after the call ended")
        } else {
            // About a quarter of what it takes here: pinned so that an engine that learns to stop shows up.
            #expect(afterwards > .milliseconds(400), "only \(afterwards) of processor time after the call ended")
        }
        print(
            "stress: a \(Self.megabytes) MiB gzip bomb was refused after \(ended); the process used \(afterwards) "
                + "of processor time afterwards"
        )
    }
}
