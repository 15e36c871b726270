import BenchClients
import BenchSupport
import Benchmark
import CoreAPI

/// The middlewares in front of the mock: none, or three that pass every request on.
enum Chain: String, CaseIterable {
    /// The mock alone.
    case mockOnly = "mock only"
    /// `HeadersMiddleware`, `LoggingMiddleware` at `.off` and `ObserverMiddleware` with a metrics closure,
    /// then the mock.
    case threePassThrough = "3 pass-through middlewares + mock"

    /// The session's middlewares, outermost first; the mock answers every `GetTinyUser` itself.
    func makeMiddlewares() -> [any Middleware] {
        let mock = MockMiddleware()
        mock.on(GetTinyUser.self, reply: .json(TinyUser.body))
        switch self {
        case .mockOnly:
            return [mock]
        case .threePassThrough:
            return [
                HeadersMiddleware(["X-Bench": "1"]),
                LoggingMiddleware(level: .off),
                ObserverMiddleware(onSuccess: { metrics in blackHole(metrics.statusCode) }),
                mock,
            ]
        }
    }
}

/// `ApiSession.perform` through the middleware chain and response processing, with `MockMiddleware` as
/// the innermost middleware standing in for the transport: no sockets. Every iteration performs 1000
/// requests (scaling factor `.kilo`), so scaled figures are per request.
///
/// `MockMiddleware` keeps every request it answers, so each iteration gets a new session and mock, made
/// and released outside the measured part.
let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration.suite(
        metrics: [.throughput, .mallocCountTotal, .cpuTotal, .wallClock, CustomMetrics.cpu, CustomMetrics.rate],
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: RunSettings.isShort ? .seconds(2) : .seconds(10),
        maxIterations: RunSettings.isShort ? 30 : 400
    )
    for chain in Chain.allCases {
        Benchmark("perform: \(chain.rawValue)", configuration: configuration) { benchmark in
            let session = ApiSession(
                hostProvider: benchHosts("http://127.0.0.1:9"),
                middlewares: chain.makeMiddlewares()
            )
            defer { session.invalidate() }
            let method = GetTinyUser()
            let count = benchmark.scaledIterations.count
            benchmark.startMeasurement()
            try await benchmark.measureOperations(count) {
                for _ in 0..<count {
                    blackHole(try await session.perform(method))
                }
            }
            benchmark.stopMeasurement()
        }
    }
}
