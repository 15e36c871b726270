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
        /// The exchange's control, touched whenever a byte moves.
        let control: ExchangeControl?
        /// The exchange's progress handler.
        let progress: (@Sendable (TransferProgress) -> Void)?
        /// Whether the call measures its phases (``TransportOptions/measuresPhases``).
        let measuresPhases: Bool
        /// The temporary file the body is uploaded from, if any.
        let temporaryBodyFile: URL?
        /// Whether that file may be cut to zero bytes when the task is ended early: it was written for
        /// this attempt alone.
        let truncatesBodyFile: Bool
        /// The body the task reads as a stream, made again for each rewind the engine asks for.
        let body: RewindableBody?
        /// A failure CoreAPI decided on (a body too large), reported when the task ends.
        var failure: ApiError?
        /// The body bytes the engine has read for the request as it is being sent now: since its last
        /// rewind, when it sends the request again on a new connection.
        var bodyBytesSent: Int64 = 0
        var bodyBytesExpected: Int64 = -1
        /// The body bytes the engine had read before its last rewind; it counts on from them.
        var bodyBytesBeforeRewind: Int64 = 0
        /// The response's rules and what was kept of its body (see ``ResponseCollector``); made with the
        /// state, so the head and each piece change it in place.
        var collector: ResponseCollector
        /// Whether the response head has arrived.
        var hasHead = false
        /// The handler the body goes to, once the collector said so for the head; `nil` while the body
        /// goes into the collector.
        var streamsTo: TransportOptions.BodyHandler?
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

        /// Keeps of `options` what the task's events need, with `control` for its activity: the fields
        /// are read here, and the options themselves are not kept.
        init(
            completion: @escaping @Sendable (TaskOutcome) -> Void,
            options: TransportOptions,
            control: ExchangeControl?,
            method: HTTPMethod,
            temporaryBodyFile: URL?,
            truncatesBodyFile: Bool,
            body: RewindableBody? = nil
        ) {
            self.completion = completion
            self.control = control
            progress = options.progress
            measuresPhases = options.measuresPhases
            collector = ResponseCollector(
                method: method,
                options: options,
                decodedCodings: SessionDelegate.decodedContentCodings
            )
            self.temporaryBodyFile = temporaryBodyFile
            self.truncatesBodyFile = truncatesBodyFile
            self.body = body
            bodyBytesExpected = body?.length ?? -1
            started = options.measuresPhases ? Date() : .distantPast
        }

        /// Records what a collector made of the response head; call under the delegate's lock. Returns
        /// whether the task ends with a failure.
        func record(_ outcome: Result<TransportOptions.BodyHandler?, ApiError>) -> Bool {
            hasHead = true
            switch outcome {
            case .success(let handler):
                streamsTo = handler
                return false
            case .failure(let error):
                failure = error
                return true
            }
        }

        /// The head and what was collected of the body; throws when no head arrived.
        func collected() throws(ApiError) -> RawResponse {
            try collector.finish()
        }

        /// Records that a byte moved: the exchange's idle timeout counts from now.
        func touch() {
            control?.touch()
        }
    }
}
