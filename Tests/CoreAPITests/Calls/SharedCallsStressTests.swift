import CoreAPITesting
import Testing

@testable import CoreAPI

/// Exchanges that wait until they are released or cancelled, counted by how they ended.
private final class HeldExchanges: Sendable {
    private struct State {
        var isReleased = false
        var waiting: [Int: CheckedContinuation<Bool, Never>] = [:]
        var next = 0
        var started = 0
        var cancelled = 0
        var answered = 0
    }

    private let state = LockedValue(State())

    /// Exchanges started, ended by a cancel, and answered.
    var counts: (started: Int, cancelled: Int, answered: Int) {
        state.withLock { ($0.started, $0.cancelled, $0.answered) }
    }

    /// Waits until ``release()``, then returns `value`; throws `CancellationError` when cancelled first.
    func run(returning value: Int) async throws -> Int {
        let id = state.withLock { state in
            state.started += 1
            state.next += 1
            return state.next
        }
        let released = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now: Bool? = state.withLock { state in
                    if state.isReleased { return true }
                    if Task.isCancelled { return false }  // checked under the lock the cancel handler takes
                    state.waiting[id] = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: id) }?.resume(returning: false)
        }
        state.withLock { state in
            if released { state.answered += 1 } else { state.cancelled += 1 }
        }
        guard released else { throw CancellationError() }
        return value
    }

    /// Lets every exchange waiting now, and every later one, answer.
    func release() {
        let waiting = state.withLock { state in
            state.isReleased = true
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for continuation in waiting {
            continuation.resume(returning: true)
        }
    }
}

/// Many callers joining and leaving shared exchanges at once.
@Suite(.timeLimit(.minutes(1)))
struct SharedCallsStressTests {
    /// Two thousand callers of fifty identities join and cancel in random order, by their task or by
    /// their call. Ten identities are never answered: every exchange of theirs must end by the cancel of
    /// its last caller. Every caller ends: one that was cancelled with `ApiError.cancelled`, every other
    /// with its identity's answer; nothing is left waiting.
    @Test func twoThousandCallersJoiningAndCancellingAtRandom() async throws {
        let shared = SharedCalls()
        let held = HeldExchanges()  // never released
        let answered = HeldExchanges()  // released once every cancel was issued
        let identities = (0..<50).map { index in
            WireIdentity(
                methodType: ObjectIdentifier(Int.self),
                callKey: nil,
                maximumResponseSize: .max,
                timeouts: [],
                digest: String(index)
            )
        }
        var generator = SystemRandomNumberGenerator()
        struct Caller {
            let identity: Int
            let cancels: Bool
            let task: Task<Int, any Error>
        }
        var callers: [Caller] = []
        var cancellers: [Task<Void, Never>] = []
        for _ in 0..<2_000 {
            let identity = Int.random(in: 0..<50, using: &generator)
            let isHeld = identity < 10
            let cancels = isHeld || Int.random(in: 0..<10, using: &generator) < 4
            let exchanges = isHeld ? held : answered
            let call = Call()
            let task = Task {
                try await shared.perform(identities[identity], for: call) {
                    try await exchanges.run(returning: identity)
                }
            }
            callers.append(Caller(identity: identity, cancels: cancels, task: task))
            if cancels {
                let yields = Int.random(in: 0..<8, using: &generator)
                let byTask = Bool.random(using: &generator)
                cancellers.append(
                    Task {
                        for _ in 0..<yields {
                            await Task.yield()
                        }
                        if byTask { task.cancel() } else { call.cancel() }
                    }
                )
            }
        }
        for canceller in cancellers {
            await canceller.value
        }
        answered.release()
        var cancelledCallers = 0
        for caller in callers {
            if caller.cancels {
                await #expect(throws: ApiError.cancelled) { try await caller.task.value }
                cancelledCallers += 1
            } else {
                #expect(try await caller.task.value == caller.identity)
            }
        }
        #expect(cancelledCallers >= 400)
        #expect(shared.waiting == 0)
        // Every exchange whose callers all left was cancelled: those never answered, and some others.
        try await waitUntil {
            let (started, cancelled, _) = held.counts
            return started > 0 && cancelled == started
        }
        try await waitUntil {
            let (started, cancelled, answeredCount) = answered.counts
            return answeredCount > 0 && cancelled + answeredCount == started
        }
    }
}
