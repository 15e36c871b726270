import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-service-module <document> <output-folder>
/// [--name <FamilyName>] [--access public|internal]`: runs `coreapi-generate` on a document of the package,
/// writing into a folder of it; every other argument is passed through as it is (`--access public` for a module
/// that is a library target).
@main
struct GenerateServiceModule: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "coreapi-generate")
        let process = Process()
        process.executableURL = tool.url
        // Relative paths are the package's, whatever folder the command was started in; an option's value stays.
        var resolved: [String] = []
        for argument in arguments {
            let isOptionValue = resolved.last?.hasPrefix("--") == true
            if isOptionValue || argument.hasPrefix("/") || argument.hasPrefix("--") {
                resolved.append(argument)
            } else {
                resolved.append(context.package.directoryURL.appendingPathComponent(argument).path)
            }
        }
        process.arguments = resolved
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("coreapi-generate exited with status \(process.terminationStatus)")
        }
    }
}
