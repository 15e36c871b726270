#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    public import Foundation
#endif

/// Logs every request and its outcome, with secrets redacted.
///
/// What is logged depends on ``level``:
/// - ``Level/error``: only failures — a thrown error other than cancellation (transport, timeout, an
///   invalid request a later middleware found) and a response whose status the method does not accept
///   (its ``CallOptions/acceptableStatusCodes``);
/// - ``Level/info``: one line when a request is sent and one for its response or failure, with the
///   method, the redacted URL, the status, the duration in milliseconds, the body size, the method's
///   type name and the attempt number when it is more than 1:
///   ```
///   --> POST https://api.example.com/notes (CreateNote, 24-byte body)
///   <-- 201 POST https://api.example.com/notes (CreateNote, 38 ms, 57-byte body)
///   <-- failed GET https://api.example.com/me (GetMe, attempt 2, 5 ms): The request timed out
///   ```
/// - ``Level/debug``: each record also lists the header fields, the body (at most
///   ``maximumBodyLength`` UTF-8 bytes of it, binary bodies as `<1024 bytes, image/png>`) and, for
///   requests, the cURL command (``ApiRequest/curlCommand(redaction:maximumBodyLength:)``), on indented lines.
///
/// Secrets are hidden by ``redaction`` (see ``Secrets/Redaction``), and so are the header fields and parameters
/// the session's ``SessionPolicy/secrets`` name: a name configured once is hidden in every record and
/// in the cURL line as well as stripped on redirects and kept out of the HTTP cache. A method whose ``CallOptions/isLoggingEnabled``
/// is `false` passes through without any record. Place the middleware after a retrying one to see every
/// attempt, and before one to see the call once.
///
/// ```swift
/// let logging = LoggingMiddleware(level: .debug, redaction: Secrets.Redaction(secretHeaderNames: ["X-Api-Key"])) {
///     logger.log(level: $0.level == .error ? .error : .info, "\($0.message)")
/// }
/// let session = ApiSession(hostProvider: hosts, middlewares: [logging])
/// ```
public struct LoggingMiddleware: Middleware {
    /// How much is logged; each level includes the ones before it.
    public enum Level: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
        /// Nothing.
        case off
        /// Failures only.
        case error
        /// One line per request and one per response or failure.
        case info
        /// Header fields, bodies and the cURL command as well.
        case debug

        /// Whether `lhs` logs less than `rhs`.
        public static func < (lhs: Level, rhs: Level) -> Bool {
            lhs.rawValue < rhs.rawValue
        }

        /// The level's name: `off`, `error`, `info` or `debug`.
        public var description: String {
            switch self {
            case .off: "off"
            case .error: "error"
            case .info: "info"
            case .debug: "debug"
            }
        }
    }

    /// One log entry.
    public struct Record: Sendable, Hashable {
        /// What a record is about.
        public enum Event: Sendable, Hashable {
            /// A request about to be sent.
            case request
            /// A response, whatever its status.
            case response
            /// A thrown error, cancellation included.
            case failure
        }

        /// ``Level/error`` for a failure or a response with an unacceptable status, ``Level/info``
        /// otherwise (cancellation included).
        public var level: Level
        /// What the record is about.
        public var event: Event
        /// The method's type name, as ``MiddlewareContext/methodName``.
        public var methodName: String
        /// The attempt, as ``MiddlewareContext/attempt``.
        public var attempt: Int
        /// The text: one line, followed at ``Level/debug`` by indented detail lines.
        public var message: String
        /// The request's method: `GET`; empty in a record made with ``init(level:event:methodName:attempt:message:)``.
        public var httpMethod: String = ""
        /// The request's URL as the message shows it, with its secrets redacted.
        public var url: String = ""
        /// The status, for a ``Event/response``.
        public var statusCode: Int? = nil
        /// The time from the request to its response or failure; `nil` for a ``Event/request``.
        public var duration: Duration? = nil
        /// What kind of failure the record is about: a ``Event/failure``'s, or ``ApiError/Category/status``
        /// (``ApiError/Category/unauthorized`` for `401`) for a response whose status the method does not
        /// accept; `nil` otherwise.
        public var failureCategory: ApiError.Category? = nil

        /// Creates a record.
        public init(level: Level, event: Event, methodName: String, attempt: Int, message: String) {
            self.level = level
            self.event = event
            self.methodName = methodName
            self.attempt = attempt
            self.message = message
        }
    }

    /// How much is logged.
    public let level: Level
    /// What is hidden.
    public let redaction: Secrets.Redaction
    /// The most UTF-8 bytes of a body shown at ``Level/debug``; longer bodies are cut with a note of
    /// their full size.
    public let maximumBodyLength: Int
    private let handler: @Sendable (Record) -> Void

    /// Creates a logging middleware.
    /// - Parameters:
    ///   - level: How much is logged; ``Level/info`` by default.
    ///   - redaction: What is hidden; the default ``Secrets/Redaction`` unless given.
    ///   - maximumBodyLength: The most UTF-8 bytes of a body shown at ``Level/debug``; 4 KiB by default.
    ///   - handler: Receives each record, on the task performing the request; by default the message is
    ///     printed to standard output.
    public init(
        level: Level = .info,
        redaction: Secrets.Redaction = Secrets.Redaction(),
        maximumBodyLength: Int = 4 * 1024,
        handler: @escaping @Sendable (Record) -> Void = { print($0.message) }
    ) {
        self.level = level
        self.redaction = redaction
        self.maximumBodyLength = max(0, maximumBodyLength)
        self.handler = handler
    }

    /// `true`: its handler is called without waiting, so a call with it needs no task of its own
    /// (see ``Middleware/waitsOnlyInNext``).
    public var waitsOnlyInNext: Bool { true }

    /// Logs `request`, passes it on, and logs the response or the error.
    /// - Parameters:
    ///   - request: The request as the previous steps left it.
    ///   - context: The method, used for its name, acceptable status codes and logging switch.
    ///   - next: Sends the request through the rest of the chain.
    /// - Returns: The response of `next`, unchanged.
    /// - Throws: The error of `next`, unchanged.
    public func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        guard level > .off, context.options.isLoggingEnabled else {
            return try await next(request)
        }
        // Built only when something is logged, so `.error` costs next to nothing on success.
        var entry: Entry?
        if level >= .info {
            var started = Entry(request: request, context: context, redaction: redaction)
            emit(started.requestRecord(details: level >= .debug, maximumBodyLength: maximumBodyLength))
            entry = started
        }
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Duration {
            .nanoseconds(DispatchTime.now().uptimeNanoseconds - start)
        }
        do {
            let response = try await next(request)
            let isAcceptable = context.options.acceptableStatusCodes.contains(response.statusCode)
            if level >= (isAcceptable ? .info : .error) {
                var current = entry ?? Entry(request: request, context: context, redaction: redaction)
                emit(
                    current.responseRecord(
                        response,
                        isAcceptable: isAcceptable,
                        elapsed: elapsed(),
                        details: level >= .debug,
                        maximumBodyLength: maximumBodyLength
                    )
                )
            }
            return response
        } catch {
            let current = entry ?? Entry(request: request, context: context, redaction: redaction)
            let record = current.failureRecord(error, elapsed: elapsed())
            if level >= record.level {
                emit(record)
            }
            throw error
        }
    }

    private func emit(_ record: Record) {
        handler(record)
    }
}
