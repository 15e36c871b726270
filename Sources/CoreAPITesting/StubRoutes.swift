import CoreAPI
import Foundation

/// The routes and the recorded requests of a stub, shared by ``StubServer`` and ``StubTransport``.
final class StubRoutes<Handler: Sendable>: Sendable {
    private struct Route {
        let method: HTTPMethod?
        let pattern: String
        let handler: Handler

        /// Whether the route answers `request`: same method (or any), and a path equal to the
        /// pattern, or starting with it when it ends in `*`.
        func matches(_ request: StubTransport.RecordedRequest) -> Bool {
            if let method, method != request.method { return false }
            let path = request.url.path
            if pattern.hasSuffix("*") {
                return path.hasPrefix(String(pattern.dropLast()))
            }
            return path == pattern
        }
    }

    private struct State {
        var routes: [Route] = []
        var requests: [StubTransport.RecordedRequest] = []
    }

    private let state = LockedValue(State())

    /// Adds a route; a later route wins over an earlier one for the same request.
    func add(_ method: HTTPMethod?, _ pattern: String, _ handler: Handler) {
        state.withLock { $0.routes.append(Route(method: method, pattern: pattern, handler: handler)) }
    }

    /// Every request recorded so far, in order.
    var requests: [StubTransport.RecordedRequest] {
        state.current.requests
    }

    /// Forgets the recorded requests.
    func clearRequests() {
        state.withLock { $0.requests.removeAll() }
    }

    /// Records `request` and returns the handler of the newest matching route, if any.
    func record(_ request: StubTransport.RecordedRequest) -> Handler? {
        state.withLock { state in
            state.requests.append(request)
            return state.routes.last { $0.matches(request) }?.handler
        }
    }
}
