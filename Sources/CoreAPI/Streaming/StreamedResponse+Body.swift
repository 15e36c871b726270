public import Foundation

extension StreamedResponse {
    /// The body of a ``StreamedResponse``: its bytes in pieces, each as it arrives.
    ///
    /// Iterate it once. Leaving the loop early, or dropping the stream, cancels the exchange. The sequence
    /// ends when the body has ended, and throws the ``ApiError`` the exchange ended with otherwise: a
    /// connection lost midway (``ApiError/TransportFailure/Kind/connectionLost``), the idle timeout
    /// (``ApiError/timeout``), the size limit (``ApiError/responseTooLarge(limit:)``) or a cancel.
    ///
    /// Pieces that arrive faster than the loop takes them wait in a buffer of at most
    /// ``ApiSession/stream(_:limits:bufferLimit:)``'s `bufferLimit` bytes (``defaultBufferLimit`` unless
    /// given); while it is full, the transfer waits for the reader, or, on a transport that cannot pause
    /// (URLSession on Linux), the stream ends with ``ApiError/streamBufferFull(limit:)``.
    public struct Body: AsyncSequence, Sendable {
        /// A piece of the body.
        public typealias Element = Data

        /// The most bytes of a streamed body that wait for its reader unless the call says otherwise:
        /// 16 MiB.
        ///
        /// Where the transfer can wait for the reader, this is the most a stream holds. Where it cannot
        /// (URLSession on Linux), a reader that keeps pace on average must still absorb the bursts of a fast
        /// network: a reader that only counted the bytes of a body over loopback fell megabytes behind on
        /// a busy machine, so the default leaves room for that, and a stream ends only when its reader is
        /// truly slower than the network.
        public static let defaultBufferLimit = 16 << 20

        private let pieces: AsyncThrowingStream<Data, any Error>
        /// The bytes waiting for the reader, counted; `nil` for a body in memory.
        private let buffer: StreamBuffer?
        /// Ends the exchange when the reader leaves early.
        private let end: @Sendable () -> Void

        /// Wraps a stream of pieces counted in `buffer`; `end` stops the exchange that fills it.
        init(_ pieces: AsyncThrowingStream<Data, any Error>, buffer: StreamBuffer, end: @escaping @Sendable () -> Void)
        {
            self.pieces = pieces
            self.buffer = buffer
            self.end = end
        }

        /// The most bytes that waited for the reader at once so far; `nil` for a body in memory.
        var bufferHighWaterMark: Int? {
            buffer?.highWaterMark
        }

        /// A body of `pieces` in memory, one after another; for tests.
        public init(pieces: [Data]) {
            self.pieces = AsyncThrowingStream { continuation in
                for piece in pieces {
                    continuation.yield(piece)
                }
                continuation.finish()
            }
            buffer = nil
            end = {}
        }

        /// Reads the pieces in order.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<Data, any Error>.AsyncIterator
            let buffer: StreamBuffer?
            let lifetime: ReaderLifetime

            /// The next piece, or `nil` at the end of the body.
            /// - Throws: ``ApiError`` when the exchange failed before the body ended.
            public mutating func next() async throws -> Data? {
                do {
                    let piece = try await base.next()
                    if let piece {
                        buffer?.remove(piece.count)  // room for the transfer to go on
                    }
                    return piece
                } catch {
                    throw ApiError(error)
                }
            }
        }

        /// Starts reading.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: pieces.makeAsyncIterator(), buffer: buffer, lifetime: ReaderLifetime(end: end))
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
}
