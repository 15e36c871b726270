import Testing

/// Many calls at once on one session, over every transport: a thousand overlapping requests, cancelling
/// one or all of them, and a mix of outcomes while the environment switches (also run under the thread
/// sanitizer by `Scripts/tsan-stress.sh`). The release of URLSession's machinery after thousands of calls
/// is checked by ``SerialLoopback/URLSessionStressTests``.
///
/// Each test runs the scenario of the same name from ``ConcurrencyStressScenarios`` in a child process
/// (this test binary again, see ``StressChild``), over the test's transport, so a thousand sockets, their
/// threads and their memory stay out of the process that runs the rest of the suite; the scenarios only
/// share the processor. The child's output is checked for thread sanitizer reports too.
///
/// The three cancel scenarios guard a fix: CoreAPI used to create, resume and cancel its tasks on threads
/// of the Swift concurrency pool, where each waited for FoundationNetworking's busy work queue; with a
/// thousand calls starting at once every pool thread waited there, and after 90 s only 484 of the 1000
/// tasks were running. The session now does this on a dispatch queue of its own.
extension SerialLoopback {
    @Suite(.timeLimit(.minutes(ThreadSanitizer.isActive ? 4 : 3)))
    struct ConcurrencyStressTests {
        @Test(arguments: TestTransport.engines)
        func aThousandConcurrentRequestsAllSucceed(transport: TestTransport) async throws {
            try await StressChild.run(#function, over: transport)
        }

        @Test(arguments: TestTransport.engines)
        func cancellingOneOfAThousandInFlightEndsOnlyThatOne(transport: TestTransport) async throws {
            try await StressChild.run(#function, over: transport)
        }

        @Test(arguments: TestTransport.engines)
        func cancelAllRequestsEndsAThousandInFlightWithinTwoSeconds(transport: TestTransport) async throws {
            try await StressChild.run(#function, over: transport)
        }

        @Test(arguments: TestTransport.engines)
        func cancelAllRequestsEndsAThousandOpenConnections(transport: TestTransport) async throws {
            try await StressChild.run(#function, over: transport)
        }

        @Test(arguments: TestTransport.engines)
        func mixedCallsWhileTheEnvironmentSwitches(transport: TestTransport) async throws {
            try await StressChild.run(#function, over: transport)
        }
    }
}
