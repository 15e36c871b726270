public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Where a ``Transport`` hands the body of a response the session reads as it arrives — a download to
/// a file, a stream of events — instead of collecting it in memory.
///
/// When ``TransportOptions/bodyHandler`` is set, a transport:
/// - asks ``accepts`` once, with the head of each response that is not a redirect (a `301`, `302`,
///   `303`, `307` or `308` with a `Location` field, which it collects as always), after its own checks of
///   the head and before any byte of the body;
/// - when it answers `true`, passes each piece of the decoded body to ``receive`` in order as it
///   arrives, holds none of it, does not count it against ``TransportOptions/maximumResponseSize`` (the
///   handler has its own limit) and returns the response with an empty body once the body has ended;
/// - when it answers `false` (an error status, whose body the session parses), collects the body as usual;
/// - when either throws, ends the exchange with that error (an ``ApiError``) without reading further.
///
/// Both run on the transport's thread, one at a time: keep them short and never block in them. A
/// transport that ignores the handler still works: the session hands a collected body to it at once.
public struct ResponseBodyHandler: Sendable {
    /// Decides, from a response head, whether its body goes to ``receive`` (`true`) or is collected.
    public var accepts: @Sendable (HTTPURLResponse) throws -> Bool
    /// Takes the next piece of the decoded body.
    public var receive: @Sendable (Data) throws -> Void

    /// Creates a handler.
    /// - Parameters:
    ///   - accepts: Whether the body of a response with this head is handed over.
    ///   - receive: Takes each piece of the body, in order.
    public init(
        accepts: @escaping @Sendable (HTTPURLResponse) throws -> Bool,
        receive: @escaping @Sendable (Data) throws -> Void
    ) {
        self.accepts = accepts
        self.receive = receive
    }
}
