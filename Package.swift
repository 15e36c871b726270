// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "CoreAPI",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "CoreAPI", targets: ["CoreAPI"]),
        .library(name: "CoreAPIJSON", targets: ["CoreAPIJSON"]),
        .library(name: "CoreAPIText", targets: ["CoreAPIText"]),
        .library(name: "CoreAPITesting", targets: ["CoreAPITesting"]),
        .executable(name: "CoreAPIExample", targets: ["CoreAPIExample"]),
    ],
    targets: [
        .target(name: "CoreAPI"),
        .target(name: "CoreAPIJSON", dependencies: ["CoreAPI"]),
        .target(name: "CoreAPIText", dependencies: ["CoreAPI"]),
        .target(name: "CoreAPITesting", dependencies: ["CoreAPI"]),
        .executableTarget(
            name: "CoreAPIExample",
            dependencies: ["CoreAPI", "CoreAPIJSON", "CoreAPIText"],
            path: "Examples/CoreAPIExample"
        ),
        .testTarget(name: "CoreAPITests", dependencies: ["CoreAPI", "CoreAPITesting"]),
        .testTarget(name: "CoreAPIJSONTests", dependencies: ["CoreAPIJSON", "CoreAPITesting"]),
        .testTarget(name: "CoreAPITextTests", dependencies: ["CoreAPIText", "CoreAPITesting"]),
        .testTarget(
            name: "CoreAPIIntegrationTests",
            dependencies: ["CoreAPI", "CoreAPIJSON", "CoreAPIText", "CoreAPITesting"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
