import Dispatch
import Foundation
import Testing

@testable import CoreAPI

/// When an exchange whose idle timeout the session enforces is due: idle time counts from when its
/// transport starts, not from when the exchange was made.
struct PendingExchangeTests {
    /// Options with a 200 ms idle timeout and no deadline, reporting to a control started or not.
    private func options(started: Bool = true) -> (TransportOptions, ExchangeControl) {
        var options = TransportOptions(idleTimeout: 0.2)
        let control = ExchangeControl(options: options, started: started)
        options.control = control
        return (options, control)
    }

    private var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    @Test func timeBeforeTheTransportStartsIsNotIdleTime() async throws {
        let (options, activity) = options(started: false)
        let pending = PendingExchange(options: options)
        // Longer than the idle timeout while the transport's task waits for a thread: not yet due.
        try await Task.sleep(for: .milliseconds(300))
        #expect(pending.due > now)
        // Started, then silent for longer than the idle timeout: due.
        activity.touch()
        try await Task.sleep(for: .milliseconds(300))
        #expect(pending.due <= now)
    }

    @Test func aStartedClockCountsFromItsMaking() async throws {
        let pending = PendingExchange(options: options().0)
        try await Task.sleep(for: .milliseconds(300))
        #expect(pending.due <= now)
    }

    @Test func activityMovesTheIdleTimeoutOn() async throws {
        let (options, activity) = options()
        let pending = PendingExchange(options: options)
        try await Task.sleep(for: .milliseconds(300))
        activity.touch()
        let touched = now
        #expect(pending.due > touched)
        #expect(pending.due <= touched + 200_000_000)
    }
}

/// How the outcome of an exchange reaches its caller: once, from whichever decides first.
struct PendingExchangeOutcomeTests {
    private static let url = URL(string: "https://api.example.com/items")!

    /// Waits on `pending` as ``Call`` does, with `operation` as the transport's work.
    private static func wait(
        _ pending: PendingExchange,
        _ operation: @escaping @Sendable () async throws -> RawResponse
    ) async throws -> RawResponse {
        try await withCheckedThrowingContinuation { continuation in
            pending.start(continuation, operation)
        }
    }

    /// A cancel or a timeout that comes before the caller waits is what the caller gets, and the
    /// transport's work never starts.
    @Test(arguments: [ApiError.cancelled, .timeout])
    func anOutcomeDecidedBeforeTheWaitReachesTheCaller(reason: ApiError) async throws {
        let pending = PendingExchange(options: TransportOptions())
        pending.finish(.failure(reason))
        let started = SharedCounter()
        await #expect(throws: reason) {
            try await Self.wait(pending) {
                _ = started.next()
                return try RawResponse(url: Self.url, statusCode: 200)
            }
        }
        try await Task.sleep(for: .milliseconds(50))  // a task started by mistake would have run by now
        #expect(started.next() == 0)
    }

    /// The transport's response reaches the caller, body and all; a cancel after that resumes nothing
    /// a second time (a checked continuation would stop the process).
    @Test func theTransportsResponseReachesTheCallerOnce() async throws {
        let pending = PendingExchange(options: TransportOptions())
        let response = try await Self.wait(pending) {
            try RawResponse(url: Self.url, statusCode: 201, data: Data("created".utf8))
        }
        #expect(response.statusCode == 201)
        #expect(response.data == Data("created".utf8))
        pending.finish(.failure(.cancelled))
    }

    /// A cancel while the transport works resumes the caller at once and cancels the transport's task.
    @Test(.timeLimit(.minutes(1)))
    func aCancelWhileTheTransportWorksEndsTheWaitAtOnce() async throws {
        let pending = PendingExchange(options: TransportOptions())
        let working = Promise<Void>()
        let engineCancelled = Promise<Void>()
        let outcome = Task {
            try await Self.wait(pending) {
                working.resolve(.success(()))
                // Works until its task is cancelled, as a transport that notices nothing but cancellation.
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(5))
                }
                engineCancelled.resolve(.success(()))
                return try RawResponse(url: Self.url, statusCode: 200)
            }
        }
        try await working.value
        pending.finish(.failure(.cancelled))
        await #expect(throws: ApiError.cancelled) { _ = try await outcome.value }
        try await engineCancelled.value
    }
}
