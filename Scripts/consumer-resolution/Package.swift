// swift-tools-version: 6.1
// A package that uses CoreAPI the way an app does: by path, without a trait. Its
// resolution must neither pin nor fetch any package (see ../check-consumer-resolution.sh). With
// CONSUMER_TRAITS set (names separated by commas) it enables those traits of CoreAPI instead, so the
// check can show that each trait resolves exactly the packages it is for.
import Foundation
import PackageDescription

let traits = (ProcessInfo.processInfo.environment["CONSUMER_TRAITS"] ?? "")
    .split(separator: ",")
    .map { Package.Dependency.Trait(name: String($0)) }

let package = Package(
    name: "ConsumerResolution",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [
        .package(name: "CoreAPI", path: "../..", traits: Set(traits))
    ],
    targets: [
        .target(
            name: "ConsumerResolution",
            dependencies: [.product(name: "CoreAPI", package: "CoreAPI")]
        )
    ],
    swiftLanguageModes: [.v6]
)
