import Dispatch
package import Foundation

/// The per-exchange limits a ``Transport`` enforces.
public struct TransportOptions: Sendable {
    /// How long the exchange may go without any byte sent or received before it fails with
    /// ``ApiError/timeout``; `nil`, zero or less, or ``CallOptions/unlimited`` and longer mean none.
    public var idleTimeout: Duration?
    /// When the whole exchange must have ended, body included; `nil` for never.
    public var deadline: ContinuousClock.Instant?
    /// The largest response body collected, in bytes after content decoding; more fails with
    /// ``ApiError/responseTooLarge(limit:)`` without reading the rest. A body handed to ``bodyHandler``
    /// is not collected, and its handler limits it.
    public var maximumResponseSize: Int64
    /// Called with upload progress while the body is sent and download progress while the response
    /// arrives, in order; keep it short and never block in it.
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// Where the body goes when the session reads it as it arrives; `nil` to collect every body.
    public var bodyHandler: TransportOptions.BodyHandler?
    /// The session's hold on this exchange: the clock the transport touches and the signal that ends
    /// it. The session always sets it; `nil` only when a transport is called without a session (then
    /// ``ExchangeControl/for(_:)`` makes one on the same timer).
    public var control: ExchangeControl?
    /// Whether the call asks for the phases of the exchange: `true` unless the session knows nobody
    /// reads them, which is when the method's response carries no ``ResponseTiming``. When `false`, a
    /// transport may leave ``RawResponse/phases`` `nil` and skip the clock reads and the bookkeeping its
    /// phases take.
    public var measuresPhases = true

    /// Creates options; the defaults are no limit at all.
    /// - Parameters:
    ///   - idleTimeout: How long without progress before the exchange times out.
    ///   - deadline: When the exchange must have ended.
    ///   - maximumResponseSize: The largest decoded body accepted.
    ///   - progress: The progress handler.
    ///   - bodyHandler: Where the body goes when it is read as it arrives.
    public init(
        idleTimeout: Duration? = nil,
        deadline: ContinuousClock.Instant? = nil,
        maximumResponseSize: Int64 = .max,
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        bodyHandler: TransportOptions.BodyHandler? = nil
    ) {
        self.idleTimeout = idleTimeout
        self.deadline = deadline
        self.maximumResponseSize = maximumResponseSize
        self.progress = progress
        self.bodyHandler = bodyHandler
    }

    /// Idle timeouts of this many seconds or more are no timeout at all: ``CallOptions/unlimited``.
    package static let longestIdleTimeout: TimeInterval = 1_000_000

    /// ``idleTimeout`` in nanoseconds, or `.max` for none.
    package var idleTimeoutNanoseconds: UInt64 {
        guard let idleTimeout, idleTimeout > .zero, idleTimeout < CallOptions.unlimited else { return .max }
        let (seconds, attoseconds) = idleTimeout.components
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }

    /// ``idleTimeout`` in seconds, for an engine that takes a `TimeInterval`; `0` for none.
    package var idleTimeoutSeconds: TimeInterval {
        let nanoseconds = idleTimeoutNanoseconds
        return nanoseconds == .max ? 0 : TimeInterval(nanoseconds) / 1e9
    }

    /// ``deadline`` as system uptime in nanoseconds, the clock of the process's one timer; `.max` for none.
    package var deadlineUptimeNanoseconds: UInt64 {
        guard let deadline else { return .max }
        let now = DispatchTime.now().uptimeNanoseconds
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { return now }
        guard remaining < CallOptions.unlimited else { return .max }
        let (seconds, attoseconds) = remaining.components
        return now &+ UInt64(seconds) * 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }
}
