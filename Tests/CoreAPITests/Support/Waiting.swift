import Testing

/// The most a call that must end "at once" may take in these tests.
///
/// The behaviour each such test rules out waits 30 s or longer, so this bound tells the two apart, also
/// when the unit tests share two cores with the loopback suites and every task resumes seconds late
/// (5.4 s was seen against an earlier 5 s bound): what it bounds is the code's 30 s, not the machine.
let promptly: Duration = .seconds(15)

/// Polls `condition` every 10 ms for up to 30 s, and records an issue when it is still false then. The
/// wait costs time only when a test is failing anyway, so it is long enough for any busy machine.
func waitUntil(_ condition: @Sendable () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition not met within 30 s")
            return
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
