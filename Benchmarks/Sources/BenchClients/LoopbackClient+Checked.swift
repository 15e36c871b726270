extension LoopbackClient {
    /// Performs `count` fetches, at most `inFlight` at a time, checking that each answer is
    /// ``TinyUser/expected``. One at a time, the fetches run in the calling task, with no child task per
    /// request, so that a count of instructions or of retained bytes holds the client's work alone.
    /// - Throws: ``BenchServerError`` for an unexpected answer, or what a fetch threw.
    public func fetchChecked(_ count: Int, inFlight: Int) async throws {
        if inFlight == 1 {
            for _ in 0..<count {
                guard try await fetch() == TinyUser.expected else {
                    throw BenchServerError(description: "unexpected answer")
                }
            }
            return
        }
        try await withThrowingTaskGroup(of: TinyUser.self) { group in
            var started = 0
            while started < min(inFlight, count) {
                group.addTask { try await fetch() }
                started += 1
            }
            while let user = try await group.next() {
                guard user == TinyUser.expected else {
                    throw BenchServerError(description: "unexpected answer")
                }
                if started < count {
                    group.addTask { try await fetch() }
                    started += 1
                }
            }
        }
    }
}
