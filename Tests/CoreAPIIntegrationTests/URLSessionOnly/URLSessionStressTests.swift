import Testing

extension SerialLoopback {
    /// URLSessionTransport's own machinery under load: its `SessionDelegate`, `URLSession` and
    /// `URLSessionTask`s are all released once the session goes, after thousands of calls. Other
    /// transports have no such parts for a test to hold. Runs the scenario of the same name from
    /// ``ConcurrencyStressScenarios`` in a child process, as ``ConcurrencyStressTests`` does.
    @Suite(.timeLimit(.minutes(ThreadSanitizer.isActive ? 4 : 3)))
    struct URLSessionStressTests {
        @Test func sessionDelegateAndTasksAreReleasedAfterThousandsOfCalls() async throws {
            try await StressChild.run(#function, over: .urlSession)
        }
    }
}
