import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A call ends on time whatever the engine is busy with: while another session of the process
/// reads a gzip body that inflates to 1 GiB and a 200 MB body from the misbehaving fixture, a
/// cancel, `cancelAllRequests()`, a 1 s idle timeout and a Basic 401 each end their call within
/// 100 ms of when they should, with their typed error. Both sessions are over the transport the
/// parent test names.
///
/// FoundationNetworking cannot stop inflating the gzip body once CoreAPI refuses it: it inflates
/// in its work queue, where the cancel waits its turn (``TestTransport/stopsInflatingAtTheLimit``).
@Suite(.serialized, .timeLimit(.minutes(2)), .enabled(if: StressChild.isChild))
struct EndsOnTimeScenarios {
    let server: FixtureServer
    /// The transport of both sessions.
    let transport: TestTransport
    /// The session that keeps the engine busy.
    let busy: ApiSession
    /// The session under test.
    let session: ApiSession

    init() throws {
        server = try FixtureServer.shared()
        transport = try StressChild.transport()
        busy = transport.makeSession(hostProvider: server.hosts)
        session = transport.makeSession(hostProvider: server.hosts)
    }

    /// How far past the moment it should end a call may end.
    static let slack: Duration = .milliseconds(100)

    /// Runs `body` while `busy` reads the gzip bomb and the 200 MB body.
    private func whileTheEngineIsBusy(_ body: () async throws -> Void) async throws {
        let url = server.baseURL
        let loads = [
            Task { [busy] in
                try? await busy.perform(TransportCall<Data>(url: url + "/fault/gzip-bomb?mb=1024"))
            },
            Task { [busy] in
                try? await busy.perform(
                    TransportCall<Data>(url: url + "/fault/huge-chunked?mb=200", maximumResponseSize: 300 << 20)
                )
            },
        ]
        defer {
            busy.cancelAllRequests()
            for load in loads { load.cancel() }
        }
        try await Task.sleep(for: .milliseconds(300))  // both transfers under way
        try await body()
    }

    @Test func aCancelledCallEndsAtOnce() async throws {
        try await whileTheEngineIsBusy {
            let call = Task { [session] in try await session.perform(DelayCall(milliseconds: 5000)) }
            try await Task.sleep(for: .milliseconds(200))
            let start = ContinuousClock.now
            call.cancel()
            await #expect(throws: ApiError.cancelled) { try await call.value }
            let elapsed = ContinuousClock.now - start
            #expect(elapsed < Self.slack, "cancel took \(elapsed)")
        }
    }

    @Test func cancelAllEndsEveryCallAtOnce() async throws {
        try await whileTheEngineIsBusy {
            let calls = (0..<4).map { _ in
                Task { [session] in try await session.perform(DelayCall(milliseconds: 5000)) }
            }
            try await Task.sleep(for: .milliseconds(200))
            let start = ContinuousClock.now
            session.cancelAllRequests()
            for call in calls {
                await #expect(throws: ApiError.cancelled) { try await call.value }
            }
            let elapsed = ContinuousClock.now - start
            #expect(elapsed < Self.slack, "cancelAllRequests() took \(elapsed)")
        }
    }

    @Test func anIdleTimeoutEndsTheCallOnTime() async throws {
        try await whileTheEngineIsBusy {
            let start = ContinuousClock.now
            await #expect(throws: ApiError.timeout) {
                try await session.perform(DelayCall(milliseconds: 3000, timeout: .seconds(1)))
            }
            let elapsed = ContinuousClock.now - start
            #expect(elapsed >= .seconds(1))
            #expect(elapsed < .seconds(1) + Self.slack, "a 1 s timeout took \(elapsed)")
        }
    }

    /// The 401 ends its call no later than a plain request started with it. An engine that does
    /// everything on one work queue for the whole process (``TestTransport/waitsForASharedWorkQueue``:
    /// FoundationNetworking) cannot deliver the 401 before that queue, busy here for seconds, has made
    /// the task and read the response, so there the plain request is all it is measured against: the
    /// call ends as soon as the challenge arrives, not once FoundationNetworking has acknowledged its
    /// cancel (over 3 s before). With any other engine the 401 also arrives within a second.
    @Test func aBasicChallengeEndsAsA401AsSoonAsItArrives() async throws {
        try await whileTheEngineIsBusy {
            let start = ContinuousClock.now
            async let plain: Void = {
                _ = try await session.perform(RawGet(path: "/fast", timeout: .seconds(10)))
            }()
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(RawGet(path: "/basic-auth", timeout: .seconds(10)))
            }
            let challenged = ContinuousClock.now - start
            try await plain
            let answered = ContinuousClock.now - start
            #expect(error?.statusCode == 401)
            #expect(error?.category == .unauthorized)
            #expect(challenged < answered + Self.slack, "the 401 took \(challenged), a plain GET \(answered)")
            if !transport.waitsForASharedWorkQueue {
                #expect(challenged < .seconds(1), "the 401 took \(challenged)")
            }
        }
    }
}
