import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the session delegate keeps for each task in flight.
extension SessionDelegate {
    /// One task's state; a class so chunks are appended in place. Guarded by the delegate's lock.
    final class TaskState: @unchecked Sendable {  // its fields are read and written under the delegate's lock only
        /// The task, once made.
        var task: URLSessionTask?
        let completion: @Sendable (TaskOutcome) -> Void
        let options: TransportOptions
        /// The request's method: a response to `HEAD` has no body.
        let method: HTTPMethod
        var progress: (@Sendable (TransferProgress) -> Void)? { options.progress }
        /// The temporary file the body is uploaded from, if any.
        let temporaryBodyFile: URL?
        /// Whether that file may be cut to zero bytes when the task is ended early: it was written for
        /// this attempt alone.
        let truncatesBodyFile: Bool
        /// A failure CoreAPI decided on (a body too large), reported when the task ends.
        var failure: ApiError?
        var bodyBytesSent: Int64 = 0
        var bodyBytesExpected: Int64 = -1
        /// The response's rules and what was kept of its body, from its head on (see
        /// ``ResponseCollector``).
        var collector: ResponseCollector?
        /// Whether the body goes to the options' ``TransportOptions/BodyHandler`` rather than into the collector.
        var streams = false
        /// Whether the task is suspended until its stream's reader has made room (Apple only): idle
        /// time does not count meanwhile.
        var isWaitingForReader = false
        /// When the task was made: the origin of the exchange's phases; `distantPast` when the call does
        /// not measure them (``TransportOptions/measuresPhases``), and no clock is read for them.
        let started: Date
        /// When the last body bytes were reported sent.
        var bodySent: Date?
        /// When the response head arrived.
        var headReceived: Date?
        /// The phases URLSession's metrics gave, when they came.
        var phases: ResponseTiming.Phases?

        init(
            completion: @escaping @Sendable (TaskOutcome) -> Void,
            options: TransportOptions,
            method: HTTPMethod,
            temporaryBodyFile: URL?,
            truncatesBodyFile: Bool
        ) {
            self.completion = completion
            self.options = options
            self.method = method
            self.temporaryBodyFile = temporaryBodyFile
            self.truncatesBodyFile = truncatesBodyFile
            started = options.measuresPhases ? Date() : .distantPast
        }

        /// Records that a byte moved: the exchange's idle timeout counts from now.
        func touch() {
            options.control?.touch()
        }
    }
}
