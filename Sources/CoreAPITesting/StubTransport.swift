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
/// `ApiError.cancelled`. A reply's `failure` code is reported as URLSession would report it.
public final class StubTransport: Transport {
    /// Answers a request; throwing an `ApiError` fails the exchange with it.
    public typealias Handler = @Sendable (StubTransport.RecordedRequest) async throws -> StubTransport.Response

    private let routes = StubRoutes<Handler>()
    /// The routes of WebSocket opening handshakes (``onWebSocket(_:handler:)``).
    let webSocketRoutes = StubRoutes<WebSocketHandler>()
    /// The reply for requests no route matches: `404` with an empty body by default.
    public let fallback: StubTransport.Response

    /// Creates a transport with no routes.
    /// - Parameter fallback: The reply for requests no route matches.
    public init(fallback: StubTransport.Response = .status(404)) {
        self.fallback = fallback
    }

    /// Creates a transport that answers every request with `handler`.
    /// - Parameter handler: Makes the reply for each request.
    public convenience init(handler: @escaping Handler) {
        self.init()
        routes.add(nil, "*", handler)
    }

    /// Answers `method` requests whose path equals `path`, or starts with it when it ends in `*`. A
    /// later route wins over an earlier one for the same request.
    public func on(_ method: HTTPMethod, _ path: String, reply: StubTransport.Response) {
        routes.add(method, path) { _ in reply }
    }

    /// Answers requests of any method whose path matches `path`; see ``on(_:_:reply:)``.
    public func on(_ path: String, reply: StubTransport.Response) {
        routes.add(nil, path) { _ in reply }
    }

    /// Answers matching `method` requests with `handler`; see ``on(_:_:reply:)``.
    public func on(_ method: HTTPMethod, _ path: String, handler: @escaping Handler) {
        routes.add(method, path, handler)
    }

    /// Answers requests of any method whose path matches `path` with `handler`.
    public func on(_ path: String, handler: @escaping Handler) {
        routes.add(nil, path, handler)
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

    /// The content codings the stub's bodies may declare: none but `identity`, which needs no decoding.
    private static let decodedCodings: Set<String> = ["identity"]

    /// Records the request with its body — read from the body file, or collected from a streamed body,
    /// when there is one — and answers it.
    /// - Parameters:
    ///   - request: The request as the session built it.
    ///   - options: The limits the reply is held to.
    /// - Returns: The reply of the newest matching route, or ``fallback``.
    /// - Throws: `ApiError`: the reply's failure, a handler's error, `ApiError.timeout` when the delay
    ///   is longer than the idle timeout, `ApiError.cancelled`, or
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
        let handler = routes.record(recorded)
        let reply: StubTransport.Response
        do {
            reply = try await handler?(recorded) ?? fallback
        } catch {
            throw ApiError(error)
        }
        if reply.delay > .zero {
            let idle = options.idleTimeout
            let waited = idle.isFinite ? min(reply.delay, .nanoseconds(Int64(min(idle, 1e9) * 1e9))) : reply.delay
            do {
                try await Task.sleep(for: waited)
            } catch {
                throw ApiError.cancelled
            }
            if waited < reply.delay {
                throw ApiError.timeout
            }
        }
        if Task.isCancelled {
            throw ApiError.cancelled
        }
        if let failure = reply.failure {
            throw ApiError(URLError(failure))
        }
        // The rules every transport follows come from the one collector: redirect bodies, the size limit,
        // body handlers, no body for `HEAD`, `204` and `304`.
        let head = try RawResponse(url: url, statusCode: reply.statusCode, headers: reply.headers).head
        var collector = ResponseCollector(method: request.method, options: options, decodedCodings: Self.decodedCodings)
        let answer = reply.body
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
