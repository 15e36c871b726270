import Foundation

extension TransportOptions.BodyHandler {
    /// The handler that hands a body the caller reads as it arrives to `continuation`, through `buffer`:
    /// it takes the body of a response whose head `accepts` passes, resolves `head` with that head, and holds
    /// the body to `limit` bytes — at once when the head declares more, else as the pieces arrive.
    /// - Parameters:
    ///   - limit: The most body bytes taken.
    ///   - buffer: The buffer the pieces wait in for their reader.
    ///   - head: Resolved with the head of the body taken.
    ///   - continuation: Where the pieces go.
    ///   - accepts: Whether the body of a response with this head is read as it arrives.
    static func streaming(
        limit: Int64,
        buffer: StreamBuffer,
        head: Promise<ResponseHead>,
        into continuation: AsyncThrowingStream<Data, any Error>.Continuation,
        accepts: @escaping @Sendable (ResponseHead) -> Bool
    ) -> TransportOptions.BodyHandler {
        let received = LockedValue<Int64>(0)
        var handler = TransportOptions.BodyHandler(
            accepts: { response in
                guard accepts(response) else { return false }
                if HeadChecks(response).declaresMore(than: limit) {
                    throw ApiError.responseTooLarge(limit: limit)
                }
                head.resolve(.success(response))
                return true
            },
            receive: { piece in
                let total = received.withLock { total in
                    total += Int64(piece.count)
                    return total
                }
                guard total <= limit else {
                    throw ApiError.responseTooLarge(limit: limit)
                }
                buffer.add(piece.count)  // before the reader can take it and count it out
                continuation.yield(piece)
            }
        )
        handler.buffer = buffer
        return handler
    }
}
