public import Foundation

/// How long a call took, as the session measured it.
///
/// ``WithMetadata`` carries it for a response that came through ``ApiSession/perform(_:options:progress:)``:
///
/// ```swift
/// let page = try await session.perform(ListItems())
/// if let timing = page.timing, timing.total > .seconds(2) {
///     report(slow: timing)
/// }
/// ```
public struct ResponseTiming: Sendable, Hashable {
    /// When the call started, before any middleware ran.
    public var start: Date
    /// From the start of the call until its response was processed and decoded: middlewares, retries,
    /// redirects and parsing included.
    public var total: Duration
    /// The exchange that brought the response, from handing its request to the transport until the
    /// whole response had arrived; with redirects, the last hop's. `nil` when a middleware made the
    /// response (a mock); a middleware that replays a response it kept (a cache) replays its timing too.
    /// A call that joined a shared exchange (``CallOptions/sharesIdenticalCalls``) gets the timing of the
    /// call that started it.
    public var exchange: Duration?
    /// The phases of that exchange — connection, request, response — as far as the transport's engine
    /// shows them (see ``Phases``); `nil` when the transport reported none.
    public var phases: ResponseTiming.Phases?

    /// Creates a timing.
    public init(start: Date, total: Duration, exchange: Duration?, phases: ResponseTiming.Phases? = nil) {
        self.start = start
        self.total = total
        self.exchange = exchange
        self.phases = phases
    }
}

/// A response type that takes the session's ``ResponseTiming`` once its value is made: the session
/// hands the timing only to such types, so other responses cost nothing.
protocol ResponseTimingCarrier {
    /// The value with `timing` added.
    func adding(_ timing: ResponseTiming) -> Self
}
