/// When ``ApiSession/events(_:reconnection:)`` opens a stream of server-sent events again.
///
/// A stream is opened again when its connection ends — normally, or lost, or idle for longer than the
/// idle timeout, or when it could not connect — after ``delay``, or after the `retry` time the stream
/// asked for. A status error is never retried.
public struct EventReconnection: Sendable, Hashable {
    /// The wait before opening the stream again, unless the stream asked for another with `retry`.
    public var delay: Duration
    /// How many failed attempts in a row are tolerated before the events end with the last error; a
    /// successful connection starts the count again.
    public var maximumFailures: Int

    /// Creates a reconnection rule; the defaults are those of browsers' `EventSource`: three seconds, and
    /// no end.
    public init(delay: Duration = .seconds(3), maximumFailures: Int = .max) {
        self.delay = delay
        self.maximumFailures = maximumFailures
    }
}
