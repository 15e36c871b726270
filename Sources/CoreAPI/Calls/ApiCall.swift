/// A call already started: its progress as an `AsyncSequence`, its result, and a way to cancel it.
///
/// ```swift
/// let upload = session.start(UploadPhoto(file: file))
/// Task {
///     for await step in upload.progress {
///         bar.value = step.fractionCompleted ?? 0
///     }
/// }
/// let receipt = try await upload.value
/// ```
public struct ApiCall<Method: ApiMethod>: Sendable {
    /// Upload progress while the body is sent, then download progress while the response arrives, in
    /// order; it ends when the call ends. While the consumer is busy only the newest 100 are kept.
    public let progress: AsyncStream<TransferProgress>
    private let task: Task<Method.Output, any Error>

    init(session: ApiSession, method: Method) {
        let (progress, continuation) = AsyncStream<TransferProgress>.makeStream(
            bufferingPolicy: .bufferingNewest(100)
        )
        self.progress = progress
        task = Task {
            defer { continuation.finish() }
            return try await session.perform(method) { continuation.yield($0) }
        }
    }

    /// The call's result; cancelling the task that waits for it cancels the call.
    /// - Throws: What ``ApiSession/perform(_:options:progress:)`` throws.
    public var value: Method.Output {
        get async throws {
            try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        }
    }

    /// Cancels the call: it ends with ``ApiError/cancelled`` and its progress ends.
    public func cancel() {
        task.cancel()
    }
}

extension ApiSession {
    /// Starts `method` at once and returns it as a call whose progress and result can be awaited apart.
    public func start<M: ApiMethod>(_ method: M) -> ApiCall<M> {
        ApiCall(session: self, method: method)
    }
}
