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
        // Converted once, outside the lock: CoreAPI's head is what the session and the response types read.
        let head = (response as? HTTPURLResponse).map(ResponseHead.init)
        if let handler = shared.withLock({ $0.tasks[ObjectIdentifier(dataTask)]?.options.bodyHandler }),
            let head
        {
            let fields = HeadChecks(head)
            if !fields.isRedirect {
                receive(
                    head,
                    fields: fields,
                    of: dataTask,
                    handingBodyTo: handler,
                    completionHandler: completionHandler
                )
                return
            }
        }
        let (progress, refused) = shared.withLock { shared -> ((@Sendable (TransferProgress) -> Void)?, Bool) in
            guard let state = shared.tasks[ObjectIdentifier(dataTask)] else { return (nil, false) }
            state.response = head
            state.data = Data()
            state.touch()
            let expected = response.expectedContentLength
            state.expectedLength = expected >= 0 ? expected : nil
            let fields = head.map(HeadChecks.init)
            if let fields, let failure = Self.headFailure(of: fields, method: dataTask.originalRequest?.httpMethod) {
                state.failure = failure
                return (nil, true)
            }
            let limit = state.options.maximumResponseSize
            if let fields, fields.isRedirect {
                // The session follows it: only the start of its body is kept, and the size limit is not
                // reached by a body that is not read.
                state.redirectBodyLimit = Int(min(Int64(HeadChecks.redirectBodyLimit), max(limit, 0)))
                return (state.progress, false)
            }
            // FoundationNetworking's reading of the length counts too, for an identity body.
            let tooLarge =
                expected > limit && (fields?.isIdentityEncoded ?? true) || (fields?.declaresMore(than: limit) ?? false)
            if tooLarge {
                state.failure = .responseTooLarge(limit: limit)
            }
            return (state.progress, tooLarge)
        }
        completionHandler(.allow)
        if refused {
            end(dataTask, with: .cancelled)
            return
        }
        if let progress {
            progress(TransferProgress(direction: .download, completedBytes: 0, totalBytes: nil))
        }
    }

    /// Takes the head of a response whose body may go to `handler`: the transport's checks of the head
    /// first, then the handler's choice.
    private func receive(
        _ head: ResponseHead,
        fields: HeadChecks,
        of dataTask: URLSessionDataTask,
        handingBodyTo handler: ResponseBodyHandler,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        var failure = Self.headFailure(of: fields, method: dataTask.originalRequest?.httpMethod)
        var streams = false
        if failure == nil {
            do {
                streams = try handler.accepts(head)
            } catch {
                failure = ApiError(error)
            }
        }
        let progress = shared.withLock { shared -> (@Sendable (TransferProgress) -> Void)? in
            guard let state = shared.tasks[ObjectIdentifier(dataTask)] else { return nil }
            state.response = head
            state.data = Data()
            state.touch()
            let expected = dataTask.response?.expectedContentLength ?? -1
            state.expectedLength = expected >= 0 ? expected : nil
            state.failure = failure
            state.streams = streams
            if !streams, failure == nil {
                // Collected: the size limit applies as to any body.
                let limit = state.options.maximumResponseSize
                if expected > limit && fields.isIdentityEncoded || fields.declaresMore(than: limit) {
                    state.failure = .responseTooLarge(limit: limit)
                    failure = state.failure
                }
            }
            return state.progress
        }
        completionHandler(.allow)
        if failure != nil {
            end(dataTask, with: .cancelled)
            return
        }
        progress?(TransferProgress(direction: .download, completedBytes: 0, totalBytes: nil))
    }

    /// Hands a piece of a body to the exchange's ``ResponseBodyHandler``, outside the lock.
    ///
    /// A stream's reader that falls its buffer's limit behind holds the task: Apple's URLSession
    /// suspends it until the reader has taken half the buffer; FoundationNetworking cannot pause a task
    /// (`suspend()` restarts the transfer from byte 0, appended to what came), so there the stream ends
    /// with ``ApiError/streamBufferFull(limit:)`` after the pieces buffered.
    private func stream(_ data: Data, of dataTask: URLSessionDataTask, state: TaskState) {
        guard let handler = state.options.bodyHandler else { return }
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
        let (completed, total) = shared.withLock { _ in
            (state.streamedBytes, state.expectedLength.map { max($0, state.streamedBytes) })
        }
        state.progress?(TransferProgress(direction: .download, completedBytes: completed, totalBytes: total))
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
            state.options.control?.pause()
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
        let streaming = shared.withLock { shared -> TaskState? in
            guard let state = shared.tasks[ObjectIdentifier(dataTask)], state.failure == nil, state.streams else {
                return nil
            }
            state.touch()
            state.streamedBytes += Int64(data.count)
            return state
        }
        if let streaming {
            stream(data, of: dataTask, state: streaming)
            return
        }
        var tooLarge = false
        var redirect: TaskOutcome?
        let report = shared.withLock { shared -> (TransferProgress, @Sendable (TransferProgress) -> Void)? in
            guard let state = shared.tasks[ObjectIdentifier(dataTask)], state.failure == nil else { return nil }
            state.touch()
            if let kept = state.redirectBodyLimit, let response = state.response,
                state.data.count + data.count > kept
            {
                // A redirect's body beyond what is kept: the rest is not read.
                state.data.append(data.prefix(kept - state.data.count))
                redirect = TaskOutcome(response: response, data: state.data)
                return nil
            }
            let limit = state.options.maximumResponseSize
            if Int64(state.data.count) + Int64(data.count) > limit {
                // Counted on decoded bytes as they arrive; what arrived so far is dropped.
                state.failure = .responseTooLarge(limit: limit)
                state.data = Data()
                tooLarge = true
                return nil
            }
            if state.data.isEmpty {
                state.data = data  // the first chunk, usually the whole body: no copy
            } else {
                state.data.append(data)
            }
            guard let progress = state.progress else { return nil }
            let completed = Int64(state.data.count)
            // Content-Length counts encoded bytes; a decoded body may be longer.
            let total = state.expectedLength.map { max($0, completed) }
            return (TransferProgress(direction: .download, completedBytes: completed, totalBytes: total), progress)
        }
        if let redirect {
            end(dataTask, with: redirect)
        } else if tooLarge {
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
        let progress = shared.withLock { shared -> (@Sendable (TransferProgress) -> Void)? in
            guard let state = shared.tasks[ObjectIdentifier(task)] else { return nil }
            state.touch()
            state.bodyBytesSent = totalBytesSent
            state.bodyBytesExpected = totalBytesExpectedToSend
            return state.progress
        }
        progress?(
            TransferProgress(
                direction: .upload,
                completedBytes: totalBytesSent,
                totalBytes: totalBytesExpectedToSend >= 0 ? totalBytesExpectedToSend : nil
            )
        )
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (state, retired) = shared.withLock { shared in
            (
                shared.tasks.removeValue(forKey: ObjectIdentifier(task)),
                shared.retired.removeValue(forKey: ObjectIdentifier(task))
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
        let response = state.response ?? (state.task?.response as? HTTPURLResponse).map(ResponseHead.init)
        if let failure = state.failure {
            state.completion(TaskOutcome(error: failure))
        } else if let error {
            let url = state.task?.originalRequest?.url
            state.completion(TaskOutcome(error: Self.failure(for: error, afterHead: state.response != nil, url: url)))
        } else if let response {
            state.completion(TaskOutcome(response: response, data: state.data))
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
