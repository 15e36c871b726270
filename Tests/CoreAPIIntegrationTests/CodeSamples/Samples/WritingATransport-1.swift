// WritingATransport.md, sample 1.
import CoreAPI
import Foundation

/// The engine's API: starts one request and calls back with the head, each body piece and the end.
protocol CallbackEngine: Sendable {
    func start(
        _ request: ApiRequest,
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
    private let options: TransportOptions
    private let url: URL
    private var collector: ResponseCollector
    private var handler: TransportOptions.BodyHandler?
    private var sawHead = false
    var continuation: CheckedContinuation<RawResponse, any Error>?

    init(request: ApiRequest, options: TransportOptions, control: ExchangeControl) {
        self.control = control
        self.options = options
        url = request.url
        collector = ResponseCollector(method: request.method, options: options, decodedCodings: ["identity"])
    }

    func head(status: Int, fields: [(String, String)]) {
        control.touch()
        let headers = Headers(fields.map { Headers.Field(name: $0.0, value: $0.1) })
        let head = ResponseHead(status: HTTPStatus(status), headers: headers, url: url)
        do {
            // `receive` may call the body handler's `accepts`, the caller's code: outside the lock.
            var collector = lock.withLock { self.collector }
            let disposition = try collector.receive(head)
            lock.withLock {
                self.collector = collector
                sawHead = true
                if case .stream(let handler) = disposition { self.handler = handler }
            }
        } catch {
            fail(error)
        }
    }

    func body(_ piece: Data) -> Bool {
        control.touch()
        do {
            lock.lock()
            let handler = self.handler
            let step: ResponseCollector.Step
            do {
                if handler != nil {
                    collector.streamed(piece.count)
                    step = .more
                } else {
                    step = try collector.append(piece)
                }
            } catch {
                lock.unlock()
                throw error
            }
            let progress = collector.progress
            lock.unlock()
            // The handler and the progress report are the caller's code: outside the lock.
            try handler?.receive(piece)
            options.progress?(progress)
            return step == .more
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
        // A connection that ends after the head has lost the rest of the body.
        let kind: ApiError.TransportFailure.Kind = lock.withLock { sawHead } ? .connectionLost : .other
        fail(ApiError.transport(.init(kind: kind, cause: error)))
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
