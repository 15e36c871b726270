import Testing

extension SerialLoopback {
    /// Each scenario of ``EndsOnTimeScenarios`` over each transport, in a process of its own, so that
    /// other suites of this one, running in parallel on two cores, cannot hold the threads a call
    /// resumes on.
    @Suite(.timeLimit(.minutes(2)))
    struct EndsOnTimeTests {
        @Test(arguments: TestTransport.underTest)
        func aCancelledCallEndsAtOnce(transport: TestTransport) async throws {
            try await StressChild.run(#function, of: "EndsOnTimeScenarios", over: transport)
        }

        @Test(arguments: TestTransport.underTest)
        func cancelAllEndsEveryCallAtOnce(transport: TestTransport) async throws {
            try await StressChild.run(#function, of: "EndsOnTimeScenarios", over: transport)
        }

        @Test(arguments: TestTransport.underTest)
        func anIdleTimeoutEndsTheCallOnTime(transport: TestTransport) async throws {
            try await StressChild.run(#function, of: "EndsOnTimeScenarios", over: transport)
        }

        @Test(arguments: TestTransport.underTest)
        func aBasicChallengeEndsAsA401AsSoonAsItArrives(transport: TestTransport) async throws {
            try await StressChild.run(#function, of: "EndsOnTimeScenarios", over: transport)
        }
    }
}
