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
/// `FormParametersEncoder.body(for:)`, `JSONParametersEncoder.body(for:)` — each made anew per call, as a
/// method's `parametersEncoding` is; the baseline is `JSONEncoder().encode(_:)`. Encoding iterations do
/// 1000 encodes (scaling factor `.kilo`), so scaled figures are per encode. Decoding goes through
/// `process(response:data:error:)`, which `ApiSession` calls for every response (status check, then
/// `JSONApiResponse` decoding), next to `JSONDecoder().decode(_:from:)`; one decode per iteration.
///
/// The JSON encoder and the decoding also have paired benchmarks, whose ratio is the figure to read: each
/// iteration alternates CoreAPI and its baseline on one thread (see ``Benchmark/measurePaired(blocks:operationsPerBlock:first:second:)``),
/// so the machine's drift, which moves two benchmarks run one after the other by up to a third here,
/// cancels out. `JSONParametersEncoder` is paired with bare `JSONEncoder()` and with a `JSONEncoder` set
/// to write what it writes: sorted keys, unescaped slashes and ISO 8601 dates.
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
    let pairedEncoding = Benchmark.Configuration.suite(
        metrics: PairedWorkMetrics.all,
        warmupIterations: 3,
        scalingFactor: .one,
        maxDuration: RunSettings.isShort ? .seconds(2) : .seconds(20),
        maxIterations: RunSettings.isShort ? 6 : 60
    )
    let pairedDecoding = Benchmark.Configuration.suite(
        metrics: PairedWorkMetrics.all,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: RunSettings.isShort ? .seconds(3) : .seconds(60),
        maxIterations: RunSettings.isShort ? 3 : 30
    )
    let model = ProfileUpdate.sample

    let encoders: [(String, @Sendable () throws -> Void)] = [
        ("query: CoreAPI QueryParametersEncoder", { blackHole(try QueryParametersEncoder().queryString(for: model)) }),
        ("form: CoreAPI FormParametersEncoder", { blackHole(try FormParametersEncoder().body(for: model)) }),
        ("json: CoreAPI JSONParametersEncoder", { blackHole(try JSONParametersEncoder().body(for: model)) }),
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

    let sameOutput = JSONEncoder()
    sameOutput.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    sameOutput.dateEncodingStrategy = .iso8601
    let jsonPairs: [(String, @Sendable () throws -> Void)] = [
        ("json pair: CoreAPI JSONParametersEncoder vs JSONEncoder", { blackHole(try JSONEncoder().encode(model)) }),
        (
            "json pair: CoreAPI JSONParametersEncoder vs JSONEncoder with the same output",
            { blackHole(try sameOutput.encode(model)) }
        ),
    ]
    for (name, baseline) in jsonPairs {
        // 1000 encodes of each per iteration, in blocks of 100.
        Benchmark(name, configuration: pairedEncoding) { benchmark in
            try benchmark.measurePaired(
                blocks: 10,
                operationsPerBlock: 100,
                first: { blackHole(try JSONParametersEncoder().body(for: model)) },
                second: baseline
            )
        }
    }

    let body = try? CatalogItem.jsonArray(count: 5000)
    let response = ResponseHead(
        status: .ok,
        headers: ["Content-Type": "application/json"],
        url: URL(string: "http://127.0.0.1/items")!
    )
    let decoders: [(String, @Sendable (Data) throws -> [CatalogItem])] = [
        (
            "decode 5000 items: CoreAPI JSONApiResponse",
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
    // Four decodes of each per iteration, one at a time.
    Benchmark(
        "decode pair: CoreAPI JSONApiResponse vs JSONDecoder (\((body?.count ?? 0) / 1024) KiB)",
        configuration: pairedDecoding
    ) { benchmark in
        guard let body else { throw BenchServerError(description: "the JSON array could not be built") }
        try benchmark.measurePaired(
            blocks: 4,
            operationsPerBlock: 1,
            first: { blackHole(try decoders[0].1(body)) },
            second: { blackHole(try decoders[1].1(body)) }
        )
    }
}
