// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The generator is a package of its own, so a consumer of CoreAPI's products never resolves OpenAPIKit or Yams.
let strictFlags: [SwiftSetting] =
    ProcessInfo.processInfo.environment["COREAPI_WARNINGS_AS_ERRORS"] == "1"
    ? [.unsafeFlags(["-warnings-as-errors"])] : []

// Each golden module, generated from the document of the same name in Tests/Documents (`Petstore.yaml` gives
// Tests/Goldens/Petstore), compiled as a target of its own against CoreAPI with warnings as errors. The folder
// of documents is the one list of goldens: the tests and Scripts/regenerate-goldens.sh read it too. Only its top-level
// files count: a subfolder (such as MultiFile/) holds files that a document references.
let documents = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("Tests/Documents")
let goldens = ((try? FileManager.default.contentsOfDirectory(atPath: documents.path)) ?? [])
    .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }
    .map { String($0.prefix(upTo: $0.lastIndex(of: ".")!)) }
    .sorted()
/// A generated module as a target of its own, compiled against CoreAPI with warnings as errors.
func moduleTarget(_ name: String, path: String) -> Target {
    .target(
        name: name,
        dependencies: [
            .product(name: "CoreAPI", package: "CoreAPI"),
            .product(name: "CoreAPIJSON", package: "CoreAPI"),
            .product(name: "CoreAPIText", package: "CoreAPI"),
        ],
        path: path,
        swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]
    )
}
let goldenTargets = goldens.map { moduleTarget("Golden\($0)", path: "Tests/Goldens/\($0)") }

// The modules Scripts/public-documents.sh writes from documents nobody here wrote (fetched when it runs, never
// kept in the repository), each a target of its own when present, compiled the same way as the goldens.
let publicModules = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent(".public-documents")
let publicTargets = ((try? FileManager.default.contentsOfDirectory(atPath: publicModules.path)) ?? []).sorted()
    .map { moduleTarget("Public\($0)", path: ".public-documents/\($0)") }

let package = Package(
    name: "CoreAPIGenerator",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "coreapi-generate", targets: ["coreapi-generate"]),
        .library(name: "CoreAPIGenerator", targets: ["CoreAPIGenerator"]),
        .plugin(name: "GenerateServiceModule", targets: ["GenerateServiceModule"]),
    ],
    dependencies: [
        // Without its default ExternalLoading trait, which this generator does not use and which builds slower.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0", traits: []),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(name: "CoreAPI", path: ".."),
    ],
    targets: [
        .target(
            name: "CoreAPIGenerator",
            dependencies: [
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strictFlags
        ),
        .executableTarget(name: "coreapi-generate", dependencies: ["CoreAPIGenerator"], swiftSettings: strictFlags),
        .plugin(
            name: "GenerateServiceModule",
            capability: .command(
                intent: .custom(
                    verb: "generate-service-module",
                    description: "Writes a CoreAPI service module from an OpenAPI document."
                ),
                permissions: [.writeToPackageDirectory(reason: "Writes the generated service module's sources.")]
            ),
            dependencies: ["coreapi-generate"]
        ),
        .testTarget(
            name: "CoreAPIGeneratorTests",
            dependencies: [
                "CoreAPIGenerator",
                .product(name: "CoreAPI", package: "CoreAPI"),
                .product(name: "CoreAPITesting", package: "CoreAPI"),
            ] + goldens.map { .target(name: "Golden\($0)") },
            swiftSettings: strictFlags
        ),
    ] + goldenTargets + publicTargets
)
