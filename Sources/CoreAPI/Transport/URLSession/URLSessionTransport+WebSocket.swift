#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking

    /// WebSockets over FoundationNetworking: none. Its `URLSessionWebSocketTask` fails every connection
    /// on Linux, where libcurl is built without WebSocket support, before anything reaches the server.
    extension URLSessionTransport {
        /// Throws ``WebSocket/Failure/unavailable(reason:)`` at once, without trying: FoundationNetworking
        /// cannot open WebSockets on Linux.
        public func openWebSocket(_ request: ApiRequest, options: WebSocket.Options) async throws -> WebSocket.Upgrade {
            throw WebSocket.Failure.unavailable(
                reason: "URLSession cannot open WebSockets on Linux (its libcurl has no WebSocket support); "
                    + "use AsyncHTTPClientTransport from the CoreAPIAsyncHTTPClient product, "
                    + "built with the package trait AsyncHTTPClient"
            )
        }
    }
#else
    public import Foundation

    /// WebSockets over `URLSessionWebSocketTask`, on the transport's `URLSession`: its configuration,
    /// its TLS trust and its delegate's answers to authentication challenges apply.
    extension URLSessionTransport {
        /// Opens a `URLSessionWebSocketTask` and waits until a ping gets its pong, which proves the
        /// handshake succeeded; a refused handshake is returned as its response (without its body,
        /// which URLSession does not keep).
        /// - Parameters:
        ///   - request: The opening handshake as the session built it.
        ///   - options: The connection's limits; URLSession enforces the message size.
        /// - Returns: The connection, or the refusal.
        /// - Throws: ``ApiError`` when no response came, or the call was cancelled.
        public func openWebSocket(_ request: ApiRequest, options: WebSocket.Options) async throws -> WebSocket.Upgrade {
            guard let urlSession else { throw ApiError.invalidRequest(.sessionInvalidated) }
            let task = urlSession.webSocketTask(with: URLRequest(request))
            task.maximumMessageSize = options.maximumMessageSize
            task.resume()
            let connection = URLSessionWebSocketConnection(
                task: task,
                maximumMessageSize: options.maximumMessageSize,
                closeTimeout: options.closeTimeout
            )
            do {
                try await withTaskCancellationHandler {
                    try await connection.ping()
                } onCancel: {
                    task.cancel()
                }
            } catch {
                if let response = task.response as? HTTPURLResponse, response.statusCode != 101 {
                    return .refused(RawResponse(head: ResponseHead(response), data: Data()))
                }
                task.cancel()
                throw Task.isCancelled ? ApiError.cancelled : ApiError(task.error ?? error)
            }
            return .upgraded(connection)
        }
    }
#endif
