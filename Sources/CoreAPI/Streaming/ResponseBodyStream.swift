public import Foundation

/// The body of a ``StreamedResponse``: its bytes in pieces, each as it arrives.
///
/// Iterate it once. Leaving the loop early, or dropping the stream, cancels the exchange. The sequence
/// ends when the body has ended, and throws the ``ApiError`` the exchange ended with otherwise: a
/// connection lost midway (``ApiError/TransportFailure/Kind/connectionLost``), the idle timeout
/// (``ApiError/timeout``), the size limit (``ApiError/responseTooLarge(limit:)``) or a cancel.
///
/// Pieces that arrive faster than the loop consumes them wait in memory: the engines under CoreAPI
/// deliver a body without waiting for its reader.
public struct ResponseBodyStream: AsyncSequence, Sendable {
    /// A piece of the body.
    public typealias Element = Data

    private let pieces: AsyncThrowingStream<Data, any Error>
    /// Ends the exchange when the reader leaves early.
    private let end: @Sendable () -> Void

    /// Wraps a stream of pieces; `end` stops the exchange that fills it.
    init(_ pieces: AsyncThrowingStream<Data, any Error>, end: @escaping @Sendable () -> Void) {
        self.pieces = pieces
        self.end = end
    }

    /// A body of `pieces` in memory, one after another; for tests.
    public init(pieces: [Data]) {
        self.pieces = AsyncThrowingStream { continuation in
            for piece in pieces {
                continuation.yield(piece)
            }
            continuation.finish()
        }
        end = {}
    }

    /// Reads the pieces in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Data, any Error>.AsyncIterator
        let lifetime: ReaderLifetime

        /// The next piece, or `nil` at the end of the body.
        /// - Throws: ``ApiError`` when the exchange failed before the body ended.
        public mutating func next() async throws -> Data? {
            do {
                return try await base.next()
            } catch {
                throw ApiError(error)
            }
        }
    }

    /// Starts reading.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: pieces.makeAsyncIterator(), lifetime: ReaderLifetime(end: end))
    }

    /// The whole body, collected; at most `limit` bytes, more fails with
    /// ``ApiError/responseTooLarge(limit:)``.
    public func collect(upTo limit: Int) async throws -> Data {
        var data = Data()
        for try await piece in self {
            guard data.count + piece.count <= limit else {
                throw ApiError.responseTooLarge(limit: Int64(limit))
            }
            data.append(piece)
        }
        return data
    }
}
