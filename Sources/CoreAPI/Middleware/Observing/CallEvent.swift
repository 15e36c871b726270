public import Foundation

/// A step in the life of a call, as an ``ObserverMiddleware`` sees it: it started, it finished with a
/// status the method accepts, or it failed.
///
/// Like ``ApiFailure``, events hold no header values and no query, so they are safe to log.
public enum CallEvent: Sendable {
    /// The call reached the observer, about to be sent.
    case started(Start)
    /// A response arrived with a status the method accepts.
    case finished(RequestMetrics)
    /// The call failed; ``ApiFailure/category`` says how.
    case failed(ApiFailure)

    /// A call that reached the observer.
    public struct Start: Sendable, Hashable {
        /// The method's type name.
        public var methodName: String
        /// The HTTP method.
        public var httpMethod: HTTPMethod
        /// The URL without query, fragment or credentials.
        public var url: URL?
        /// Which attempt of the call this is: 1, then 2 and on when a retry runs the chain again.
        public var attempt: Int
    }
}
