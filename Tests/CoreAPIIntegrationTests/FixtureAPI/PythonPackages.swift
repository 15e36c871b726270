import Foundation

/// Pinned PyPI packages a loopback fixture needs, installed with pip on first use into a folder of their own
/// under `.build/test-python` of the repository — never into the system — and put on the fixture's
/// `PYTHONPATH`.
enum PythonPackages {
    /// pip could not install the packages; its output.
    struct InstallFailed: Error, CustomStringConvertible {
        let requirements: [String]
        let output: String
        var description: String { "pip could not install \(requirements.joined(separator: " ")): \(output)" }
    }

    /// The `websockets` package of the WebSocket fixture.
    static let websockets = Result { try install(["websockets==15.0.1"], into: "websockets-15.0.1") }

    /// FastAPI and uvicorn, for the FastAPI app the generated items module is called against.
    static let fastAPI = Result {
        try install(["fastapi==0.165.0", "uvicorn==0.54.0"], into: "fastapi-0.165.0-uvicorn-0.54.0")
    }

    /// The repository's folder of fixture packages.
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/test-python")

    /// Installs `requirements` into `name` below ``root`` unless an earlier run did, and returns the folder.
    /// Each set is installed once per test process: the static properties above run this once.
    private static func install(_ requirements: [String], into name: String) throws -> URL {
        let folder = root.appendingPathComponent(name)
        let marker = folder.appendingPathComponent(".installed")
        if FileManager.default.fileExists(atPath: marker.path) {
            return folder
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "python3", "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                "--no-warn-script-location", "--upgrade", "--target", folder.path,
            ] + requirements
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            throw PythonFixtureProcess.NoPython()
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw InstallFailed(requirements: requirements, output: text) }
        _ = FileManager.default.createFile(atPath: marker.path, contents: Data())
        return folder
    }
}
