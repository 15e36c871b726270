// swift-tools-version: 6.1
import PackageDescription

/// Benchmarks of CoreAPI, each paired with a plain Foundation baseline measured in the same run.
///
/// Run everything with `swift package --package-path Benchmarks benchmark` from the repository root.
/// `BenchClients` holds the methods, clients and server process the suites share (no benchmark package in
/// it, so `InstructionCount` runs without the malloc interposer); `BenchSupport` the custom metrics.
/// Each benchmark suite is an executable target in `Benchmarks/<Suite>`, where the benchmark plugin
/// finds it; `BenchServer` is the loopback HTTP server the network suites start in a process of its own, and
/// `InstructionCount` performs loopback requests for `count-instructions.sh` to count under callgrind.
///
/// The clients with an observability bridge (`coreapi-stub-logging`, `-metrics`, `-tracing` over
/// StubTransport, `coreapi-ahc-logging`, `-metrics`, `-tracing` over AsyncHTTPClient) measure what each
/// bridge adds with its library's no-op backend. They come with the `Observability` trait, on by default,
/// which turns on CoreAPI's `Logging`, `Metrics` and `Tracing` traits.
///
/// The clients over AsyncHTTPClient (CoreAPI's transport and the raw baseline) come with the
/// `AsyncHTTPClient` trait, on by default. CI's gates build with the default traits: the instruction and
/// malloc bounds over AsyncHTTPClient are enforced, and so is each bridge's 1.05 bound over it where the
/// figure sits three spreads below it (`Scripts/check_instructions.py`).
///
/// The clients of a client made by swift-openapi-generator (`openapi-bridge`: through CoreAPI's
/// `ApiSessionTransport` over an `ApiSession` over CoreAPI's AsyncHTTPClient transport; `openapi-ahc`:
/// through swift-openapi-async-http-client's transport) and CoreAPI's own call of the same operation
/// (`coreapi-ahc-note`) come with the `OpenAPI` trait, on by default, which turns on CoreAPI's `OpenAPI`
/// trait. The generated client is the one CoreAPI's integration tests use: `Sources/BenchClients/Generated`
/// is a link to `Tests/CoreAPIIntegrationTests/OpenAPIBridge/Generated`, so there is one copy of it.
/// Their instruction counts are reported by a full `count-instructions.sh` run, not enforced.
let package = Package(
    name: "CoreAPIBenchmarks",
    platforms: [.macOS(.v15)],
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description: "The loopback clients over AsyncHTTPClient, raw and as CoreAPI's transport."
        ),
        .trait(
            name: "Observability",
            description: "The clients with CoreAPI's swift-log, swift-metrics and tracing bridges."
        ),
        .trait(
            name: "OpenAPI",
            description: "A generated OpenAPI client over CoreAPI's bridge and over swift-openapi-async-http-client.",
            enabledTraits: ["AsyncHTTPClient"]
        ),
        .default(enabledTraits: ["AsyncHTTPClient", "Observability", "OpenAPI"]),
    ],
    dependencies: [
        .package(
            name: "CoreAPI",
            path: "..",
            traits: [
                .trait(name: "AsyncHTTPClient", condition: .when(traits: ["AsyncHTTPClient"])),
                .trait(name: "Logging", condition: .when(traits: ["Observability"])),
                .trait(name: "Metrics", condition: .when(traits: ["Observability"])),
                .trait(name: "Tracing", condition: .when(traits: ["Observability"])),
                .trait(name: "OpenAPI", condition: .when(traits: ["OpenAPI"])),
            ]
        ),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(name: "BenchServer"),
        .target(
            name: "BenchClients",
            dependencies: [
                .product(name: "CoreAPI", package: "CoreAPI"),
                .product(name: "CoreAPIJSON", package: "CoreAPI"),
                .product(name: "CoreAPITesting", package: "CoreAPI"),
                .product(name: "CoreAPILogging", package: "CoreAPI", condition: .when(traits: ["Observability"])),
                .product(name: "CoreAPIMetrics", package: "CoreAPI", condition: .when(traits: ["Observability"])),
                .product(name: "CoreAPITracing", package: "CoreAPI", condition: .when(traits: ["Observability"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Observability"])),
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["Observability"])),
                .product(
                    name: "Tracing",
                    package: "swift-distributed-tracing",
                    condition: .when(traits: ["Observability"])
                ),
                .product(
                    name: "CoreAPIAsyncHTTPClient",
                    package: "CoreAPI",
                    condition: .when(traits: ["AsyncHTTPClient"])
                ),
                .product(
                    name: "AsyncHTTPClient",
                    package: "async-http-client",
                    condition: .when(traits: ["AsyncHTTPClient"])
                ),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(
                    name: "NIOFoundationCompat",
                    package: "swift-nio",
                    condition: .when(traits: ["AsyncHTTPClient"])
                ),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "CoreAPIOpenAPI", package: "CoreAPI", condition: .when(traits: ["OpenAPI"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["OpenAPI"])),
                .product(
                    name: "OpenAPIRuntime",
                    package: "swift-openapi-runtime",
                    condition: .when(traits: ["OpenAPI"])
                ),
                .product(
                    name: "OpenAPIAsyncHTTPClient",
                    package: "swift-openapi-async-http-client",
                    condition: .when(traits: ["OpenAPI"])
                ),
            ]
        ),
        .target(name: "BenchSupport", dependencies: [.product(name: "Benchmark", package: "benchmark")]),
        .target(name: "CallgrindMarks"),
        .executableTarget(name: "InstructionCount", dependencies: ["BenchClients", "BenchServer", "CallgrindMarks"]),
        .executableTarget(
            name: "RetainedMemory",
            dependencies: [
                "BenchClients", "BenchServer", "HeapStatistics", .product(name: "CoreAPI", package: "CoreAPI"),
            ]
        ),
        .target(name: "HeapStatistics"),
        suite("Loopback", needsServer: true),
        suite("Pipeline"),
        suite("Encoders"),
        suite("Upload", needsServer: true),
        suite("Streaming", needsServer: true),
        suite("Caching"),
    ],
    swiftLanguageModes: [.v6]
)

/// A benchmark suite: an executable target in `Benchmarks/<name>` built with the benchmark plugin.
/// Suites that talk to the loopback server depend on `BenchServer`, so building a suite builds the
/// server next to it.
func suite(_ name: String, needsServer: Bool = false) -> Target {
    var dependencies: [Target.Dependency] = [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "CoreAPI", package: "CoreAPI"),
        .product(name: "CoreAPIJSON", package: "CoreAPI"),
        "BenchClients",
        "BenchSupport",
    ]
    if needsServer {
        dependencies.append("BenchServer")
    }
    return .executableTarget(
        name: name,
        dependencies: dependencies,
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

for target in package.targets where target.name != "CallgrindMarks" {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
