import CoreAPI
import Testing

/// The exchange's limits as a transport reads them, whatever units the one timer keeps them in.
struct TransportOptionsTests {
    @Test(arguments: [
        (Duration?.some(.milliseconds(500)), Duration?.some(.milliseconds(500))), (.seconds(90), .seconds(90)),
        (nil, nil), (.zero, nil), (.seconds(-1), nil), (CallOptions.unlimited, nil), (.seconds(Int64.max), nil),
    ])
    func anIdleTimeoutReadsBackAsSetOrAsNone(set: Duration?, read: Duration?) {
        #expect(TransportOptions(idleTimeout: set).idleTimeout == read)
    }

    @Test func aDeadlineReadsBackWhereItWasSet() throws {
        let deadline = ContinuousClock.now + .seconds(30)
        let read = try #require(TransportOptions(deadline: deadline).deadline)
        // The one timer keeps it as system uptime: the round trip is off by the clocks' reads only.
        #expect(read > deadline - .milliseconds(50) && read < deadline + .milliseconds(50))
        #expect(TransportOptions().deadline == nil)
        var options = TransportOptions(deadline: deadline)
        options.deadline = nil
        #expect(options.deadline == nil)
    }

    @Test func aPassedDeadlineReadsAsPassed() throws {
        let read = try #require(TransportOptions(deadline: .now - .seconds(5)).deadline)
        #expect(read <= .now)
    }
}
