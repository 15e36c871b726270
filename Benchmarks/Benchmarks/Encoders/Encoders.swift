import BenchClients
import BenchSupport
import Benchmark
import CoreAPI
import CoreAPIJSON
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Parameter encoders on a 30-field model and JSON response decoding of a large array, each CoreAPI
/// encoder or decoder next to plain Foundation where there is one.
///
/// The encoders are called through their public entry points — `QueryParametersEncoder.queryString(for:)`,
/// `FormParametersEncoder.body(for:)`, `JsonParametersEncoder.body(for:)` — each made anew per call, as a
/// method's `parametersEncoding` is; the baseline is `JSONEncoder().encode(_:)`. Encoding iterations do
/// 1000 encodes (scaling factor `.kilo`), so scaled figures are per encode. Decoding goes through
/// `process(response:data:error:)`, which `ApiSession` calls for every response (status check, then
/// `JsonApiResponse` decoding), next to `JSONDecoder().decode(_:from:)`; one decode per iteration.
let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.cpuTotal, .wallClock, .mallocCountTotal, .throughput, CustomMetrics.cpu]
    let encoding = Benchmark.Configuration.suite(
        metrics: metrics,
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: RunSettings.isShort ? .seconds(1) : .seconds(5),
        maxIterations: RunSettings.isShort ? 20 : 200
    )
    let decoding = Benchmark.Configuration.suite(
        metrics: metrics,
        warmupIterations: 2,
        scalingFactor: .one,
        maxDuration: RunSettings.isShort ? .seconds(1) : .seconds(5),
        maxIterations: RunSettings.isShort ? 20 : 200
    )
    let model = ProfileUpdate.sample

    let encoders: [(String, @Sendable () throws -> Void)] = [
        ("query: CoreAPI QueryParametersEncoder", { blackHole(try QueryParametersEncoder().queryString(for: model)) }),
        ("form: CoreAPI FormParametersEncoder", { blackHole(try FormParametersEncoder().body(for: model)) }),
        ("json: CoreAPI JsonParametersEncoder", { blackHole(try JsonParametersEncoder().body(for: model)) }),
        ("json: JSONEncoder", { blackHole(try JSONEncoder().encode(model)) }),
    ]
    for (name, encode) in encoders {
        Benchmark(name, configuration: encoding) { benchmark in
            let count = benchmark.scaledIterations.count
            try await benchmark.measureOperations(count) {
                for _ in 0..<count {
                    try encode()
                }
            }
        }
    }

    let body = try? CatalogItem.jsonArray(count: 5000)
    let response = HTTPURLResponse(
        url: URL(string: "http://127.0.0.1/items")!,
        statusCode: 200,
        httpVersion: "HTTP/1.1",
        headerFields: ["Content-Type": "application/json"]
    )!
    let decoders: [(String, @Sendable (Data) throws -> [CatalogItem])] = [
        (
            "decode 5000 items: CoreAPI JsonApiResponse",
            { try [CatalogItem].process(response: response, data: $0, error: nil).get() }
        ),
        ("decode 5000 items: JSONDecoder", { try JSONDecoder().decode([CatalogItem].self, from: $0) }),
    ]
    for (name, decode) in decoders {
        Benchmark("\(name) (\((body?.count ?? 0) / 1024) KiB)", configuration: decoding) { benchmark in
            guard let body else { throw BenchServerError(description: "the JSON array could not be built") }
            try await benchmark.measureOperations(1) {
                let items = try decode(body)
                guard items.count == 5000 else { throw BenchServerError(description: "decoded \(items.count) items") }
            }
        }
    }
}
