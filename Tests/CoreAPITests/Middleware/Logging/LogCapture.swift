import CoreAPI

/// Collects the records of logging middlewares made from it.
final class LogCapture: Sendable {
    private let storage = LockedValue<[LoggingMiddleware.Record]>([])

    var records: [LoggingMiddleware.Record] { storage.current }

    /// The messages with every duration written as `N ms`.
    var messages: [String] {
        records.map { $0.message.replacing(/\d+ ms/, with: "N ms") }
    }

    func middleware(
        _ level: LoggingMiddleware.Level,
        redaction: Secrets.Redaction = Secrets.Redaction(),
        maximumBodyLength: Int = 4096
    ) -> LoggingMiddleware {
        LoggingMiddleware(level: level, redaction: redaction, maximumBodyLength: maximumBodyLength) {
            [storage] record in
            storage.withLock { $0.append(record) }
        }
    }
}
