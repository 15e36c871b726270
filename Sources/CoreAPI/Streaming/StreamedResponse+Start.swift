import Foundation

extension StreamedResponse {
    /// What a streamed call's exchange hands its response to: the reader's buffer, the head's promise and
    /// the stream of body pieces.
    struct Handover: Sendable {
        let buffer: StreamBuffer
        let head: Promise<ResponseHead>
        let pieces: AsyncThrowingStream<Data, any Error>.Continuation
    }

    /// Runs `exchange` in a task of its own and returns the response as soon as `exchange` resolves the
    /// head: the one place a streamed call's reader and its exchange are tied together.
    ///
    /// The body's pieces end when `exchange` returns, or with its error when it throws (which also fails a
    /// head not resolved yet). Ending the reader early, or cancelling the caller while it waits for the head,
    /// cancels the exchange's task.
    static func start(
        bufferLimit: Int,
        _ exchange: @escaping @Sendable (Handover) async throws -> Void
    ) async throws -> StreamedResponse {
        let (pieces, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let handover = Handover(buffer: StreamBuffer(limit: bufferLimit), head: Promise(), pieces: continuation)
        let task = Task {
            do {
                try await exchange(handover)
                continuation.finish()
            } catch {
                handover.head.resolve(.failure(error))
                continuation.finish(throwing: error)
            }
            handover.buffer.close()
        }
        continuation.onTermination = { _ in
            task.cancel()
            handover.buffer.close()
        }
        let head = try await withTaskCancellationHandler {
            try await handover.head.value
        } onCancel: {
            task.cancel()
        }
        return StreamedResponse(
            head: head,
            body: StreamedResponse.Body(pieces, buffer: handover.buffer, end: { task.cancel() })
        )
    }
}
