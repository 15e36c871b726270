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
        /// Nothing: the response of an attempt goes to its `TrackedExchange`, which the transport reads once
        /// the task succeeded. AsyncHTTPClient's futures and results are generic and copy a value through
        /// its value witnesses, field by field; a box for them would be one more allocation per attempt.
        typealias Response = Void

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

        func didSendRequest(task: HTTPClient.Task<Void>) {
            exchange.sentRequest()
        }

        func didVisitURL(task: HTTPClient.Task<Void>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
            state.withValue { state in
                state.visits += 1
                if state.visits == 1 {
                    state.firstStatus = Int(head.status.code)
                } else if state.redirect == nil {
                    // The client followed a redirect, which only the session may do.
                    state.redirect = .redirect(
                        .init(reason: .tooManyRedirects(limit: 0), statusCode: state.firstStatus, target: request.url)
                    )
                }
            }
        }

        func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            exchange.receivedHead()
            connections?.stopWaiting(exchange)
            let failure = state.withValue { state -> (any Error)? in
                if let redirect = state.redirect {
                    return redirect
                }
                do {
                    let disposition = try state.collector.receive(Self.head(of: head, url: url))
                    if state.collector.hasBody {
                        state.decoder = ContentDecoder(contentEncoding: state.collector.contentEncoding)
                    }
                    if case .stream(let handler) = disposition {
                        state.handler = handler
                    }
                    return nil
                } catch {
                    return error
                }
            }
            if let failure {
                return loop.makeFailedFuture(failure)
            }
            exchange.received(0, of: nil)
            return loop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            exchange.touch()
            let step = state.withValue { state -> Result<TransferProgress, any Error> in
                do {
                    if state.handler != nil {
                        try Self.decode(buffer, with: state.decoder) { state.pending.append(Data($0)) }
                        return .success(state.collector.progress)
                    }
                    var complete = false
                    try Self.decode(buffer, with: state.decoder) { piece in
                        if !complete, try state.collector.append(piece) == .complete { complete = true }
                    }
                    if complete {
                        return .failure(Kept(response: try state.collector.finish()))
                    }
                    return .success(state.collector.progress)
                } catch {
                    return .failure(error)
                }
            }
            switch step {
            case .failure(let error):
                return loop.makeFailedFuture(error)
            case .success(let progress):
                if let handler = state.value.handler {
                    return handOn(to: handler)
                }
                exchange.received(progress)
                return loop.makeSucceededVoidFuture()
            }
        }

        func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
            state.value.waiter?.cancel()
        }

        func didFinishRequest(task: HTTPClient.Task<Void>) throws {
            let response = try state.withValue { state in
                try state.decoder?.finish()
                return try state.collector.finish()
            }
            exchange.deliver(response)
        }

        /// Passes the bytes of `buffer`, decoded by `decoder` when there is one, to `emit`.
        private static func decode(
            _ buffer: ByteBuffer,
            with decoder: ContentDecoder?,
            into emit: (UnsafeRawBufferPointer) throws -> Void
        ) throws {
            try buffer.withUnsafeReadableBytes { bytes in
                if let decoder {
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
                state.withValue { state in
                    state.pending.removeFirst()
                    state.collector.streamed(piece.count)
                }
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
        /// order, repeated names as separate fields (`Set-Cookie` among them), copied into `Headers` only
        /// when they are read.
        static func head(of head: HTTPResponseHead, url: URL) -> ResponseHead {
            ResponseHead(
                status: HTTPStatus(Int(head.status.code)),
                fieldSource: NIOFieldSource(fields: head.headers),
                url: url
            )
        }
    }
#endif
