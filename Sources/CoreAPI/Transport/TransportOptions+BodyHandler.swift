public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TransportOptions {
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
    ///
    /// A body read as a stream waits in a bounded buffer for its reader. A transport that can hold off the
    /// network awaits ``waitForRoom(for:)`` before handing each piece on, so that a slow reader slows the
    /// transfer instead of growing memory; one that cannot hands pieces on as they come, and the session's
    /// own transport ends the stream once the reader falls too far behind.
    public struct BodyHandler: Sendable {
        /// Decides, from a response head, whether its body goes to ``receive`` (`true`) or is collected.
        public var accepts: @Sendable (ResponseHead) throws -> Bool
        /// Takes the next piece of the decoded body.
        public var receive: @Sendable (Data) throws -> Void
        /// The buffer the pieces wait in for their reader, when the body is read as a stream.
        var buffer: StreamBuffer?

        /// Creates a handler.
        /// - Parameters:
        ///   - accepts: Whether the body of a response with this head is handed over.
        ///   - receive: Takes each piece of the body, in order.
        public init(
            accepts: @escaping @Sendable (ResponseHead) throws -> Bool,
            receive: @escaping @Sendable (Data) throws -> Void
        ) {
            self.accepts = accepts
            self.receive = receive
        }

        /// Whether the reader has room for a piece of `count` bytes now: always, unless the body goes to a
        /// bounded stream whose reader has fallen its buffer's limit behind.
        public func hasRoom(for count: Int) -> Bool {
            buffer?.hasRoom(for: count) ?? true
        }

        /// Returns once the reader has room for a piece of `count` bytes: at once for a body that does not
        /// go to a stream, or while the stream's buffer has room; else when the reader has taken enough.
        ///
        /// A transport that awaits this before reading the next piece from the network passes the reader's
        /// pace on to the server (flow control), and keeps the memory a stream holds within its buffer's
        /// limit. A piece larger than the limit fits once the buffer is empty.
        /// - Parameter count: The size of the next piece, decoded.
        /// - Throws: `CancellationError` when the task is cancelled, or the reader left, before there is room.
        public func waitForRoom(for count: Int) async throws {
            try await buffer?.waitForRoom(for: count)
        }
    }
}
