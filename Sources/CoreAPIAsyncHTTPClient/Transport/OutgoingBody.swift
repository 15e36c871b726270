#if AsyncHTTPClient
    import AsyncHTTPClient
    import CoreAPI
    import Foundation
    import NIOCore

    /// A request body as AsyncHTTPClient writes it: from memory or streamed from a file, in chunks of
    /// `chunkSize` bytes, or from a streamed body (`ApiRequest.Stream`) chunk by chunk as its sequence
    /// produces them; each chunk is noted as activity and reported as upload progress.
    ///
    /// A body of one chunk in memory is written at once. Any other is pumped by a task of its own (a file
    /// is not read on an event loop), which waits for each write to be accepted, so memory stays flat
    /// whatever its size: a file is opened when the body is made and read one chunk at a time. Once
    /// `close()` has returned nothing more is read and the pump is cancelled: the session may then remove
    /// the file.
    final class OutgoingBody: Sendable {
        /// The most bytes read and handed over at once.
        static let chunkSize = 64 * 1024

        /// How many bytes are handed over between two waits for the event loops.
        ///
        /// AsyncHTTPClient accepts the next chunk as soon as it has passed the last one to the
        /// connection's event loop, and learns only later, from that loop, that the socket is full: a
        /// fast reader gets far ahead of the socket, and the chunks wait in the loop's queue (through
        /// AsyncHTTPClient's `async` API, a large upload over loopback held many chunks at its peak). A
        /// task submitted to every loop of the group runs after the writes queued before it, so waiting
        /// for it bounds what is queued to about this many bytes.
        static let barrierInterval = 1024 * 1024

        /// The body as the pump iterates it.
        struct Chunks: AsyncSequence, Sendable {
            typealias Element = ByteBuffer

            let body: OutgoingBody

            /// Hands out the next chunk, first waiting for the event loops once `barrierInterval`
            /// bytes were handed out since the last wait.
            struct AsyncIterator: AsyncIteratorProtocol {
                let body: OutgoingBody
                private var sinceBarrier = 0
                /// A fresh iteration of the streamed body, when the body is one.
                private var stream: ApiRequest.Stream.AsyncIterator?

                init(body: OutgoingBody) {
                    self.body = body
                    stream = body.stream?.makeAsyncIterator()
                }

                mutating func next() async throws -> ByteBuffer? {
                    if sinceBarrier >= OutgoingBody.barrierInterval {
                        sinceBarrier = 0
                        try await body.waitForEventLoops()
                    }
                    let chunk: ByteBuffer?
                    if var iterator = stream {
                        let data = try await iterator.next()
                        stream = iterator
                        chunk = try body.handOver(data)
                    } else {
                        chunk = try body.next()
                    }
                    sinceBarrier += chunk?.readableBytes ?? 0
                    return chunk
                }
            }

            func makeAsyncIterator() -> AsyncIterator {
                AsyncIterator(body: body)
            }
        }

        private enum Source {
            case memory(Data)
            case file(FileHandle, path: String)
            /// The chunks come from ``OutgoingBody/stream``.
            case stream
        }

        private struct State {
            var source: Source?
            var sent: Int64 = 0
            /// The task writing a body of more than one chunk, once AsyncHTTPClient asked for the body.
            var pump: Task<Void, Never>?
        }

        /// The body length in bytes; `nil` for a stream of unknown length.
        let length: Int64?
        /// Whether the body is in memory and fits in one chunk: written at once, on the event loop.
        private let isOneChunkInMemory: Bool
        /// The streamed body the chunks come from, when the body is one.
        let stream: ApiRequest.Stream?
        private let exchange: TrackedExchange
        /// The client's event loops, one of which writes the body.
        private let eventLoops: any EventLoopGroup
        /// The source, `nil` once closed; reads hold the lock, so `close()` waits for one in progress.
        private let state: LockedValue<State>

        /// The body of `request`, or `nil` when it has none.
        /// - Throws: `unreadableFile(path:)` when the body file cannot be
        ///   opened.
        static func make(
            for request: ApiRequest,
            exchange: TrackedExchange,
            eventLoops: any EventLoopGroup
        ) throws(ApiError) -> OutgoingBody? {
            if let stream = request.body.stream {
                return OutgoingBody(
                    .stream,
                    length: stream.length,
                    stream: stream,
                    exchange: exchange,
                    eventLoops: eventLoops
                )
            }
            if let file = request.body.file {
                guard let handle = try? FileHandle(forReadingFrom: file.url) else {
                    throw ApiError.invalidRequest(.unreadableFile(path: file.url.path))
                }
                return OutgoingBody(
                    .file(handle, path: file.url.path),
                    length: file.length,
                    exchange: exchange,
                    eventLoops: eventLoops
                )
            }
            guard let data = request.body.data, !data.isEmpty else { return nil }
            return OutgoingBody(.memory(data), length: Int64(data.count), exchange: exchange, eventLoops: eventLoops)
        }

        private init(
            _ source: Source,
            length: Int64?,
            stream: ApiRequest.Stream? = nil,
            exchange: TrackedExchange,
            eventLoops: any EventLoopGroup
        ) {
            self.length = length
            if case .memory = source, let length, length <= Self.chunkSize {
                isOneChunkInMemory = true
            } else {
                isOneChunkInMemory = false
            }
            self.stream = stream
            self.exchange = exchange
            self.eventLoops = eventLoops
            state = LockedValue(State(source: source))
        }

        deinit {
            close()
        }

        /// Whether any byte of the body was handed to the client.
        var hasHandedOverBytes: Bool {
            state.withLock { $0.sent > 0 }
        }

        /// The body as an async sequence of chunks.
        var chunks: Chunks { Chunks(body: self) }

        /// The body as AsyncHTTPClient asks for it: what it writes with `writer` on `loop`.
        func clientBody(on loop: any EventLoop) -> HTTPClient.Body {
            .stream(contentLength: length) { writer in
                if self.isOneChunkInMemory {
                    do {
                        guard let chunk = try self.next() else { return loop.makeSucceededVoidFuture() }
                        return writer.write(.byteBuffer(chunk))
                    } catch {
                        return loop.makeFailedFuture(error)
                    }
                }
                return self.pump(to: writer, on: loop)
            }
        }

        /// Writes the chunks with `writer`, each once the one before was accepted, from a task of its own
        /// (a file is not read on an event loop, and a streamed body is produced by async code).
        private func pump(to writer: HTTPClient.Body.StreamWriter, on loop: any EventLoop) -> EventLoopFuture<Void> {
            let promise = loop.makePromise(of: Void.self)
            let chunks = chunks
            let pump = Task {
                do {
                    for try await chunk in chunks {
                        try await writer.write(.byteBuffer(chunk)).get()
                    }
                    promise.succeed()
                } catch {
                    promise.fail(error)
                }
            }
            let closed = state.withLock { state in
                state.pump = pump
                return state.source == nil
            }
            if closed {
                pump.cancel()
            }
            return promise.futureResult
        }

        /// Stops reading: later requests for a chunk fail, a file is closed, and the pump is cancelled.
        func close() {
            let (source, pump) = state.withLock { ($0.source.take(), $0.pump.take()) }
            pump?.cancel()
            if case .file(let handle, _) = source {
                try? handle.close()
            }
        }

        /// Returns once every event loop of the client has run the tasks queued on it before.
        private func waitForEventLoops() async throws {
            for loop in eventLoops.makeIterator() {
                try await loop.submit {}.get()
            }
        }

        /// `chunk` of the streamed body as a buffer, counted as sent; `nil` after the last one.
        /// - Throws: `CancellationError` once closed.
        private func handOver(_ chunk: Data?) throws -> ByteBuffer? {
            guard let chunk else { return nil }
            let sent = try state.withLock { state throws -> Int64 in
                guard state.source != nil else { throw CancellationError() }
                state.sent += Int64(chunk.count)
                return state.sent
            }
            exchange.sent(sent, of: length)
            return ByteBuffer(bytes: chunk)
        }

        /// The next chunk, or `nil` after the last one.
        /// - Throws: `CancellationError` once closed; `unreadableFile(path:)`
        ///   when the file cannot be read or is shorter than the body length.
        private func next() throws -> ByteBuffer? {
            let (chunk, sent) = try state.withLock { state throws -> (ByteBuffer?, Int64) in
                guard let source = state.source else { throw CancellationError() }
                let count = Int(min(Int64(Self.chunkSize), (length ?? 0) - state.sent))
                guard count > 0 else { return (nil, state.sent) }
                let chunk: ByteBuffer
                switch source {
                case .memory(let data):
                    let start = data.startIndex + Int(state.sent)
                    chunk = ByteBuffer(bytes: data[start..<start + count])
                case .stream:
                    return (nil, state.sent)  // read by `handOver(_:)`
                case .file(let handle, let path):
                    guard let data = try? handle.read(upToCount: count), !data.isEmpty else {
                        throw ApiError.invalidRequest(.unreadableFile(path: path))
                    }
                    chunk = ByteBuffer(bytes: data)
                }
                state.sent += Int64(chunk.readableBytes)
                return (chunk, state.sent)
            }
            if chunk != nil {
                exchange.sent(sent, of: length)
            }
            return chunk
        }
    }
#endif
