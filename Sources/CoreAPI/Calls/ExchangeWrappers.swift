/// What middlewares wrap each exchange of a call with (``MiddlewareContext/withEachExchange(_:perform:)``):
/// a list from the innermost wrapper out, each under the number it was added with.
///
/// Wrappers come and go in nested scopes, so the one removed is nearly always the innermost: adding one
/// allocates one node, removing the innermost drops it, and a copy shares the nodes. An array would
/// allocate its buffer, copy itself out of the call's lock for every exchange and search itself on every
/// removal.
struct ExchangeWrappers: Sendable {
    /// Wraps one exchange: gets the request of one attempt or redirect hop and sends it on.
    typealias Wrapper =
        @Sendable (ApiRequest, _ send: @Sendable (ApiRequest) async throws -> RawResponse) async throws -> RawResponse

    /// One wrapper and the ones outside it.
    private final class Node: Sendable {
        let id: Int
        let wrap: Wrapper
        let outer: Node?

        init(id: Int, wrap: @escaping Wrapper, outer: Node?) {
            self.id = id
            self.wrap = wrap
            self.outer = outer
        }
    }

    private var innermost: Node?
    private var added = 0

    /// Whether no wrapper is in effect.
    var isEmpty: Bool { innermost == nil }

    /// Adds `wrap` inside the wrappers added before it, and returns the number to remove it with.
    mutating func add(_ wrap: @escaping Wrapper) -> Int {
        added += 1
        innermost = Node(id: added, wrap: wrap, outer: innermost)
        return added
    }

    /// Removes the wrapper `add(_:)` returned `id` for; the others keep their order.
    mutating func remove(_ id: Int) {
        guard let node = innermost else { return }
        if node.id == id {
            innermost = node.outer
            return
        }
        // Removed out of order: the nodes inside the one removed are made again.
        var inside: [Node] = []
        var current: Node? = node
        while let candidate = current, candidate.id != id {
            inside.append(candidate)
            current = candidate.outer
        }
        guard let removed = current else { return }
        var rebuilt = removed.outer
        for node in inside.reversed() {
            rebuilt = Node(id: node.id, wrap: node.wrap, outer: rebuilt)
        }
        innermost = rebuilt
    }

    /// Sends `request` through the wrappers, outermost first, the innermost of which calls `send`.
    ///
    /// Each wrapper's `send` is a closure on the stack that sends through the wrappers inside it: nothing
    /// is allocated per exchange. Inlined into the session's send, so it takes no async frame of its own.
    @inline(__always)
    func send(
        _ request: ApiRequest,
        through send: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        try await Self.send(request, from: innermost, through: send)
    }

    /// Sends `request` through `node` and the wrappers outside it, `node`'s `send` being `send`.
    private static func send(
        _ request: ApiRequest,
        from node: Node?,
        through send: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        guard let node else { return try await send(request) }
        guard let outer = node.outer else { return try await node.wrap(request, send) }
        return try await Self.send(request, from: outer) { request in
            try await node.wrap(request, send)
        }
    }
}
