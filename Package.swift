// swift-tools-version: 6.1
import Foundation
import PackageDescription

let package = Package(
    name: "CoreAPI",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "CoreAPI", targets: ["CoreAPI"]),
        .library(name: "CoreAPIJSON", targets: ["CoreAPIJSON"]),
        .library(name: "CoreAPIText", targets: ["CoreAPIText"]),
        .library(name: "CoreAPITesting", targets: ["CoreAPITesting"]),
        .library(name: "CoreAPIAsyncHTTPClient", targets: ["CoreAPIAsyncHTTPClient"]),
        .library(name: "CoreAPILogging", targets: ["CoreAPILogging"]),
        .library(name: "CoreAPIMetrics", targets: ["CoreAPIMetrics"]),
        .library(name: "CoreAPITracing", targets: ["CoreAPITracing"]),
        .library(name: "CoreAPIHTTPTypes", targets: ["CoreAPIHTTPTypes"]),
        .library(name: "CoreAPIOpenAPI", targets: ["CoreAPIOpenAPI"]),
        .executable(name: "CoreAPIExample", targets: ["CoreAPIExample"]),
    ],
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description: "Builds CoreAPIAsyncHTTPClient, a transport over AsyncHTTPClient and SwiftNIO."
        ),
        .trait(name: "Logging", description: "Builds CoreAPILogging, which logs calls to a swift-log Logger."),
        .trait(
            name: "Metrics",
            description: "Builds CoreAPIMetrics, which records OpenTelemetry HTTP-client metrics with swift-metrics."
        ),
        .trait(
            name: "Tracing",
            description: "Builds CoreAPITracing, which traces calls with swift-distributed-tracing."
        ),
        .trait(
            name: "HTTPTypes",
            description: "Builds CoreAPIHTTPTypes: conversions to and from swift-http-types' request and response."
        ),
        .trait(
            name: "OpenAPI",
            description: "Builds CoreAPIOpenAPI: clients made by swift-openapi-generator run through an ApiSession.",
            enabledTraits: ["HTTPTypes"]
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        // Used only by CoreAPIAsyncHTTPClient, and only with the AsyncHTTPClient trait: without it they are
        // neither resolved nor fetched.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.30.0"),
        // Each used only by its bridge, and only with its trait (Logging, Metrics, Tracing, HTTPTypes, OpenAPI).
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.0"),
    ],
    targets: [
        .target(name: "CoreAPI"),
        .target(name: "CoreAPIJSON", dependencies: ["CoreAPI"]),
        .target(name: "CoreAPIText", dependencies: ["CoreAPI"]),
        .target(name: "CoreAPITesting", dependencies: ["CoreAPI"]),
        .target(
            name: "CoreAPIAsyncHTTPClient",
            dependencies: [
                "CoreAPI",
                .target(name: "CoreAPIZlib", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(
                    name: "AsyncHTTPClient",
                    package: "async-http-client",
                    condition: .when(traits: ["AsyncHTTPClient"])
                ),
                .product(
                    name: "NIOConcurrencyHelpers",
                    package: "swift-nio",
                    condition: .when(traits: ["AsyncHTTPClient"])
                ),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
            ]
        ),
        .target(
            name: "CoreAPILogging",
            dependencies: [
                "CoreAPI",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
            ]
        ),
        .target(
            name: "CoreAPIMetrics",
            dependencies: [
                "CoreAPI",
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
            ]
        ),
        .target(
            name: "CoreAPITracing",
            dependencies: [
                "CoreAPI",
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
            ]
        ),
        .target(
            name: "CoreAPIHTTPTypes",
            dependencies: [
                "CoreAPI",
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["HTTPTypes"])),
            ]
        ),
        .target(
            name: "CoreAPIOpenAPI",
            dependencies: [
                "CoreAPI",
                .target(name: "CoreAPIHTTPTypes", condition: .when(traits: ["OpenAPI"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["OpenAPI"])),
                .product(
                    name: "OpenAPIRuntime",
                    package: "swift-openapi-runtime",
                    condition: .when(traits: ["OpenAPI"])
                ),
            ]
        ),
        // The system's zlib, with which CoreAPIAsyncHTTPClient decodes gzip and deflate bodies.
        .systemLibrary(
            name: "CoreAPIZlib",
            providers: [.apt(["zlib1g-dev"]), .yum(["zlib-devel"]), .brew(["zlib"])]
        ),
        .executableTarget(
            name: "CoreAPIExample",
            dependencies: ["CoreAPI", "CoreAPIJSON", "CoreAPIText"],
            path: "Examples/CoreAPIExample"
        ),
        // Two modules the service-module generator wrote (its golden output, compiled here as it is, not
        // copied): the integration tests call them over every engine, against the servers their documents
        // describe.
        .target(
            name: "GeneratedItemsService",
            dependencies: ["CoreAPI", "CoreAPIJSON", "CoreAPIText"],
            path: "Generator/Tests/Goldens/ItemsService"
        ),
        .target(
            name: "GeneratedNotesService",
            dependencies: ["CoreAPI", "CoreAPIJSON", "CoreAPIText"],
            path: "Generator/Tests/Goldens/NotesService"
        ),
        .testTarget(name: "CoreAPITests", dependencies: ["CoreAPI", "CoreAPITesting"]),
        .testTarget(name: "CoreAPIJSONTests", dependencies: ["CoreAPIJSON", "CoreAPITesting"]),
        .testTarget(name: "CoreAPITextTests", dependencies: ["CoreAPIText", "CoreAPITesting"]),
        .testTarget(
            name: "CoreAPIIntegrationTests",
            dependencies: [
                "CoreAPI", "CoreAPIJSON", "CoreAPIText", "CoreAPITesting", "GeneratedItemsService",
                "GeneratedNotesService",
                .target(name: "CoreAPIAsyncHTTPClient", condition: .when(traits: ["AsyncHTTPClient"])),
                .target(name: "CoreAPILogging", condition: .when(traits: ["Logging"])),
                .target(name: "CoreAPIMetrics", condition: .when(traits: ["Metrics"])),
                .target(name: "CoreAPITracing", condition: .when(traits: ["Tracing"])),
                .target(name: "CoreAPIHTTPTypes", condition: .when(traits: ["HTTPTypes"])),
                .target(name: "CoreAPIOpenAPI", condition: .when(traits: ["OpenAPI"])),
                .product(
                    name: "OpenAPIRuntime",
                    package: "swift-openapi-runtime",
                    condition: .when(traits: ["OpenAPI"])
                ),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["OpenAPI"])),
                .product(name: "InMemoryLogging", package: "swift-log", condition: .when(traits: ["Logging"])),
                .product(name: "MetricsTestKit", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
                .product(
                    name: "InMemoryTracing",
                    package: "swift-distributed-tracing",
                    condition: .when(traits: ["Tracing"])
                ),
            ],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// CI builds this package's own targets with warnings as errors by setting COREAPI_WARNINGS_AS_ERRORS=1 for
// every command, so one debug build serves the warnings check, the README's `swift test` and the example.
// A flag on the command line (`-Xswiftc -warnings-as-errors`) would differ from the README's plain command
// and make SwiftPM rebuild everything; a manifest setting reaches only these targets, not the packages they
// depend on, and nobody who depends on CoreAPI sees it unless they set the variable themselves.
let warningsAsErrors = ProcessInfo.processInfo.environment["COREAPI_WARNINGS_AS_ERRORS"] == "1"

// COREAPI_TEST_TARGETS (a comma-separated list of test target names) keeps only those test targets: CI's
// builds that run only the integration tests (the AsyncHTTPClient trait's and the thread sanitizer's) do
// not compile the unit tests for nothing. Unset, every test target is built, as `swift test` expects.
if let kept = ProcessInfo.processInfo.environment["COREAPI_TEST_TARGETS"], !kept.isEmpty {
    let names = Set(kept.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) })
    package.targets.removeAll { $0.type == .test && !names.contains($0.name) }
    if !names.contains("CoreAPIIntegrationTests") {
        package.targets.removeAll { $0.name.hasPrefix("Generated") }
    }
}

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    if warningsAsErrors {
        settings.append(.unsafeFlags(["-warnings-as-errors"]))
    }
    target.swiftSettings = settings
}
