import CoreAPI
import Foundation
import Testing

/// Cancelling a task just as its response completes must never hang (Linux's built-in async
/// `URLSession.data(for:)` deadlocks there) and must end either with the response or as cancelled,
/// over every transport.
@Suite(.timeLimit(.minutes(2)))
struct CancellationStressTests {
    @Test(arguments: TestTransport.engines)
    func cancelAtCompletionNeverHangs(transport: TestTransport) async throws {
        let server = try FixtureServer.shared()
        let session = transport.makeSession(hostProvider: server.hosts)
        // Measure how long a request takes here, then spread the cancels over twice that.
        var durations: [Duration] = []
        for _ in 0..<50 {
            let start = ContinuousClock.now
            _ = try await session.perform(RawGet(path: "/fast"))
            durations.append(ContinuousClock.now - start)
        }
        let median = durations.sorted()[durations.count / 2]
        let window = max(Int(median / .microseconds(1)) * 2, 200)
        let iterations = 2000
        var succeeded = 0
        var cancelled = 0
        for iteration in 0..<iterations {
            let task = Task { try await session.perform(RawGet(path: "/fast")) }
            let spin = (iteration * 37) % window
            if spin > 0 {
                let deadline = ContinuousClock.now + .microseconds(spin)
                while ContinuousClock.now < deadline {}
            }
            task.cancel()
            do {
                let data = try await task.value
                #expect(data == Data(#"{"ok":true}"#.utf8))
                succeeded += 1
            } catch ApiError.cancelled {
                cancelled += 1
            }
        }
        #expect(succeeded + cancelled == iterations)
        // Both outcomes must occur, or the loop did not cancel at completion.
        #expect(succeeded > 0)
        #expect(cancelled > 0)
        print(
            "cancel-at-completion: \(iterations) iterations over \(window) µs, \(succeeded) completed, \(cancelled) cancelled"
        )
    }
}
