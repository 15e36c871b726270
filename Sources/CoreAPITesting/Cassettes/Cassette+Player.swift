public import CoreAPI
public import Foundation

extension Cassette {
    /// A ``/CoreAPI/Transport`` that answers from an ``Cassette/Archive`` and never touches the network.
    ///
    /// Each request is redacted as the cassette was (``redaction``) and compared with the entries by the
    /// ``matchers``; the first unused entry every matcher agrees with answers it, and is used up, so that
    /// identical requests get the recorded responses in their recorded order. With ``Order/ordered``, the
    /// requests must come in the recorded order as well. A request no entry answers fails with
    /// ``/CoreAPI/ApiError/unknown(_:)`` whose ``/CoreAPI/ApiError/underlyingError`` is
    /// ``Cassette/Failure/noMatch(_:)``, listing the closest entries and how each differs; ``failures`` keeps it
    /// too, for a call whose error a middleware replaced.
    ///
    /// A response replays as the session would have received it: its body decoded (the archive keeps
    /// decoded bodies, so `Content-Encoding` is dropped and `Content-Length` made to fit), through the same
    /// ``/CoreAPI/ResponseCollector`` rules as every transport; a body read as it arrives goes to the
    /// options' body handler in pieces of the recorded sizes. HTTP/2 pseudo-header fields (`:status`…) of an
    /// exported file are left out.
    ///
    /// At the end of a test, ``checkAllEntriesUsed()`` fails when an entry answered nothing:
    ///
    /// ```swift
    /// let player = try Cassette.Player(contentsOf: cassetteURL)
    /// let session = ApiSession(hostProvider: hosts, transport: player)
    /// let user = try await session.perform(GetUser(id: 42))
    /// try player.checkAllEntriesUsed()
    /// ```
    public final class Player: Transport {
        /// Whether requests must come in the order the entries were recorded.
        public enum Order: Sendable, Hashable {
            /// Any order: each request takes the first unused entry that matches.
            case unordered
            /// The recorded order: each request must match the first unused entry.
            case ordered
        }

        /// The archive, as it was given.
        public let archive: Cassette.Archive
        /// The rules that decide whether an entry answers a request.
        public let matchers: [Cassette.Matcher]
        /// Whether the requests must come in the recorded order.
        public let order: Order
        /// What is hidden, in the entries and in the requests, before they are compared.
        public let redaction: Cassette.Redaction
        private let entries: [Prepared]
        private let state: LockedValue<(used: [Bool], failures: [Cassette.Failure])>

        /// Creates a player of `archive`.
        /// - Parameters:
        ///   - archive: The exchanges to answer with.
        ///   - matchers: The rules that decide whether an entry answers a request; ``Cassette/Matcher/defaults``.
        ///   - order: Whether requests must come in the recorded order; any order by default.
        ///   - redaction: What to hide in the entries and the requests before comparing them; use the one the
        ///     cassette was recorded with.
        /// - Throws: ``Cassette/Failure/unusableEntry(index:reason:)`` for the first entry that cannot be replayed.
        public init(
            archive: Cassette.Archive,
            matchers: [Cassette.Matcher] = Cassette.Matcher.defaults,
            order: Order = .unordered,
            redaction: Cassette.Redaction = Cassette.Redaction()
        ) throws {
            self.archive = archive
            self.matchers = matchers
            self.order = order
            self.redaction = redaction
            entries = try archive.log.entries.enumerated().map { index, entry in
                try Prepared(index: index, entry: redaction.redact(entry))
            }
            state = LockedValue((Array(repeating: false, count: entries.count), []))
        }

        /// Creates a player of the archive in a file.
        /// - Parameters:
        ///   - url: The HAR file.
        ///   - matchers: The rules that decide whether an entry answers a request.
        ///   - order: Whether requests must come in the recorded order.
        ///   - redaction: What to hide before comparing.
        /// - Throws: A ``Cassette/Failure``: the file unreadable, not a HAR file, or an entry that cannot be
        ///   replayed.
        public convenience init(
            contentsOf url: URL,
            matchers: [Cassette.Matcher] = Cassette.Matcher.defaults,
            order: Order = .unordered,
            redaction: Cassette.Redaction = Cassette.Redaction()
        ) throws {
            try self.init(
                archive: Cassette.Archive(contentsOf: url),
                matchers: matchers,
                order: order,
                redaction: redaction
            )
        }

        /// The entries no request used yet, as `#<number> <method> <path>`, numbered from 0 in file order.
        public var unusedEntries: [String] {
            let used = state.current.used
            return entries.filter { !used[$0.index] }.map(\.summary)
        }

        /// The requests no entry answered so far, in order.
        public var failures: [Cassette.Failure] {
            state.current.failures
        }

        /// Checks, at the end of a test, that every entry answered a request.
        /// - Throws: ``Cassette/Failure/unusedEntries(_:)`` naming those that did not.
        public func checkAllEntriesUsed() throws {
            let unused = unusedEntries
            guard unused.isEmpty else { throw Cassette.Failure.unusedEntries(unused) }
        }

        /// Answers `request` with the first unused entry that matches it.
        /// - Parameters:
        ///   - request: The request as the session built it.
        ///   - options: The limits, progress and body handler the reply is held to.
        /// - Returns: The entry's response.
        /// - Throws: ``/CoreAPI/ApiError/unknown(_:)`` with a ``Cassette/Failure`` when no entry answers, or the
        ///   entry kept only a digest of its body; ``/CoreAPI/ApiError/cancelled``, or what the collector
        ///   throws (``/CoreAPI/ApiError/responseTooLarge(limit:)``…).
        public func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
            let body = try await Self.body(of: request)
            let sent = redaction.redact(Cassette.Archive.request(request, body: body, bodyLimit: .max))
            let entry: Prepared
            switch take(sent) {
            case .success(let taken): entry = taken
            case .failure(let failure):
                state.withLock { $0.failures.append(failure) }
                throw ApiError.unknown(ApiError.UnknownFailure(failure))
            }
            guard let reply = entry.body else {
                throw ApiError.unknown(ApiError.UnknownFailure(Cassette.Failure.bodyNotRecorded(index: entry.index)))
            }
            if Task.isCancelled { throw ApiError.cancelled }
            if let reason = options.control?.endReason { throw reason }
            options.control?.touch()
            let head = ResponseHead(
                status: HTTPStatus(entry.status, reasonPhrase: entry.statusText),
                headers: entry.headers(for: reply, method: request.method, sentTo: request.url),
                url: request.url
            )
            var collector = ResponseCollector(method: request.method, options: options, decodedCodings: ["identity"])
            switch try collector.receive(head, expectedLength: Int64(reply.count)) {
            case .stream:
                for piece in entry.pieces(of: reply) {
                    if Task.isCancelled { throw ApiError.cancelled }
                    try collector.take(piece).deliver()
                    options.control?.touch()
                }
            case .collect, .skip:
                if collector.hasBody, !reply.isEmpty {
                    try collector.take(reply).deliver()
                }
            }
            return try collector.finish()
        }

        /// The first unused entry that answers `sent`, now used; or why none does.
        func take(_ sent: Cassette.Archive.Request) -> Result<Prepared, Cassette.Failure> {
            state.withLock { state in
                let unused = entries.filter { !state.used[$0.index] }
                let candidates = order == .ordered ? Array(unused.prefix(1)) : unused
                if let match = candidates.first(where: { differences(of: sent, from: $0.request).isEmpty }) {
                    state.used[match.index] = true
                    return .success(match)
                }
                var closest = entries.map { entry in
                    var differences = differences(of: sent, from: entry.request)
                    if state.used[entry.index] { differences.append("already answered an earlier request") }
                    if order == .ordered, entry.index != candidates.first?.index, !state.used[entry.index] {
                        differences.append("not the next entry in recorded order")
                    }
                    return Cassette.Failure.Candidate(
                        index: entry.index,
                        summary: entry.summary,
                        differences: differences
                    )
                }
                closest.sort { ($0.differences.count, $0.index) < ($1.differences.count, $1.index) }
                let noMatch = Cassette.Failure.NoMatch(
                    request: "\(sent.method) \(sent.url)",
                    closest: Array(closest.prefix(3))
                )
                return .failure(.noMatch(noMatch))
            }
        }

        /// How `sent` differs from `recorded`, one line per matcher that refuses it.
        private func differences(of sent: Cassette.Archive.Request, from recorded: Cassette.Archive.Request) -> [String]
        {
            matchers.compactMap { matcher in matcher.difference(recorded, sent).map { "\(matcher.name): \($0)" } }
        }

        /// The request's body bytes: in memory, read from its file, or collected from its stream.
        private static func body(of request: ApiRequest) async throws -> Data? {
            switch request.body {
            case .none: return nil
            case .data(let data): return data
            case .file(let file):
                guard let data = try? Data(contentsOf: file.url) else {
                    throw ApiError.invalidRequest(.unreadableFile(path: file.url.path))
                }
                return data
            case .stream(let stream):
                var data = Data()
                do {
                    for try await chunk in stream { data.append(chunk) }
                } catch is CancellationError {
                    throw ApiError.cancelled
                }
                return data
            }
        }
    }
}
