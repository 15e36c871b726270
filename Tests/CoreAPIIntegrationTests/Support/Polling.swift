import Testing

/// Checks `condition` every 20 ms until it holds; records an issue and returns after `limit`, which only
/// a failing test ever waits for.
func poll(upTo limit: Duration = .seconds(30), until condition: @Sendable () -> Bool) async throws {
    let start = ContinuousClock.now
    while !condition() {
        if ContinuousClock.now - start > limit {
            Issue.record("still not true after \(limit)")
            return
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}
