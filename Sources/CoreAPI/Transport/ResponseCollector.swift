public import Foundation

/// The rules every engine applies to a response as it arrives, with no I/O: a transport feeds it the
/// head and then the decoded body bytes, and does what it says.
///
/// - The head is checked before any body byte is read: `Content-Length` fields that
///   disagree or are not numbers, or a content coding the engine does not decode, fail with
///   ``ApiError/TransportFailure/Kind/badResponse``. An informational (`1xx`) head is skipped.
/// - A redirect the session may follow (`301`, `302`, `303`, `307` or `308` with a `Location` field)
///   keeps at most ``ApiError/StatusFailure/maximumBodySize`` bytes of its body, which never count against
///   the size limit; once they are kept, the engine stops reading.
/// - Any other body counts against ``TransportOptions/maximumResponseSize`` on decoded bytes as they
///   arrive — or at once, when an identity body declares a larger `Content-Length`.
/// - A response to `HEAD`, and a `204` or `304`, has no body to decode.
/// - When the options carry a ``TransportOptions/BodyHandler`` that accepts the head, the body goes to it instead;
///   how an engine waits for its reader is the engine's (it depends on what the engine can pause).
/// - Download progress is counted here. ``take(_:)`` takes each decoded piece and returns a
///   ``Piece`` whose ``Piece/deliver()`` runs the caller's code the piece owes — the body handler's call
///   and the progress report — outside the engine's locks; ``failure(endedBy:beforeHead:)`` names the
///   error for a connection that ends early. ``append(_:)-(Data)`` and ``streamed(_:)`` are the same
///   steps apart, for an engine that reports progress on its own schedule.
///
/// Modelled on a sans-I/O state machine: an engine is a thin shell that reads, feeds and obeys.
public struct ResponseCollector: Sendable {
    /// What the engine does with the body of the head it gave.
    public enum Disposition: Sendable {
        /// Read the body and ``append(_:)-(UnsafeRawBufferPointer)`` its decoded bytes.
        case collect
        /// Hand the decoded bytes to the handler (``TransportOptions/BodyHandler/receive``), telling the collector
        /// of each piece with ``streamed(_:)``.
        case stream(TransportOptions.BodyHandler)
        /// An informational head: wait for the next one.
        case skip
    }

    /// What the engine does after a piece of the body.
    public enum Step: Sendable, Equatable {
        /// Read on.
        case more
        /// Stop reading: all that is kept of the body is here (a redirect's first bytes).
        case complete
    }

    private let method: HTTPMethod
    private let limit: Int64
    let bodyHandler: TransportOptions.BodyHandler?
    /// The options' progress handler, which ``take(_:)`` hands each piece's progress to.
    let progressReport: (@Sendable (TransferProgress) -> Void)?
    private let decodedCodings: Set<String>
    private var head: ResponseHead?
    private var checks: HeadChecks?
    private var kept: Int?
    private var expectedLength: Int64?
    private var data = Data()
    private var received: Int64 = 0
    /// Whether the body goes to ``bodyHandler``: it accepted the head.
    private(set) var streamsBody = false

    /// A collector for the response to a request with `method`, under `options`' size limit and body
    /// handler.
    /// - Parameters:
    ///   - method: The request's method: a response to `HEAD` has no body.
    ///   - options: The exchange's options.
    ///   - decodedCodings: The content codings the engine decodes, lower-cased, `identity` included.
    public init(method: HTTPMethod, options: TransportOptions, decodedCodings: Set<String>) {
        self.method = method
        limit = options.maximumResponseSize
        bodyHandler = options.bodyHandler
        progressReport = options.progress
        self.decodedCodings = decodedCodings
    }

    /// Takes a response head and says what to do with its body.
    /// - Parameters:
    ///   - head: The head as the engine received it.
    ///   - expectedLength: The body length the engine itself expects, when it knows one (it counts
    ///     encoded bytes, so it decides early only for an identity body).
    /// - Returns: Whether to collect the body, hand it to a handler, or skip an informational head.
    /// - Throws: ``ApiError/TransportFailure/Kind/badResponse`` for a head whose body cannot be read
    ///   safely, ``ApiError/responseTooLarge(limit:)`` for a body declared larger than the limit, or what
    ///   the handler's ``TransportOptions/BodyHandler/accepts`` threw.
    public mutating func receive(_ head: ResponseHead, expectedLength: Int64? = nil) throws(ApiError) -> Disposition {
        if head.status.kind == .informational, head.status.code != 101 {
            return .skip
        }
        let checks = HeadChecks(head)
        self.head = head
        self.checks = checks
        self.expectedLength = expectedLength
        if let failure = checks.failure(method: method.rawValue, decodedCodings: decodedCodings) {
            throw failure
        }
        if checks.isRedirect {
            // The session follows it: only the start of its body is kept, and the size limit is not
            // reached by a body that is not read.
            kept = Int(min(Int64(HeadChecks.redirectBodyLimit), max(limit, 0)))
            return .collect
        }
        if let handler = bodyHandler {
            let accepted: Bool
            do {
                accepted = try handler.accepts(head)
            } catch {
                throw ApiError(error)
            }
            if accepted {
                streamsBody = true
                return .stream(handler)
            }
        }
        if hasBody {
            let declared = expectedLength.map { $0 > limit && checks.isIdentityEncoded } ?? false
            if declared || checks.declaresMore(than: limit) {
                throw .responseTooLarge(limit: limit)
            }
        }
        return .collect
    }

    /// Whether ``receive(_:expectedLength:)`` asks a body handler whether it takes the body: the
    /// caller's code, which an engine runs outside its own locks.
    package var asksBodyHandler: Bool {
        bodyHandler != nil
    }

    /// Whether a head that is not informational was received.
    public var hasHead: Bool {
        head != nil
    }

    /// Whether the response has a body to read and decode: not for `HEAD`, `204` or `304`.
    public var hasBody: Bool {
        guard let head else { return true }
        return method != .head && head.status.code != 204 && head.status.code != 304
    }

    /// The head's `Content-Encoding`, for the engine's decoder; `nil` when there is none, or no body.
    public var contentEncoding: String? {
        hasBody ? checks?.contentEncoding : nil
    }

    /// Adds decoded body bytes.
    /// - Parameter bytes: The next decoded bytes.
    /// - Returns: ``Step/complete`` once a redirect's kept bytes are in: the engine stops reading.
    /// - Throws: ``ApiError/responseTooLarge(limit:)`` when the body passes the size limit; what arrived
    ///   is dropped.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) throws(ApiError) -> Step {
        if let kept, data.count + bytes.count > kept {
            // A redirect's body beyond what is kept: the rest is not read.
            data.append(contentsOf: bytes.prefix(kept - data.count))
            received = Int64(data.count)
            return .complete
        }
        if Int64(data.count) + Int64(bytes.count) > limit {
            data = Data()
            throw .responseTooLarge(limit: limit)
        }
        data.append(contentsOf: bytes)
        received = Int64(data.count)
        return .more
    }

    /// Adds decoded body bytes held in a `Data`, without copying the first piece.
    /// - Parameter piece: The next decoded bytes.
    /// - Returns: As ``append(_:)-(UnsafeRawBufferPointer)``.
    /// - Throws: As ``append(_:)-(UnsafeRawBufferPointer)``.
    public mutating func append(_ piece: Data) throws(ApiError) -> Step {
        if data.isEmpty, kept == nil, Int64(piece.count) <= limit {
            data = piece  // the first piece, usually the whole body: no copy
            received = Int64(piece.count)
            return .more
        }
        let step = piece.withUnsafeBytes { bytes -> Result<Step, ApiError> in
            do throws(ApiError) {
                return .success(try append(bytes))
            } catch {
                return .failure(error)
            }
        }
        return try step.get()
    }

    /// Counts a piece handed to the body handler.
    /// - Parameter count: Its size in bytes.
    public mutating func streamed(_ count: Int) {
        received += Int64(count)
    }

    /// Download progress so far: the decoded bytes received, of the declared or expected length when
    /// there is one (`Content-Length` counts encoded bytes; a decoded body may be longer).
    public var progress: TransferProgress {
        let total = (checks?.declaredLength ?? expectedLength).map { max($0, received) }
        return TransferProgress(direction: .download, completedBytes: received, totalBytes: total)
    }

    /// The response: the head and what was collected of its body (nothing for a streamed body).
    /// - Throws: ``ApiError/TransportFailure/Kind/badResponse`` when no head was received.
    public func finish() throws(ApiError) -> RawResponse {
        guard let head else { throw .transport(.init(kind: .badResponse)) }
        return RawResponse(head: head, data: data)
    }
}
