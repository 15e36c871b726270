// swift-tools-version: 6.1
// A package that uses CoreAPI the way an app does: by path, without the AsyncHTTPClient trait. Its
// build must neither pin nor fetch any package (see ../check-consumer-resolution.sh).
import PackageDescription

let package = Package(
    name: "ConsumerResolution",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8)],
    dependencies: [
        .package(name: "CoreAPI", path: "../..")
    ],
    targets: [
        .target(
            name: "ConsumerResolution",
            dependencies: [.product(name: "CoreAPI", package: "CoreAPI")]
        )
    ],
    swiftLanguageModes: [.v6]
)
