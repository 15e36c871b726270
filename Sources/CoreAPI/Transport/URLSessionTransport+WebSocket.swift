#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking

    /// WebSockets over FoundationNetworking: none. Its `URLSessionWebSocketTask` fails every connection
    /// on Linux, where libcurl is built without WebSocket support, before anything reaches the server.
    extension URLSessionTransport {
        /// Throws ``WebSocketError/unavailable(reason:)`` at once, without trying: FoundationNetworking
        /// cannot open WebSockets on Linux.
        public func openWebSocket(_ request: URLRequest, options: WebSocketOptions) async throws -> WebSocketUpgrade {
            throw WebSocketError.unavailable(
                reason: "URLSession cannot open WebSockets on Linux (its libcurl has no WebSocket support); "
                    + "use AsyncHTTPClientTransport from the CoreAPIAsyncHTTPClient product, "
                    + "built with the package trait AsyncHTTPClient"
            )
        }
    }
#endif
