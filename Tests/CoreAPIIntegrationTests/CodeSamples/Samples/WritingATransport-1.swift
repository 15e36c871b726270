// WritingATransport.md, sample 1.
import CoreAPI
import Foundation

/// The engine's API: starts one request and calls back with the body bytes sent so far, the head, each
/// body piece and the end.
protocol CallbackEngine: Sendable {
    func start(
        _ request: ApiRequest,
        onSent: @escaping @Sendable (_ totalBytes: Int64) -> Void,
        onHead: @escaping @Sendable (_ status: Int, _ fields: [(String, String)]) -> Void,
        onBody: @escaping @Sendable (Data) -> Bool,
        onEnd: @escaping @Sendable ((any Error)?) -> Void
    ) -> @Sendable () -> Void
}

struct CallbackTransport: Transport {
    let engine: any CallbackEngine

    func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
        let control = ExchangeControl.for(options)
        defer { control.finish() }
        let exchange = CallbackExchange(request: request, options: options, control: control)
        return try await withCheckedThrowingContinuation { continuation in
            exchange.continuation = continuation
            let stop = engine.start(
                request,
                onSent: { total in exchange.sent(total) },
                onHead: { status, fields in exchange.head(status: status, fields: fields) },
                onBody: { piece in exchange.body(piece) },
                onEnd: { error in exchange.end(error) }
            )
            // A cancel, the idle timeout or the deadline: stop the engine and end with the reason.
            control.onEnd { reason in
                stop()
                exchange.fail(reason)
            }
        }
    }
}

/// One exchange's state; the engine calls back on its own thread.
final class CallbackExchange: @unchecked Sendable {  // every access to its state holds `lock`
    private let lock = NSLock()
    private let control: ExchangeControl
    private let url: URL
    private let bodyLength: Int64?
    private let progress: (@Sendable (TransferProgress) -> Void)?
    private var collector: ResponseCollector
    var continuation: CheckedContinuation<RawResponse, any Error>?

    init(request: ApiRequest, options: TransportOptions, control: ExchangeControl) {
        self.control = control
        url = request.url
        // A stream may not know its length; every other body does.
        bodyLength = request.body.stream == nil ? request.body.length : request.body.stream?.length
        progress = options.progress
        collector = ResponseCollector(method: request.method, options: options, decodedCodings: ["identity"])
    }

    func sent(_ total: Int64) {
        control.touch()
        // The caller's code, like the body handler: never called under the lock.
        progress?(TransferProgress(direction: .upload, completedBytes: total, totalBytes: bodyLength))
    }

    func head(status: Int, fields: [(String, String)]) {
        control.touch()
        let headers = Headers(fields.map { Headers.Field(name: $0.0, value: $0.1) })
        let head = ResponseHead(status: HTTPStatus(status), headers: headers, url: url)
        do {
            // `receive` may call the body handler's `accepts`, the caller's code: outside the lock.
            var collector = lock.withLock { self.collector }
            _ = try collector.receive(head)
            lock.withLock { self.collector = collector }
        } catch {
            fail(error)
        }
    }

    func body(_ piece: Data) -> Bool {
        control.touch()
        do {
            // The collector keeps or counts the piece under the lock; the handler and the progress
            // report it owes are the caller's code, run after.
            let taken = try lock.withLock { try collector.take(piece) }
            try taken.deliver()
            return taken.step == .more
        } catch {
            fail(error)
            return false
        }
    }

    func end(_ error: (any Error)?) {
        guard let error else {
            finish(Result { try lock.withLock { try collector.finish() } })
            return
        }
        // After the head, the rest of the body is lost: `connectionLost`, which retries may repeat.
        fail(lock.withLock { collector.failure(endedBy: error) })
    }

    func fail(_ error: any Error) {
        finish(.failure(ApiError(error)))
    }

    private func finish(_ outcome: Result<RawResponse, any Error>) {
        let waiter = lock.withLock { () -> CheckedContinuation<RawResponse, any Error>? in
            defer { continuation = nil }
            return continuation
        }
        waiter?.resume(with: outcome)
    }
}
