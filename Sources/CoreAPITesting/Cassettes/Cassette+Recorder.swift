public import CoreAPI
public import Foundation

extension Cassette {
    /// A ``/CoreAPI/Transport`` that sends every request through another one and records each exchange, as
    /// the session's transport sees it, in an ``Cassette/Archive``.
    ///
    /// It sits where the engine would, under the session's middlewares and redirect rules, so each attempt of
    /// a retried call and each hop of a redirect is an entry of its own, with the header fields in order and
    /// the bodies as they were sent and received. Each entry is redacted by its ``redaction`` as soon as
    /// the exchange ends: no secret the redaction knows is ever held, let alone written. A body read as it
    /// arrives (a download, a stream of events) still reaches the caller piece by piece; the entry keeps the
    /// sizes of the pieces, and a ``Cassette/Player`` hands the body on in pieces of those sizes.
    ///
    /// An exchange that fails without a response (a timeout, a lost connection) is not recorded.
    ///
    /// ```swift
    /// let recorder = Cassette.Recorder(
    ///     wrapping: URLSessionTransport(),
    ///     redaction: Cassette.Redaction(secrets: policy.secrets),
    ///     settings: Cassette.Recorder.Settings(fixedDate: Date(timeIntervalSince1970: 0))
    /// )
    /// let session = ApiSession(hostProvider: hosts, transport: recorder, policy: policy)
    /// _ = try await session.perform(GetUser(id: 42))
    /// try recorder.archive.write(to: cassetteURL)
    /// ```
    public final class Recorder: Transport {
        /// How a recording is written.
        public struct Settings: Sendable, Hashable {
            /// The longest body kept, in bytes; a longer one is kept as its SHA-256 and its length. 1 MiB by
            /// default.
            public var bodyLimit: Int
            /// When set, every entry begins at this date and its timings are zero, so that a new recording of
            /// the same exchanges is the same file; `nil` keeps the real times.
            public var fixedDate: Date?

            /// Creates settings.
            /// - Parameters:
            ///   - bodyLimit: The longest body kept whole, in bytes.
            ///   - fixedDate: The date every entry begins at, or `nil` for the real times.
            public init(bodyLimit: Int = 1 << 20, fixedDate: Date? = nil) {
                self.bodyLimit = bodyLimit
                self.fixedDate = fixedDate
            }
        }

        /// The transport that sends the requests.
        public let transport: any Transport
        /// What is hidden before an exchange is kept.
        public let redaction: Cassette.Redaction
        /// How entries are written.
        public let settings: Settings
        /// The exchanges so far with the number of the send that made each, in the order they ended.
        private let recorded = LockedValue<[(sequence: Int, entry: Cassette.Archive.Entry)]>([])
        private let sequence = LockedValue(0)

        /// Creates a recorder.
        /// - Parameters:
        ///   - transport: The transport that sends the requests, such as ``/CoreAPI/URLSessionTransport``.
        ///   - redaction: What to hide; the built-in and default secrets when left out. Pass the session's
        ///     ``/CoreAPI/SessionPolicy/secrets`` so that what the session keeps secret stays out of the file.
        ///   - settings: The body limit and the timestamps.
        public init(
            wrapping transport: any Transport,
            redaction: Cassette.Redaction = Cassette.Redaction(),
            settings: Settings = Settings()
        ) {
            self.transport = transport
            self.redaction = redaction
            self.settings = settings
        }

        /// The exchanges recorded so far, redacted, in the order they began.
        public var archive: Cassette.Archive {
            let entries = recorded.current.sorted { $0.sequence < $1.sequence }.map(\.entry)
            return Cassette.Archive(entries: entries)
        }

        /// Sends `request` through ``transport`` and records the exchange.
        /// - Parameters:
        ///   - request: The request as the session built it.
        ///   - options: The exchange's limits and handlers; a body handler still gets every piece, in order.
        /// - Returns: The wrapped transport's response.
        /// - Throws: What the wrapped transport throws.
        public func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
            let number = sequence.withLock { value -> Int in
                defer { value += 1 }
                return value
            }
            let started = Date()
            var sent = request
            let streamedRequestBody = LockedValue(Data())
            if let stream = request.body.stream {
                sent.body = .stream(Self.tee(stream, into: streamedRequestBody))
            }
            var options = options
            let streamed = LockedValue<(accepted: Bool, body: Data, sizes: [Int])>((false, Data(), []))
            if var handler = options.bodyHandler {
                let (accepts, receive) = (handler.accepts, handler.receive)
                handler.accepts = { head in
                    let accepted = try accepts(head)
                    streamed.withLock { $0.accepted = accepted }
                    return accepted
                }
                handler.receive = { piece in
                    streamed.withLock {
                        $0.body.append(piece)
                        $0.sizes.append(piece.count)
                    }
                    try receive(piece)
                }
                options.bodyHandler = handler
            }

            let response = try await transport.send(sent, options: options)

            let requestBody: Data? =
                switch request.body {
                case .none: nil
                case .data(let data): data
                case .file(let file): try? Data(contentsOf: file.url)
                case .stream: streamedRequestBody.current
                }
            let body = streamed.current
            let entry = makeEntry(
                request: request,
                requestBody: requestBody,
                response: response,
                streamed: body.accepted ? (body.body, body.sizes) : nil,
                started: started
            )
            recorded.withLock { $0.append((number, entry)) }
            return response
        }

        /// Opens the connection through ``transport``; WebSocket traffic is not recorded.
        /// - Parameters:
        ///   - request: The opening handshake's request.
        ///   - options: The connection's limits.
        /// - Returns: What the wrapped transport returns.
        /// - Throws: What the wrapped transport throws.
        public func openWebSocket(_ request: ApiRequest, options: WebSocket.Options) async throws -> WebSocket.Upgrade {
            try await transport.openWebSocket(request, options: options)
        }

        private func makeEntry(
            request: ApiRequest,
            requestBody: Data?,
            response: RawResponse,
            streamed: (body: Data, sizes: [Int])?,
            started: Date
        ) -> Cassette.Archive.Entry {
            let timings =
                settings.fixedDate == nil ? Cassette.Archive.Timings(response.phases) : Cassette.Archive.Timings()
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let entry = Cassette.Archive.Entry(
                startedDateTime: formatter.string(from: settings.fixedDate ?? started),
                time: timings.total,
                request: Cassette.Archive.request(request, body: requestBody, bodyLimit: settings.bodyLimit),
                response: Cassette.Archive.response(
                    response.head,
                    body: streamed?.body ?? response.data,
                    chunkSizes: streamed?.sizes,
                    bodyLimit: settings.bodyLimit
                ),
                timings: timings
            )
            return redaction.redact(entry)
        }

        /// A stream that reads `stream` afresh each time and keeps what the latest iteration read in `sink`.
        private static func tee(_ stream: ApiRequest.Stream, into sink: LockedValue<Data>) -> ApiRequest.Stream {
            ApiRequest.Stream(length: stream.length) {
                sink.withLock { $0 = Data() }
                return TeeChunks(base: stream, sink: sink)
            }
        }

        /// The chunks of a stream, each also appended to a sink.
        private struct TeeChunks: AsyncSequence, Sendable {
            typealias Element = Data
            let base: ApiRequest.Stream
            let sink: LockedValue<Data>

            func makeAsyncIterator() -> Iterator {
                Iterator(base: base.makeAsyncIterator(), sink: sink)
            }

            struct Iterator: AsyncIteratorProtocol {
                var base: ApiRequest.Stream.AsyncIterator
                let sink: LockedValue<Data>

                mutating func next() async throws -> Data? {
                    guard let chunk = try await base.next() else { return nil }
                    sink.withLock { $0.append(chunk) }
                    return chunk
                }
            }
        }
    }
}
