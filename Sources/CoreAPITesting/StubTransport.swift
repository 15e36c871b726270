public import CoreAPI
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `Transport` for unit tests: answers from routes or a closure, records every request with its
/// body, and never touches the network or `URLProtocol`.
///
/// It sits where a real engine would, below the middleware chain and the session's redirect rules,
/// so a test exercises everything CoreAPI does with a request — encoding, headers, middlewares,
/// redirects, status validation, parsing — and sees bodies that `URLProtocol` stubs never get on
/// Linux, such as a multipart upload streamed from its temporary file.
///
/// ```swift
/// let transport = StubTransport()
/// transport.on(.get, "/users/42", reply: .json(#"{"id": 42, "name": "Ada"}"#))
/// let session = transport.makeSession(hosts: ["api": "https://api.test"])
/// let user = try await session.perform(GetUser(id: 42))
/// #expect(transport.requests.count == 1)
/// ```
///
/// Like a real transport it honours the `TransportOptions`: a body larger than the maximum response
/// size fails with `ApiError.responseTooLarge(limit:)`, a delay longer than the idle timeout fails
/// with `ApiError.timeout`, and cancelling the call during a delay ends it with
/// `ApiError.cancelled`. A reply's failure arrives as the session reports it from URLSession (see
/// ``/CoreAPI/CannedResponse``).
public final class StubTransport: Transport {
    /// Answers a request; throwing an `ApiError` fails the exchange with it.
    public typealias Handler = @Sendable (StubTransport.RecordedRequest) async throws -> CannedResponse

    private let routes = StubRoutes<Answer>()
    /// The routes of WebSocket opening handshakes (``onWebSocket(_:handler:)``).
    let webSocketRoutes = StubRoutes<WebSocketHandler>()
    /// The reply for requests no route matches: `404` with an empty body by default.
    public let fallback: CannedResponse

    /// Creates a transport with no routes.
    /// - Parameter fallback: The reply for requests no route matches.
    public init(fallback: CannedResponse = .status(404)) {
        self.fallback = fallback
    }

    /// Creates a transport that answers every request with `handler`.
    /// - Parameter handler: Makes the reply for each request.
    public convenience init(handler: @escaping Handler) {
        self.init()
        routes.add(nil, "*", .handler(handler))
    }

    /// Answers `method` requests whose path equals `path`, or starts with it when it ends in `*`. A
    /// later route wins over an earlier one for the same request.
    public func on(_ method: HTTPMethod, _ path: String, reply: CannedResponse) {
        routes.add(method, path, .reply(reply))
    }

    /// Answers requests of any method whose path matches `path`; see ``on(_:_:reply:)``.
    public func on(_ path: String, reply: CannedResponse) {
        routes.add(nil, path, .reply(reply))
    }

    /// Answers matching `method` requests with `handler`; see ``on(_:_:reply:)``.
    public func on(_ method: HTTPMethod, _ path: String, handler: @escaping Handler) {
        routes.add(method, path, .handler(handler))
    }

    /// Answers requests of any method whose path matches `path` with `handler`.
    public func on(_ path: String, handler: @escaping Handler) {
        routes.add(nil, path, .handler(handler))
    }

    /// Every request sent so far, in order, with its body.
    public var requests: [StubTransport.RecordedRequest] {
        routes.requests
    }

    /// Forgets the recorded requests.
    public func clearRequests() {
        routes.clearRequests()
    }

    /// A session over this transport.
    /// - Parameters:
    ///   - hostProvider: Supplies the host for each method's host key.
    ///   - headers: Header fields for every request.
    ///   - middlewares: The chain every request goes through, outermost first.
    ///   - policy: Redirect rules and secret header names.
    ///   - defaults: The settings of every call, under its method's and its own.
    public func makeSession(
        hostProvider: any HostProvider,
        headers: Headers = Headers(),
        middlewares: [any Middleware] = [],
        policy: SessionPolicy = SessionPolicy(),
        defaults: CallOptions = CallOptions()
    ) -> ApiSession {
        ApiSession(
            hostProvider: hostProvider,
            transport: self,
            headers: headers,
            middlewares: middlewares,
            policy: policy,
            defaults: defaults
        )
    }

    /// A session over this transport, with hosts from a dictionary.
    /// - Parameters:
    ///   - hosts: Host keys and their hosts.
    ///   - middlewares: The chain every request goes through, outermost first.
    ///   - defaults: The settings of every call, under its method's and its own.
    public func makeSession(
        hosts: [String: String],
        middlewares: [any Middleware] = [],
        defaults: CallOptions = CallOptions()
    ) -> ApiSession {
        makeSession(hostProvider: DictionaryHostProvider(hosts), middlewares: middlewares, defaults: defaults)
    }

    /// Every byte of a fresh iteration of `stream`, reporting upload progress after each chunk.
    /// - Throws: The stream's `ApiError` (a length mismatch, a failed sequence), or `ApiError.cancelled`.
    private static func collect(
        _ stream: ApiRequest.Stream,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> Data {
        var data = Data()
        do {
            for try await chunk in stream {
                data.append(chunk)
                progress?(
                    TransferProgress(direction: .upload, completedBytes: Int64(data.count), totalBytes: stream.length)
                )
            }
        } catch is CancellationError {
            throw ApiError.cancelled
        }
        return data
    }

    /// What a route answers with: a fixed reply, or a handler that makes one.
    private enum Answer: Sendable {
        case reply(CannedResponse)
        case handler(Handler)
    }

    /// The reply `handler` makes for `request`, in a task of its own that ends when the exchange is ended
    /// — by its control or by the calling task's cancellation — so a handler that waits (for a test's
    /// signal, say) ends when told, as every transport does.
    /// - Throws: The handler's error as an `ApiError`, or the reason the exchange was ended.
    private static func run(
        _ handler: @escaping Handler,
        for request: StubTransport.RecordedRequest,
        options: TransportOptions
    ) async throws -> CannedResponse {
        let control = ExchangeControl.for(options)
        defer {
            if options.control == nil { control.finish() }
        }
        let outcome = Promise<CannedResponse>()
        let work = Task {
            do {
                outcome.resolve(.success(try await handler(request)))
            } catch {
                outcome.resolve(.failure(error))
            }
        }
        control.onEnd { reason in
            work.cancel()
            outcome.resolve(.failure(reason))
        }
        do {
            return try await withTaskCancellationHandler {
                try await outcome.value
            } onCancel: {
                work.cancel()
                outcome.resolve(.failure(ApiError.cancelled))
            }
        } catch {
            throw ApiError(error)
        }
    }

    /// The content codings the stub's bodies may declare: none but `identity`, which needs no decoding.
    private static let decodedCodings: Set<String> = ["identity"]

    /// Records the request with its body — read from the body file, or collected from a streamed body,
    /// when there is one — and answers it.
    /// - Parameters:
    ///   - request: The request as the session built it.
    ///   - options: The limits the reply is held to.
    /// - Returns: The reply of the newest matching route, or ``fallback``.
    /// - Throws: `ApiError`: the reply's failure, its unreadable file, a handler's error, `ApiError.timeout`
    ///   when the delay outlasts the idle timeout or the deadline, `ApiError.cancelled`, or
    ///   `ApiError.responseTooLarge(limit:)`.
    public func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
        let url = request.url
        let body: Data?
        if let file = request.body.file {
            guard let data = try? Data(contentsOf: file.url) else {
                throw ApiError.invalidRequest(.unreadableFile(path: file.url.path))
            }
            body = data
            options.progress?(
                TransferProgress(direction: .upload, completedBytes: Int64(data.count), totalBytes: file.length)
            )
        } else if let stream = request.body.stream {
            body = try await Self.collect(stream, progress: options.progress)
        } else {
            body = request.body.data
        }
        let recorded = StubTransport.RecordedRequest(request, url: url, body: body)
        var reply: CannedResponse
        switch routes.record(recorded) {
        case .reply(let fixed): reply = fixed
        case nil: reply = fallback
        case .handler(let handler):
            reply = try await Self.run(handler, for: recorded, options: options)
        }
        if reply.delay > .zero {
            // Waited as a handler is: it ends when the exchange is ended.
            let (delayed, delay) = (reply, reply.delay)
            reply = try await Self.run(
                { _ in
                    try await Task.sleep(for: delay)
                    return delayed
                },
                for: recorded,
                options: options
            )
        }
        if Task.isCancelled {
            throw ApiError.cancelled
        }
        let parts: CannedResponse.Parts
        switch reply.make() {
        case .success(let made): parts = made
        case .failure(let error): throw ApiError(error)
        }
        // The rules every transport follows come from the one collector: redirect bodies, the size limit,
        // body handlers, no body for `HEAD`, `204` and `304`.
        let head = try RawResponse(url: url, statusCode: parts.statusCode, headers: parts.headers).head
        var collector = ResponseCollector(method: request.method, options: options, decodedCodings: Self.decodedCodings)
        let answer = parts.body
        switch try collector.receive(head, expectedLength: Int64(answer.count)) {
        case .stream(let handler):
            // Handed over as a body arriving in pieces of `chunkSize` bytes.
            try stream(answer, to: handler, collector: &collector, options: options)
        case .collect, .skip:
            if collector.hasBody {
                _ = try collector.append(answer)
            }
            options.progress?(collector.progress)
        }
        return try collector.finish()
    }

    /// The size of the pieces a body handed to a `TransportOptions.BodyHandler` arrives in.
    public static let chunkSize = 16 * 1024

    /// Hands `body` to `handler` in pieces of ``chunkSize`` bytes, with download progress after each.
    private func stream(
        _ body: Data,
        to handler: TransportOptions.BodyHandler,
        collector: inout ResponseCollector,
        options: TransportOptions
    ) throws {
        var offset = body.startIndex
        while offset < body.endIndex {
            if Task.isCancelled {
                throw ApiError.cancelled
            }
            let end = min(offset + Self.chunkSize, body.endIndex)
            do {
                try handler.receive(Data(body[offset..<end]))
            } catch {
                throw ApiError(error)
            }
            collector.streamed(end - offset)
            offset = end
            options.progress?(collector.progress)
        }
    }
}
