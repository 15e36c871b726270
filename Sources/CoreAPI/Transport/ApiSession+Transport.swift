import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The network end of a call: one `URLSessionTask` per hop, started, awaited and cancelled.
extension ApiSession {
    /// The end of the chain: validates the headers middlewares left, then sends the request.
    func send(
        _ request: URLRequest,
        bodyFile: EncodedRequest.BodyFile?,
        options: TaskOptions,
        call: CallHandle
    ) async throws -> RawResponse {
        try Headers(request.allHTTPHeaderFields ?? [:]).validate()
        if Task.isCancelled || call.isCancelled {
            throw ApiError.cancelled
        }
        if options.deadline != .max, DispatchTime.now().uptimeNanoseconds >= options.deadline {
            throw ApiError.timeout
        }
        var options = options
        options.originURL = request.url
        var current = request
        var currentBody = bodyFile
        while true {
            options.request = current
            let exchange = await exchange(current, bodyFile: currentBody, options: options, call: call)
            if let redirect = exchange.redirect {
                // Follow the hop with a new task; the body goes along only for 307 and 308.
                if Task.isCancelled || call.isCancelled {
                    throw ApiError.cancelled
                }
                current = redirect.request
                currentBody = redirect.keepsBody ? currentBody : nil
                options.redirectCount = redirect.count
                options.leftOrigin = redirect.leftOrigin
                continue
            }
            if let error = exchange.error {
                throw ApiError(error)
            }
            guard let response = exchange.response else {
                throw ApiError.transport(.init(kind: .badResponse))
            }
            return RawResponse(response: response, data: exchange.data ?? Data())
        }
    }

    /// One task: starts it and waits for its end, cancelling it when the calling task or the call is
    /// cancelled.
    func exchange(
        _ request: URLRequest,
        bodyFile: EncodedRequest.BodyFile?,
        options: TaskOptions,
        call: CallHandle
    ) async -> Exchange {
        let holder = HandleHolder(delegate: delegate, queue: taskQueue)
        call.attachExchange(holder)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let begin: @Sendable () -> Void = { [self] in
                    if holder.isCancelled {
                        // Cancelled while waiting its turn: no task is made at all.
                        continuation.resume(returning: Exchange(response: nil, data: nil, error: ApiError.cancelled))
                        return
                    }
                    let task = start(request, bodyFile: bodyFile, options: options) {
                        continuation.resume(returning: $0)
                    }
                    if let task {
                        holder.attach(task)
                    } else {
                        continuation.resume(
                            returning: Exchange(
                                response: nil,
                                data: nil,
                                error: ApiError.invalidRequest(.sessionInvalidated)
                            )
                        )
                    }
                }
                if delegate.taskCount < Self.tasksStartedInline {
                    begin()
                } else {
                    taskQueue.async(execute: begin)
                }
            }
        } onCancel: {
            holder.cancel()
        }
    }

    /// Creates, registers and resumes the task, or returns `nil` when the session is invalidated; runs
    /// on the calling thread or on ``taskQueue`` (see ``tasksStartedInline``).
    func start(
        _ request: URLRequest,
        bodyFile: EncodedRequest.BodyFile?,
        options: TaskOptions,
        completion: @escaping @Sendable (Exchange) -> Void
    ) -> URLSessionTask? {
        gate.whileOpen { () -> URLSessionTask in
            let task: URLSessionTask
            if let bodyFile {
                task = urlSession.uploadTask(with: request, fromFile: bodyFile.url)
            } else {
                task = urlSession.dataTask(with: request)
            }
            delegate.register(task, options: options, completion: completion)
            task.resume()
            return task
        }
    }
}
