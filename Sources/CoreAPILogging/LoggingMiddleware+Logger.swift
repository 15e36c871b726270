#if Logging
    public import CoreAPI
    public import Logging

    extension LoggingMiddleware {
        /// Creates a logging middleware that writes each record to `logger`, with its facts as metadata;
        /// build with the package's `Logging` trait to get it.
        ///
        /// Each ``LoggingMiddleware/Record`` becomes one `Logger` record: a request at `.debug`, a
        /// response at `.info`, a response whose status the method does not accept at `.warning`, a
        /// failure at `.error` (a cancellation at `.info`). So a logger at `.info` gets one record per
        /// attempt — place the middleware after a retrying one to see each attempt, before it to see the
        /// call once. The message is the record's text; the metadata holds:
        /// - `coreapi.method`: the method's type name (`GetUser`);
        /// - `http.request.method`, `url.full` (with secrets redacted, as in the message) and
        ///   `coreapi.attempt`;
        /// - for a response, `http.response.status_code`; for a response or a failure,
        ///   `coreapi.duration` in seconds (`0.038`);
        /// - for a failure or an unacceptable status, `error.type`: its
        ///   ``ApiError/Category`` (`timeout`, `network`, `status`, …).
        ///
        /// Secrets are hidden as in every record (see ``LoggingMiddleware``): no header value and no
        /// secret parameter reaches the metadata. Trace and span identifiers come from the logger's own
        /// `Logger.MetadataProvider` — a tracer's, such as swift-otel's — since the records are written
        /// inside the call's span when the middleware sits after a `TracingMiddleware`.
        ///
        /// Records the logger would drop at its level are not made at all: with the logger at `.info`, the
        /// details of ``Level/debug`` are left out, and a logger at `.critical` logs nothing.
        ///
        /// ```swift
        /// let logging = LoggingMiddleware(logger: Logger(label: "api"))
        /// ```
        /// - Parameters:
        ///   - logger: Where the records go.
        ///   - level: How much is logged; ``Level/debug`` adds the requests' records, header fields and
        ///     bodies. ``Level/info`` by default.
        ///   - redaction: What is hidden besides the session's secrets; the default ``Secrets/Redaction``
        ///     unless given.
        ///   - maximumBodyLength: The most UTF-8 bytes of a body shown at ``Level/debug``; 4 KiB by default.
        public init(
            logger: Logger,
            level: Level = .info,
            redaction: Secrets.Redaction = Secrets.Redaction(),
            maximumBodyLength: Int = 4 * 1024
        ) {
            self.init(
                level: min(level, Self.mostDetailedLevel(for: logger.logLevel)),
                redaction: redaction,
                maximumBodyLength: maximumBodyLength
            ) { record in
                logger.log(
                    level: Self.loggerLevel(of: record),
                    "\(record.message)",
                    metadata: Self.metadata(of: record)
                )
            }
        }

        /// The most detailed level whose records `logger` at `loggerLevel` keeps: records it would drop
        /// are then not even made, so a logger that keeps nothing (a level of `.critical`, as swift-log's
        /// no-op handler has) costs a call next to nothing. The logger's level is read once, when the
        /// middleware is made.
        static func mostDetailedLevel(for loggerLevel: Logger.Level) -> Level {
            switch loggerLevel {
            case .trace, .debug: .debug
            case .info: .info
            // Unacceptable statuses (`.warning`) and failures (`.error`): what `Level.error` makes.
            case .notice, .warning, .error: .error
            case .critical: .off
            }
        }

        /// The `Logger` level of `record`.
        static func loggerLevel(of record: Record) -> Logger.Level {
            switch record.event {
            case .request:
                return .debug
            case .response:
                return record.failureCategory == nil ? .info : .warning
            case .failure:
                return record.failureCategory == .cancelled ? .info : .error
            }
        }

        /// The structured facts of `record`.
        static func metadata(of record: Record) -> Logger.Metadata {
            var metadata: Logger.Metadata = [
                "coreapi.method": .string(record.methodName),
                "coreapi.attempt": .string(String(record.attempt)),
                "http.request.method": .string(record.httpMethod),
                "url.full": .string(record.url),
            ]
            if let statusCode = record.statusCode {
                metadata["http.response.status_code"] = .string(String(statusCode))
            }
            if let duration = record.duration {
                let (seconds, attoseconds) = duration.components
                metadata["coreapi.duration"] = .string(String(Double(seconds) + Double(attoseconds) / 1e18))
            }
            if let category = record.failureCategory {
                metadata["error.type"] = .string(String(describing: category))
            }
            return metadata
        }
    }
#endif
