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

/// Which response types are ``ResponseTimingCarrier``s, found once per type: a conformance check of an
/// unspecialised generic type costs about a thousand instructions, a look-up here a few hundred.
enum ResponseTimingCarriers {
    /// Answers so far, by type; emptied should it ever hold more than 1024.
    private static let known = LockedValue<[ObjectIdentifier: Bool]>([:])

    /// Whether `type` takes the timing.
    static func contains<Response>(_ type: Response.Type) -> Bool {
        let key = ObjectIdentifier(type)
        if let answer = known.withLock({ $0[key] }) {
            return answer
        }
        let answer = type is any ResponseTimingCarrier.Type
        known.withLock { table in
            if table.count >= 1024 { table.removeAll() }
            table[key] = answer
        }
        return answer
    }
}
