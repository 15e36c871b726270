import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// The body streams FoundationNetworking asks for when it sends a request again.
    extension SessionDelegate {
        /// Answers the engine's rewind of a body with a new stream of the whole body.
        ///
        /// libcurl sends a request again on a new connection when the kept-alive connection it reused
        /// died before any response; FoundationNetworking then asks here for the body anew, and goes on
        /// with whatever stream it is given, or, given none, with the stream it had, where the first
        /// attempt stopped reading: the body would go out from its middle. So a stream is always given:
        /// the whole body (see ``RewindableBody``), or, when that cannot be made again (its file changed
        /// or is gone) or the exchange has ended, an empty one, and the exchange ends at once with
        /// ``ApiError/TransportFailure/Kind/connectionLost``: the engine sends no byte from the middle,
        /// and its request, short of its `Content-Length`, is cancelled.
        ///
        /// FoundationNetworking calls this on its work queue and waits for the answer, so it is given
        /// here, at once. The engine's count of body bytes sent goes on across the rewind; the task's
        /// upload progress starts again from zero.
        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void
        ) {
            let body = shared.withLock { shared -> RewindableBody? in
                guard let state = shared.tasks[ObjectIdentifier(task)] else { return nil }
                state.touch()
                state.bodyBytesBeforeRewind += state.bodyBytesSent
                state.bodyBytesSent = 0
                return state.body
            }
            if let body, body.isUnchanged, let stream = body.makeStream() {
                completionHandler(stream)
                return
            }
            completionHandler(InputStream(data: Data()))
            let lost = ApiError.transport(.init(kind: .connectionLost, code: URLError.networkConnectionLost.rawValue))
            end(task, with: lost)
        }
    }
#endif
