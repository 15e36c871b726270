import CoreAPI
import Foundation

/// The cases about time: the idle timeout, the deadline and cancellation end a call long before the
/// server, which stalls for 30 seconds, would.
extension TransportConformance {
    static var timeCases: [Case] {
        [endsOnTheIdleTimeout, endsAtTheDeadline, endsWhenCancelled]
    }

    static let endsOnTheIdleTimeout = Case(
        "endsOnTheIdleTimeout",
        """
        With a 0.5 s idle timeout, a server that sends no head, and one that stalls mid-body, each end \
        the call with ApiError.timeout, no sooner than the timeout and long before the server's 30 s.
        """
    ) { run in
        for phase in ["head", "body"] {
            let what = "a stall before the \(phase) to end with a timeout after 0.5 s"
            let (error, elapsed) = try await run.error(
                of: ConformanceCall(
                    url: run.url("/stall?phase=\(phase)"),
                    options: CallOptions(timeout: .milliseconds(500))
                ),
                expecting: what
            )
            try run.expect(error == .timeout, what, seen: TransportConformance.Failure.describe(error))
            try run.expect(elapsed >= .milliseconds(450), what, seen: "the timeout after \(elapsed)")
        }
    }

    static let endsAtTheDeadline = Case(
        "endsAtTheDeadline",
        """
        A body trickling one byte every 200 ms — never idle for the 5 s idle timeout — ends at the call's \
        1 s deadline with ApiError.timeout.
        """
    ) { run in
        let what = "a trickling body to end with a timeout at the 1 s deadline"
        let (error, elapsed) = try await run.error(
            of: ConformanceCall(
                url: run.url("/trickle?bytes=100&ms=200"),
                options: CallOptions(timeout: .seconds(5), deadline: .seconds(1))
            ),
            expecting: what
        )
        try run.expect(error == .timeout, what, seen: TransportConformance.Failure.describe(error))
        try run.expect(elapsed >= .milliseconds(950), what, seen: "the timeout after \(elapsed)")
    }

    static let endsWhenCancelled = Case(
        "endsWhenCancelled",
        """
        Cancelling the calling task while the server holds back the head ends the call with \
        ApiError.cancelled at once, long before the server's 30 s.
        """
    ) { run in
        let marker = UUID().uuidString
        let what = "a cancelled call to end with ApiError.cancelled"
        let (error, _) = try await run.error(
            of: ConformanceCall(url: run.url("/stall?phase=head&marker=\(marker)")),
            expecting: what
        ) { task in
            try await run.waitForArrival(of: marker, "the request to reach the server before the cancel")
            task.cancel()
        }
        try run.expect(error == .cancelled, what, seen: TransportConformance.Failure.describe(error))
    }
}
