import Dispatch
package import Foundation

/// The per-exchange limits a ``Transport`` enforces.
public struct TransportOptions: Sendable {
    /// How long the exchange may go without any byte sent or received before it fails with
    /// ``ApiError/timeout``; `nil` for none. Zero or less, or ``CallOptions/unlimited`` and longer, set
    /// none.
    public var idleTimeout: Duration? {
        get { idleTimeoutNanoseconds == .max ? nil : .nanoseconds(Int64(idleTimeoutNanoseconds)) }
        set { idleTimeoutNanoseconds = Self.nanoseconds(of: newValue) ?? .max }
    }
    /// When the whole exchange must have ended, body included; `nil` for never.
    public var deadline: ContinuousClock.Instant? {
        get {
            guard deadlineUptimeNanoseconds != .max else { return nil }
            let now = DispatchTime.now().uptimeNanoseconds
            let remaining = Int64(bitPattern: deadlineUptimeNanoseconds &- now)
            return ContinuousClock.now + .nanoseconds(remaining)
        }
        set {
            guard let newValue else {
                deadlineUptimeNanoseconds = .max
                return
            }
            let remaining = newValue - ContinuousClock.now
            let now = DispatchTime.now().uptimeNanoseconds
            deadlineUptimeNanoseconds =
                remaining <= .zero ? now : Self.nanoseconds(of: remaining).map { now &+ $0 } ?? .max
        }
    }
    /// ``idleTimeout`` in nanoseconds, or `.max` for none: what the one timer reads, kept as such so
    /// that a call pays no `Duration` arithmetic for it.
    package var idleTimeoutNanoseconds: UInt64 = .max
    /// ``deadline`` as system uptime in nanoseconds, the clock of the process's one timer; `.max` for
    /// none.
    package var deadlineUptimeNanoseconds: UInt64 = .max
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
        self.maximumResponseSize = maximumResponseSize
        self.progress = progress
        self.bodyHandler = bodyHandler
        self.idleTimeout = idleTimeout
        self.deadline = deadline
    }

    /// Idle timeouts of this many seconds or more are no timeout at all: ``CallOptions/unlimited``.
    package static let longestIdleTimeout: TimeInterval = 1_000_000

    /// ``idleTimeout`` in seconds, for an engine that takes a `TimeInterval`; `0` for none.
    package var idleTimeoutSeconds: TimeInterval {
        idleTimeoutNanoseconds == .max ? 0 : TimeInterval(idleTimeoutNanoseconds) / 1e9
    }

    /// `duration` in nanoseconds when it is a limit: above zero and below ``CallOptions/unlimited``.
    package static func nanoseconds(of duration: Duration?) -> UInt64? {
        guard let duration, duration > .zero, duration < CallOptions.unlimited else { return nil }
        let (seconds, attoseconds) = duration.components
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
