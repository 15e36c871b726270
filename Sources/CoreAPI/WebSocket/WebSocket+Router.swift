public import Foundation

extension WebSocket {
    /// Routes JSON messages of a ``WebSocket`` to typed handlers by the value of one key, such as
    /// `{"type": "chat", "data": {...}}`: a small layer over ``WebSocket/events``.
    ///
    /// ```swift
    /// var router = WebSocket.Router(key: "type", payload: "data")
    /// router.on("chat", ChatLine.self) { line in await chat.append(line) }
    /// router.on("presence", Presence.self) { presence in await roster.update(presence) }
    /// let closure = try await router.run(socket)
    /// ```
    ///
    /// A message whose key names no route, that is not a JSON object, or that is binary goes to the
    /// ``onUnrouted(_:)`` handler (by default, nowhere). A routed message whose payload does not decode
    /// ends ``run(_:)`` with ``ApiError/mapping(_:)``, unless ``skipsUndecodable`` is set.
    public struct Router: Sendable {
        /// The key whose string value names the route.
        public let key: String
        /// The key of the payload decoded for the handler; `nil` to decode the whole message.
        public let payload: String?
        /// Whether a routed message whose payload does not decode is skipped (and given to the unrouted
        /// handler) instead of ending ``run(_:)``; `false` by default.
        public var skipsUndecodable = false

        private let decoder: JSONDecoder
        private var routes: [String: @Sendable (Data) async throws -> Void] = [:]
        private var unrouted: @Sendable (WebSocket.Message) async -> Void = { _ in }

        /// A router with no routes.
        /// - Parameters:
        ///   - key: The key whose string value names the route; `type` by default.
        ///   - payload: The key of the payload, or `nil` for the whole message; `data` by default.
        ///   - decoder: The decoder of payloads, with the key and date strategies the server uses.
        public init(key: String = "type", payload: String? = "data", decoder: JSONDecoder = JSONDecoder()) {
            self.key = key
            self.payload = payload
            self.decoder = decoder
        }

        /// Sends messages whose key is `name` to `handler`, decoded as `Event`. A later route for the same
        /// name replaces an earlier one.
        public mutating func on<Event: Decodable & SendableMetatype>(
            _ name: String,
            _ type: Event.Type,
            handler: @escaping @Sendable (Event) async throws -> Void
        ) {
            let decoder = self.decoder
            routes[name] = { data in
                let event: Event
                do {
                    event = try decoder.decode(Event.self, from: data)
                } catch {
                    throw ApiError.mapping(.init(typeName: String(describing: Event.self), cause: error))
                }
                try await handler(event)
            }
        }

        /// Gives every message no route takes to `handler`.
        public mutating func onUnrouted(_ handler: @escaping @Sendable (WebSocket.Message) async -> Void) {
            unrouted = handler
        }

        /// Hands `message` to its route's handler, or to the unrouted handler.
        /// - Returns: Whether a route took it.
        /// - Throws: ``ApiError/mapping(_:)`` when its payload does not decode (unless ``skipsUndecodable``),
        ///   or what the handler throws.
        @discardableResult
        public func route(_ message: WebSocket.Message) async throws -> Bool {
            guard case .text = message, let (name, data) = split(message.data), let route = routes[name] else {
                await unrouted(message)
                return false
            }
            do {
                try await route(data)
            } catch ApiError.mapping where skipsUndecodable {
                await unrouted(message)
                return false
            }
            return true
        }

        /// Reads `socket`'s events until the connection closes, routing each message.
        /// - Returns: How the connection closed.
        /// - Throws: What ``WebSocket/events`` throws, and what ``route(_:)`` throws.
        @discardableResult
        public func run(_ socket: WebSocket) async throws -> WebSocket.Closure? {
            for try await event in socket.events {
                switch event {
                case .message(let message): try await route(message)
                case .reconnected: continue
                case .closed(let closure): return closure
                }
            }
            return socket.closure
        }

        /// The route name and the payload's JSON of a message that is a JSON object with a string at `key`.
        private func split(_ data: Data) -> (String, Data)? {
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let name = object[key] as? String
            else { return nil }
            guard let payload else { return (name, data) }
            guard let value = object[payload],
                let payloadData = try? JSONSerialization.data(withJSONObject: value, options: .fragmentsAllowed)
            else { return (name, Data("null".utf8)) }
            return (name, payloadData)
        }
    }
}
