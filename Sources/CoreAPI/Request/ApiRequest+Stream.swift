public import Foundation

extension ApiRequest {
    /// A request body whose bytes come from an async sequence of chunks, made afresh for every send.
    ///
    /// A request may be sent more than once — again after a `307` or `308` redirect, by a retry, after a
    /// token refresh — so a stream holds a factory, not a sequence: each iteration calls it and reads a
    /// new sequence from its start. Iterating a stream checks what the factory's sequence produces:
    ///
    /// - When ``length`` is known, the sequence must produce exactly that many bytes: a byte more, or an
    ///   end before it, throws ``ApiError/invalidRequest(_:)`` with
    ///   ``ApiError/InvalidRequestReason/bodyLengthMismatch(declared:produced:)``, so nothing is silently
    ///   cut short or padded.
    /// - An error the sequence throws ends the iteration with ``ApiError/invalidRequest(_:)`` and
    ///   ``ApiError/InvalidRequestReason/bodyStreamFailed(_:)``, which keeps the error as its cause
    ///   (an ``ApiError`` or a `CancellationError` is thrown as it is).
    ///
    /// ```swift
    /// let stream = ApiRequest.Stream(length: 11) {
    ///     AsyncStream { continuation in
    ///         continuation.yield(Data("hello ".utf8))
    ///         continuation.yield(Data("world".utf8))
    ///         continuation.finish()
    ///     }
    /// }
    /// var request = ApiRequest(method: .put, url: URL(string: "https://api.example.com/notes/1")!)
    /// request.body = .stream(stream)
    /// ```
    ///
    /// Two streams are equal only when they are the same value — copies of one stream made by one
    /// initialiser call — since their bytes cannot be compared without reading them.
    public struct Stream: AsyncSequence, Sendable, Hashable {
        /// Each element is one chunk of the body.
        public typealias Element = Data

        /// The body length in bytes when it is known in advance; `nil` sends the body without a
        /// `Content-Length` (chunked over HTTP/1.1) where the transport can.
        public let length: Int64?
        /// The factory, in a reference that gives the stream its identity.
        private let source: Source

        /// Creates a stream of the chunks the sequences `makeChunks` makes.
        /// - Parameters:
        ///   - length: The exact number of bytes every sequence produces, when it is known; `nil`
        ///     otherwise.
        ///   - makeChunks: Makes a fresh sequence of the body's chunks, from its first byte; called once
        ///     for each time the body is sent.
        public init<Chunks: AsyncSequence & Sendable>(
            length: Int64? = nil,
            makeChunks: @escaping @Sendable () -> Chunks
        ) where Chunks.Element == Data {
            self.length = length
            self.source = Source {
                let box = IteratorBox(makeChunks().makeAsyncIterator())
                return { try await box.next() }
            }
        }

        /// Starts a new sequence from the factory and iterates it.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(next: source.makeNext(), length: length)
        }

        /// Whether both are the same stream: made by the same initialiser call.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.source === rhs.source
        }

        /// Hashes the stream's identity.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(ObjectIdentifier(source))
        }

        /// Reads a stream's chunks, checking their total against the declared length.
        public struct AsyncIterator: AsyncIteratorProtocol {
            private let nextChunk: () async throws -> Data?
            private let length: Int64?
            private var produced: Int64 = 0
            private var isFinished = false

            init(next: @escaping () async throws -> Data?, length: Int64?) {
                self.nextChunk = next
                self.length = length
            }

            /// The next chunk that is not empty, or `nil` after the last.
            /// - Throws: ``ApiError/invalidRequest(_:)`` with
            ///   ``ApiError/InvalidRequestReason/bodyLengthMismatch(declared:produced:)`` or
            ///   ``ApiError/InvalidRequestReason/bodyStreamFailed(_:)``; an ``ApiError`` or a
            ///   `CancellationError` of the sequence as it is.
            public mutating func next() async throws -> Data? {
                while !isFinished {
                    let chunk: Data?
                    do {
                        chunk = try await nextChunk()
                    } catch let error as ApiError {
                        isFinished = true
                        throw error
                    } catch let error as CancellationError {
                        isFinished = true
                        throw error
                    } catch {
                        isFinished = true
                        throw ApiError.invalidRequest(.bodyStreamFailed(.init(error)))
                    }
                    guard let chunk else {
                        isFinished = true
                        if let length, produced != length {
                            throw ApiError.invalidRequest(.bodyLengthMismatch(declared: length, produced: produced))
                        }
                        return nil
                    }
                    guard !chunk.isEmpty else { continue }
                    produced += Int64(chunk.count)
                    if let length, produced > length {
                        isFinished = true
                        throw ApiError.invalidRequest(.bodyLengthMismatch(declared: length, produced: produced))
                    }
                    return chunk
                }
                return nil
            }
        }

        /// The factory of iterations, erased to the next-chunk function of each.
        private final class Source: Sendable {
            let makeNext: @Sendable () -> () async throws -> Data?

            init(_ makeNext: @escaping @Sendable () -> () async throws -> Data?) {
                self.makeNext = makeNext
            }
        }

        /// One sequence's iterator, advanced by the one iteration that owns it.
        private final class IteratorBox<Base: AsyncIteratorProtocol> where Base.Element == Data {
            private var base: Base

            init(_ base: Base) {
                self.base = base
            }

            func next() async throws -> Data? {
                var iterator = base
                defer { base = iterator }
                return try await iterator.next()
            }
        }
    }
}
