public import Foundation

/// An HTTP response head and its body, before status validation and parsing.
public struct RawResponse: Sendable {
    /// The response head: status, header fields and URL.
    public var head: ResponseHead
    /// The body, decoded from any content coding.
    public var data: Data
    /// How long the exchange that brought it took, set by the session around the transport; `nil` for a
    /// response a middleware made.
    package var exchangeDuration: Duration?
    /// The phases of the exchange as the transport measured them, as offsets from the moment its
    /// `send(_:options:)` began; the session hands them on in ``ResponseTiming/phases``. `nil` when the
    /// transport measures none, or when the call did not ask for them (``TransportOptions/measuresPhases``:
    /// the method's response carries no ``ResponseTiming``). A transport sets it on the response it returns.
    public var phases: ResponseTiming.Phases? {
        get { measuredPhases?.phases }
        set { measuredPhases = newValue.map(MeasuredPhases.init) }
    }
    /// ``phases`` in a box of its own: a response goes through many hands, and a pointer keeps it small
    /// (held inline, the phases made every copy of a response larger, and so every call slower).
    private var measuredPhases: MeasuredPhases?

    /// The phases of one exchange, shared by the copies of its response.
    private final class MeasuredPhases: Sendable {
        let phases: ResponseTiming.Phases

        init(_ phases: ResponseTiming.Phases) {
            self.phases = phases
        }
    }

    /// Creates a raw response.
    /// - Parameters:
    ///   - head: The response head.
    ///   - data: The body.
    public init(head: ResponseHead, data: Data = Data()) {
        self.head = head
        self.data = data
    }

    /// A response built from parts, for middlewares and transports that answer without the network.
    /// - Parameters:
    ///   - url: The URL the response is for.
    ///   - statusCode: The status code, 100 to 999.
    ///   - headers: The header fields, repeated names kept apart.
    ///   - data: The body.
    /// - Throws: ``ApiError/invalidRequest(_:)`` for a status code outside 100–999.
    public init(url: URL, statusCode: Int, headers: Headers = Headers(), data: Data = Data()) throws(ApiError) {
        guard (100...999).contains(statusCode) else {
            throw ApiError.invalidRequest(.encoding("status code \(statusCode) is not a valid HTTP status"))
        }
        self.init(head: ResponseHead(status: HTTPStatus(statusCode), headers: headers, url: url), data: data)
    }

    /// The status code.
    public var statusCode: Int { head.status.code }

    /// The response's header fields.
    public var headers: Headers { head.headers }
}
