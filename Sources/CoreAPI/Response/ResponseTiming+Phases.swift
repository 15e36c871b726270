extension ResponseTiming {
    /// The phases of one exchange as its transport saw them, each a range of offsets from the moment the
    /// transport began the exchange — so each lies within ``ResponseTiming/exchange``, in this order:
    /// ``domainLookup``, ``connection`` (which holds ``secureConnection``), ``request``, ``response``.
    /// A phase is `nil` when the engine does not show it, or when it did not happen (no name to look up,
    /// no connection to open on a reused one).
    ///
    /// | | URLSession, Apple platforms | URLSession, Linux | AsyncHTTPClient |
    /// |---|---|---|---|
    /// | ``reusedConnection`` | yes | no | yes, over a client the transport made |
    /// | ``domainLookup`` | yes | no | no |
    /// | ``connection`` | yes | no | yes, waiting for the pool included |
    /// | ``secureConnection`` | yes | no | no |
    /// | ``request`` | yes | with a body | yes |
    /// | ``response`` | yes | yes | yes |
    ///
    /// URLSession's come from `URLSessionTaskMetrics` on Apple platforms. FoundationNetworking on Linux
    /// never delivers metrics to its delegate, so there the transport measures what its delegate sees: the
    /// request phase until the last body bytes were reported sent, and the response phase from the head
    /// to the last body byte. AsyncHTTPClient shows no DNS, connect or
    /// TLS event: the transport learns that a connection was opened when AsyncHTTPClient runs its
    /// connection initializer, once the connection is up (TLS included), and credits that connection to
    /// the oldest exchange to the same port still waiting for one — with exchanges to several hosts on
    /// the same port at once, the credit may go to another of them. Its request phase ends when
    /// AsyncHTTPClient reports the whole request written (its delegate's `didSendRequest(task:)`), with or
    /// without a body.
    ///
    /// A transport of your own reports them in ``RawResponse/phases``; the session hands them on.
    public struct Phases: Sendable, Hashable {
        /// Whether the request went over a connection that was open already; `nil` when unknown.
        public var reusedConnection: Bool?
        /// Resolving the host's name.
        public var domainLookup: Range<Duration>?
        /// Opening a new connection, TCP and TLS.
        public var connection: Range<Duration>?
        /// The TLS handshake, within ``connection``.
        public var secureConnection: Range<Duration>?
        /// Sending the request, from its first byte to its last.
        public var request: Range<Duration>?
        /// Receiving the response, from its first byte to its last.
        public var response: Range<Duration>?

        /// Creates phases; every one left out is unknown.
        /// - Parameters:
        ///   - reusedConnection: Whether the connection was open already.
        ///   - domainLookup: Resolving the name.
        ///   - connection: Opening the connection.
        ///   - secureConnection: The TLS handshake.
        ///   - request: Sending the request.
        ///   - response: Receiving the response.
        public init(
            reusedConnection: Bool? = nil,
            domainLookup: Range<Duration>? = nil,
            connection: Range<Duration>? = nil,
            secureConnection: Range<Duration>? = nil,
            request: Range<Duration>? = nil,
            response: Range<Duration>? = nil
        ) {
            self.reusedConnection = reusedConnection
            self.domainLookup = domainLookup
            self.connection = connection
            self.secureConnection = secureConnection
            self.request = request
            self.response = response
        }

        /// The phases that are known, in their order, with their names (`"domainLookup"`,
        /// `"connection"`, `"secureConnection"`, `"request"`, `"response"`): for logs and reports.
        public var known: [(name: String, range: Range<Duration>)] {
            let all: [(String, Range<Duration>?)] = [
                ("domainLookup", domainLookup), ("connection", connection),
                ("secureConnection", secureConnection), ("request", request), ("response", response),
            ]
            return all.compactMap { name, range in range.map { (name, $0) } }
        }
    }
}
