#if OpenAPI
    import CoreAPI
    import CoreAPIOpenAPI
    import Foundation
    import OpenAPIRuntime

    /// The loopback server of the notes service (`Fixtures/openapi_server.py`), started once per test
    /// process; it ends when this process does. It listens on two ports: `serverURL`
    /// (`http://127.0.0.1:<port>/v1`) and `otherOriginURL` (`http://localhost:<port2>/v1`), another origin.
    final class NotesServer: Sendable {
        let port: Int
        let port2: Int
        /// The script's process, which ends with this one.
        private let child: PythonFixtureProcess

        private static let started: Result<NotesServer, any Error> = Result { try NotesServer() }

        /// The shared server.
        static func shared() throws -> NotesServer {
            try started.get()
        }

        private init() throws {
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/openapi_server.py")
            let child = try PythonFixtureProcess(script: script)
            port = try child.port(labelled: "PORT")
            port2 = try child.port(labelled: "PORT2")
            self.child = child
        }

        /// The server URL a generated client is given.
        var serverURL: URL { URL(string: "http://127.0.0.1:\(port)/v1")! }

        /// The same service on another origin (another host name and port).
        var otherOriginURL: URL { URL(string: "http://localhost:\(port2)/v1")! }

        /// A generated client over `session`, through an ``ApiSessionTransport`` made with `options`.
        func client(
            _ session: ApiSession,
            options: CallOptions = CallOptions(),
            responseBodies: ApiSessionTransport.ResponseBodies = .streamed
        ) -> Client {
            Client(
                serverURL: serverURL,
                transport: ApiSessionTransport(session: session, options: options, responseBodies: responseBodies)
            )
        }
    }

    extension TestTransport {
        /// The engines the bridge's loopback tests run on: URLSession always, since its suites build only with
        /// the `OpenAPI` trait, whose CI run narrows ``underTest`` to AsyncHTTPClient; then the engines under test.
        static let bridgeEngines: [TestTransport] = [.urlSession] + engines.filter { $0 != .urlSession }
    }

    /// The bytes `/export` sends: byte `i` is `i % 251`.
    func exportedBytes(_ count: Int) -> Data {
        Data((0..<count).map { UInt8($0 % 251) })
    }

    /// The `ApiError` a generated client's call failed with: the underlying error of its `ClientError`.
    func apiError(of error: any Error) -> ApiError? {
        if let clientError = error as? ClientError {
            return clientError.underlyingError as? ApiError
        }
        return error as? ApiError
    }

    /// Records the name and request of every call it sees, and adds `X-Chain: coreapi` to each request.
    final class RecordingMiddleware: Middleware, @unchecked Sendable {  // `seen` is only used under `lock`
        private let lock = NSLock()
        private var seen: [(name: String, request: ApiRequest)] = []

        /// The calls seen so far, in order.
        var calls: [(name: String, request: ApiRequest)] { lock.withLock { seen } }

        func intercept(
            _ request: ApiRequest,
            context: MiddlewareContext,
            next: @Sendable (ApiRequest) async throws -> RawResponse
        ) async throws -> RawResponse {
            lock.withLock { seen.append((context.methodName, request)) }
            var request = request
            request.headers.set("coreapi", for: "X-Chain")
            return try await next(request)
        }
    }
#endif
