#if OpenAPI
    public import AsyncHTTPClient
    import CoreAPI
    import CoreAPIAsyncHTTPClient
    import CoreAPIOpenAPI
    import Foundation
    import NIOCore
    import OpenAPIAsyncHTTPClient
    import OpenAPIRuntime

    // The generated client (`Client`, `Operations`, `Components`) is the one in `Generated/`, a link to
    // CoreAPI's integration tests' copy. Every client here fetches the note `GET <base>/notes/1`, which
    // `BenchServer` answers with `{"id":1,"title":"Ada","tags":["on"]}`, and hands it back as the
    // ``TinyUser`` `fetchChecked` expects: id, title as the name, and whether it carries the tag "on".

    extension TinyUser {
        /// The user a note stands for: its id, its title as the name, active when tagged "on".
        init(noteID id: Int, title: String, tags: [String]) {
            self.init(id: id, name: title, active: tags == ["on"])
        }
    }

    /// CoreAPI's own call of the note: `ApiSession.perform(GetNote())` over CoreAPI's AsyncHTTPClient
    /// transport, the baseline of ``OpenAPIBridgeClient``.
    public struct CoreAPINoteClient: LoopbackClient {
        /// The transport, with a client of its own.
        public let transport: CoreAPIAsyncHTTPClient.AsyncHTTPClientTransport
        /// The session under test.
        public let session: ApiSession

        /// A session over a new transport for the server at `baseURL`.
        public init(baseURL: String) {
            transport = CoreAPIAsyncHTTPClient.AsyncHTTPClientTransport()
            session = ApiSession(hostProvider: benchHosts(baseURL), transport: transport)
        }

        /// Performs the method.
        public func fetch() async throws -> TinyUser {
            let note = try await session.perform(GetNote())
            return TinyUser(noteID: note.id, title: note.title, tags: note.tags)
        }

        /// Invalidates the session and shuts the transport's client down.
        public func shutdown() {
            session.invalidate()
            transport.client.shutdown { _ in }
        }
    }

    /// The generated client's `getNote` through `ApiSessionTransport`, over an `ApiSession` over CoreAPI's
    /// AsyncHTTPClient transport: CoreAPI's OpenAPI bridge, with the transport's defaults (a `2xx` body
    /// streamed to the generated client).
    public struct OpenAPIBridgeClient: LoopbackClient {
        /// The session's transport, with a client of its own.
        public let transport: CoreAPIAsyncHTTPClient.AsyncHTTPClientTransport
        /// The session every request goes through.
        public let session: ApiSession
        /// The generated client over the bridge.
        let client: Client

        /// A generated client whose server URL is `baseURL`, over a new session and transport.
        public init(baseURL: String) {
            transport = CoreAPIAsyncHTTPClient.AsyncHTTPClientTransport()
            session = ApiSession(hostProvider: benchHosts(baseURL), transport: transport)
            client = Client(serverURL: URL(string: baseURL)!, transport: ApiSessionTransport(session: session))
        }

        /// Calls `getNote` and reads the JSON note of its `200`.
        public func fetch() async throws -> TinyUser {
            let note = try await client.getNote(path: .init(noteID: 1)).ok.body.json
            return TinyUser(noteID: note.id, title: note.title, tags: note.tags)
        }

        /// Invalidates the session and shuts the transport's client down.
        public func shutdown() {
            session.invalidate()
            transport.client.shutdown { _ in }
        }
    }

    /// The generated client's `getNote` through swift-openapi-async-http-client's transport, on an
    /// `HTTPClient` with the configuration of CoreAPI's transport (no redirects, no decompression).
    public struct OpenAPIAsyncHTTPClientClient: LoopbackClient {
        /// The client, made for this benchmark client alone.
        public let httpClient: HTTPClient
        /// The generated client over swift-openapi-async-http-client.
        let client: Client

        /// A generated client whose server URL is `baseURL`, over a new `HTTPClient`.
        public init(baseURL: String) {
            httpClient = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                configuration: CoreAPIAsyncHTTPClient.AsyncHTTPClientTransport.makeClientConfiguration()
            )
            let transport = OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport(
                configuration: .init(client: httpClient, timeout: .seconds(60))
            )
            client = Client(serverURL: URL(string: baseURL)!, transport: transport)
        }

        /// Calls `getNote` and reads the JSON note of its `200`.
        public func fetch() async throws -> TinyUser {
            let note = try await client.getNote(path: .init(noteID: 1)).ok.body.json
            return TinyUser(noteID: note.id, title: note.title, tags: note.tags)
        }

        /// Shuts the client down.
        public func shutdown() {
            httpClient.shutdown { _ in }
        }
    }
#endif
