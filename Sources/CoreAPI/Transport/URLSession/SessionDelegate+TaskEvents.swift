import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What FoundationNetworking reports about a task: its response head, body chunks, body bytes sent,
/// redirects (refused) and its end.
extension SessionDelegate {
    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let head = (response as? HTTPURLResponse).map(ResponseHead.init)
        let expected = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
        // The collector takes the head in place, under the lock. A body handler's `accepts` is the
        // caller's code: a collector that asks one takes the head outside the lock, on a copy.
        var taken = false
        var failed = false
        var progress: TransferProgress?
        let found = shared.withLock { shared -> TaskState? in
            guard let state = shared.tasks[ObjectIdentifier(dataTask)] else { return nil }
            state.touch()
            if state.measuresPhases {
                state.headReceived = Date()
            }
            if !state.collector.asksBodyHandler {
                failed = state.record(Self.receive(head, expectedLength: expected, into: &state.collector))
                taken = true
                if state.progress != nil {
                    progress = state.collector.progress
                }
            }
            return state
        }
        guard let state = found else {
            completionHandler(.allow)
            return
        }
        if !taken {
            var collector = shared.withLock { _ in state.collector }
            let outcome = Self.receive(head, expectedLength: expected, into: &collector)
            shared.withLock { _ in
                state.collector = collector
                failed = state.record(outcome)
            }
            progress = collector.progress
        }
        completionHandler(.allow)
        if failed {
            end(dataTask, with: .cancelled)
        } else if let progress, let report = state.progress {
            report(progress)
        }
    }

    /// Gives `head` to `collector`: `nil` for a response that is not HTTP, which has no head to check.
    /// - Returns: The failure the task ends with, or the handler its body goes to (`nil` while it goes
    ///   into the collector).
    private static func receive(
        _ head: ResponseHead?,
        expectedLength: Int64?,
        into collector: inout ResponseCollector
    ) -> Result<TransportOptions.BodyHandler?, ApiError> {
        guard let head else { return .success(nil) }
        do {
            if case .stream(let handler) = try collector.receive(head, expectedLength: expectedLength) {
                return .success(handler)
            }
            return .success(nil)
        } catch {
            return .failure(error)
        }
    }

    /// Hands a piece of a body to the exchange's ``TransportOptions/BodyHandler``, outside the lock.
    ///
    /// A stream's reader that falls its buffer's limit behind holds the task: Apple's URLSession
    /// suspends it until the reader has taken half the buffer; FoundationNetworking cannot pause a task
    /// (`suspend()` restarts the transfer from byte 0, appended to what came), so there the stream ends
    /// with ``ApiError/streamBufferFull(limit:)`` after the pieces buffered.
    private func stream(
        _ data: Data,
        of dataTask: URLSessionDataTask,
        to handler: TransportOptions.BodyHandler,
        state: TaskState
    ) {
        do {
            #if canImport(FoundationNetworking)
                if let buffer = handler.buffer, !buffer.hasRoom(for: data.count) {
                    throw ApiError.streamBufferFull(limit: buffer.limit)
                }
            #endif
            try handler.receive(data)
        } catch {
            shared.withLock { _ in state.failure = ApiError(error) }
            end(dataTask, with: .cancelled)
            return
        }
        #if !canImport(FoundationNetworking)
            if let buffer = handler.buffer, buffer.isFull {
                suspend(dataTask, state: state, until: buffer)
            }
        #endif
        if let progress = state.progress {
            progress(shared.withLock { _ in state.collector.progress })
        }
    }

    #if !canImport(FoundationNetworking)
        /// Suspends `dataTask` until its stream's reader has drained `buffer` to half its limit. A
        /// suspended task transfers nothing and is not subject to URLSession's timeouts; the idle timeout
        /// counts again from when it resumes.
        private func suspend(_ dataTask: URLSessionDataTask, state: TaskState, until buffer: StreamBuffer) {
            let suspends = shared.withLock { _ in
                defer { state.isWaitingForReader = true }
                return !state.isWaitingForReader
            }
            guard suspends else { return }
            state.control?.pause()
            dataTask.suspend()
            buffer.whenDrained { [shared] in
                shared.withLock { _ in
                    state.isWaitingForReader = false
                    state.touch()
                }
                state.task?.resume()
            }
        }
    #endif

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // One pass under the lock decides what the piece is for; the caller's code (a body handler, a
        // progress handler) and the engine's cancel run after it.
        var ended = false
        var kept: TaskOutcome?
        var streaming: (state: TaskState, handler: TransportOptions.BodyHandler)?
        let report = shared.withLock { shared -> (TransferProgress, @Sendable (TransferProgress) -> Void)? in
            guard let state = shared.tasks[ObjectIdentifier(dataTask)], state.hasHead, state.failure == nil else {
                return nil
            }
            state.touch()
            if let handler = state.streamsTo {
                state.collector.streamed(data.count)
                streaming = (state, handler)
                return nil
            }
            do throws(ApiError) {
                if try state.collector.append(data) == .complete {
                    let raw = try state.collected()
                    kept = TaskOutcome(response: raw.head, data: raw.data)  // the rest is not read
                    return nil
                }
            } catch {
                state.failure = error  // what arrived so far is dropped
                ended = true
                return nil
            }
            guard let progress = state.progress else { return nil }
            return (state.collector.progress, progress)
        }
        if let (state, handler) = streaming {
            stream(data, of: dataTask, to: handler, state: state)
        } else if let kept {
            end(dataTask, with: kept)
        } else if ended {
            end(dataTask, with: .cancelled)
        } else if let (value, progress) = report {
            progress(value)
        }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        let progress = shared.withLock { shared -> (@Sendable (TransferProgress) -> Void, Int64, Int64)? in
            guard let state = shared.tasks[ObjectIdentifier(task)] else { return nil }
            state.touch()
            if state.measuresPhases {
                state.bodySent = Date()
            }
            // The engine counts on across a rewind, and knows no length for a body stream.
            state.bodyBytesSent = totalBytesSent - state.bodyBytesBeforeRewind
            if state.body == nil {
                state.bodyBytesExpected = totalBytesExpectedToSend
            }
            return state.progress.map { ($0, state.bodyBytesSent, state.bodyBytesExpected) }
        }
        guard let (report, sent, expected) = progress else { return }
        report(TransferProgress(direction: .upload, completedBytes: sent, totalBytes: expected >= 0 ? expected : nil))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (state, retired) = shared.withLock { shared in
            (
                shared.tasks.removeValue(forKey: ObjectIdentifier(task)),
                shared.retired.isEmpty ? nil : shared.retired.removeValue(forKey: ObjectIdentifier(task))
            )
        }
        if state != nil || retired != nil {
            Self.engineTasks.withLock { $0 -= 1 }
        }
        if let file = retired?.file ?? state?.temporaryBodyFile {
            TemporaryBodyFiles.release(file)
        }
        if let state {
            finish(state, error: error)
        }
    }

    /// Runs the completion of a task taken out of `tasks`, which ended with `error`.
    private func finish(_ state: TaskState, error: (any Error)?) {
        if let failure = state.failure {
            state.completion(TaskOutcome(error: failure))
        } else if let error {
            let url = state.task?.originalRequest?.url
            state.completion(TaskOutcome(error: Self.failure(for: error, afterHead: state.hasHead, url: url)))
        } else if let raw = try? state.collected() {
            state.completion(TaskOutcome(response: raw.head, data: raw.data, phases: phases(of: state)))
        } else if let head = (state.task?.response as? HTTPURLResponse).map(ResponseHead.init) {
            state.completion(TaskOutcome(response: head, data: Data(), phases: phases(of: state)))
        } else {
            state.completion(TaskOutcome(error: ApiError.transport(.init(kind: .badResponse))))
        }
    }

    /// Refuses every redirect, so the `3xx` is the task's response: the session follows hops itself,
    /// with the same rules for every transport. Linux never sends a body again after a redirect (a 307
    /// POST goes out with `Content-Length: 0`, whatever the new request holds), and forwards every
    /// header to the new host.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
