#if AsyncHTTPClient
    import AsyncHTTPClient
    import CoreAPI
    import Foundation
    import NIOCore
    import NIOHTTP1

    /// AsyncHTTPClient's delegate for one attempt of an exchange: a thin shell around `ResponseCollector`,
    /// which holds the rules. AsyncHTTPClient calls it on one event loop, where all its state lives; the
    /// body is decoded as it arrives.
    ///
    /// The transport awaits the attempt's `HTTPClient.Task` in the calling task and cancels it when the
    /// exchange's control ends, so no task of its own is needed; only a body handler whose reader has no
    /// room makes one, to wait for the reader.
    final class ExchangeDelegate: HTTPClientResponseDelegate {
        typealias Response = RawResponse

        /// Ends the attempt early with all that is kept of its response (a redirect's first bytes): the
        /// rest of the body is not read, and AsyncHTTPClient closes the connection.
        struct Kept: Error {
            let response: RawResponse
        }

        private struct State {
            var collector: ResponseCollector
            var decoder: ContentDecoder?
            /// The handler the body goes to, when the collector said so.
            var handler: TransportOptions.BodyHandler?
            /// Decoded pieces of a streamed body not handed to the handler yet.
            var pending: [Data] = []
            /// The task waiting for the reader of a streamed body to make room, while one waits.
            var waiter: Task<Void, Never>?
            /// How many response heads arrived (more than one: the client followed a redirect).
            var visits = 0
            /// The status of the first response head.
            var firstStatus = 0
            /// The failure of a response reached through a redirect the client followed.
            var redirect: ApiError?
        }

        private let url: URL
        private let exchange: TrackedExchange
        private let connections: ConnectionLog?
        private let loop: any EventLoop
        private let state: NIOLoopBoundBox<State>

        /// A delegate for a request to `url` with `method`, called on `loop`.
        init(
            url: URL,
            method: CoreAPI.HTTPMethod,
            options: TransportOptions,
            exchange: TrackedExchange,
            connections: ConnectionLog?,
            loop: any EventLoop
        ) {
            self.url = url
            self.exchange = exchange
            self.connections = connections
            self.loop = loop
            let collector = ResponseCollector(method: method, options: options, decodedCodings: ContentDecoder.codings)
            state = .makeBoxSendingValue(State(collector: collector), eventLoop: loop)
        }

        func didSendRequest(task: HTTPClient.Task<RawResponse>) {
            exchange.sentRequest()
        }

        func didVisitURL(task: HTTPClient.Task<RawResponse>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
            state.value.visits += 1
            if state.value.visits == 1 {
                state.value.firstStatus = Int(head.status.code)
            } else if state.value.redirect == nil {
                // The client followed a redirect, which only the session may do.
                state.value.redirect = .redirect(
                    .init(
                        reason: .tooManyRedirects(limit: 0),
                        statusCode: state.value.firstStatus,
                        target: request.url
                    )
                )
            }
        }

        func didReceiveHead(task: HTTPClient.Task<RawResponse>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            exchange.receivedHead()
            connections?.stopWaiting(exchange)
            if let redirect = state.value.redirect {
                return loop.makeFailedFuture(redirect)
            }
            do {
                let disposition = try state.value.collector.receive(Self.head(of: head, url: url))
                if state.value.collector.hasBody {
                    state.value.decoder = ContentDecoder(contentEncoding: state.value.collector.contentEncoding)
                }
                if case .stream(let handler) = disposition {
                    state.value.handler = handler
                }
            } catch {
                return loop.makeFailedFuture(error)
            }
            exchange.received(0, of: nil)
            return loop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<RawResponse>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            exchange.touch()
            do {
                if let handler = state.value.handler {
                    try decode(buffer) { state.value.pending.append(Data($0)) }
                    return handOn(to: handler)
                }
                var complete = false
                try decode(buffer) { piece in
                    if !complete, try state.value.collector.append(piece) == .complete { complete = true }
                }
                if complete {
                    return loop.makeFailedFuture(Kept(response: try state.value.collector.finish()))
                }
            } catch {
                return loop.makeFailedFuture(error)
            }
            exchange.received(state.value.collector.progress)
            return loop.makeSucceededVoidFuture()
        }

        func didReceiveError(task: HTTPClient.Task<RawResponse>, _ error: any Error) {
            state.value.waiter?.cancel()
        }

        func didFinishRequest(task: HTTPClient.Task<RawResponse>) throws -> RawResponse {
            try state.value.decoder?.finish()
            return try state.value.collector.finish()
        }

        /// Passes the bytes of `buffer`, decoded, to `emit`.
        private func decode(_ buffer: ByteBuffer, into emit: (UnsafeRawBufferPointer) throws -> Void) throws {
            try buffer.withUnsafeReadableBytes { bytes in
                if let decoder = state.value.decoder {
                    try decoder.decode(bytes, into: emit)
                } else {
                    try emit(bytes)
                }
            }
        }

        /// Hands the pending pieces to `handler` in order, each once its reader has room for it. Until the
        /// returned future completes AsyncHTTPClient reads nothing more from the connection, and TCP's flow
        /// control holds the server: a slow reader slows the transfer instead of growing memory.
        private func handOn(to handler: TransportOptions.BodyHandler) -> EventLoopFuture<Void> {
            while let piece = state.value.pending.first {
                if !handler.hasRoom(for: piece.count) {
                    return waitForRoom(for: piece.count, in: handler).flatMap { self.handOn(to: handler) }
                }
                state.value.pending.removeFirst()
                state.value.collector.streamed(piece.count)
                do {
                    try handler.receive(piece)
                } catch {
                    return loop.makeFailedFuture(ApiError(error))
                }
            }
            exchange.received(state.value.collector.progress)
            return loop.makeSucceededVoidFuture()
        }

        /// A future that succeeds once `handler`'s reader has room for `count` bytes, and fails when the
        /// reader left or the attempt failed first. The wait does not count as idle time.
        private func waitForRoom(for count: Int, in handler: TransportOptions.BodyHandler) -> EventLoopFuture<Void> {
            let promise = loop.makePromise(of: Void.self)
            let exchange = exchange
            state.value.waiter = Task {
                do {
                    try await exchange.waitingForReader { try await handler.waitForRoom(for: count) }
                    promise.succeed()
                } catch {
                    promise.fail(error)
                }
            }
            return promise.futureResult
        }

        /// CoreAPI's head for `head`: its status and its header fields as AsyncHTTPClient keeps them, in
        /// order, repeated names as separate fields (`Set-Cookie` among them).
        static func head(of head: HTTPResponseHead, url: URL) -> ResponseHead {
            var fields: [Headers.Field] = []
            fields.reserveCapacity(head.headers.count)
            for (name, value) in head.headers {
                fields.append(Headers.Field(name: name, value: value))
            }
            return ResponseHead(status: HTTPStatus(Int(head.status.code)), headers: Headers(fields), url: url)
        }
    }
#endif
