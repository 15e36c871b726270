/// Waits until `condition` holds, checking it at once and then every 10 milliseconds.
///
/// Use it where a test must wait for something another task does: a call's request reaching a
/// ``StubTransport`` (`try await waitUntil { transport.requests.count == 1 }`) before the test cancels the
/// call, or a counter of your own that a middleware or a handler moves. It works in Swift Testing and
/// XCTest alike: a condition still false at `timeout` is a thrown error, which fails the test there.
///
/// - Parameters:
///   - timeout: How long to wait; 30 seconds by default. Only a failing test waits that long, so it
///     is long enough for a busy machine.
///   - condition: What to wait for, checked on the caller's task.
/// - Throws: An error that says how long it waited when `condition` is still false after `timeout`, and
///   `CancellationError` when the task is cancelled while it waits.
public func waitUntil(timeout: Duration = .seconds(30), _ condition: @Sendable () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else {
            throw WaitTimedOut(timeout: timeout)
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// The error ``waitUntil(timeout:_:)`` throws when its condition is still false at its timeout.
struct WaitTimedOut: Error, CustomStringConvertible {
    let timeout: Duration

    var description: String { "condition still false after \(timeout)" }
}
