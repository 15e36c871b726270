import Foundation

/// A python3 fixture script running as a child process: it reports its ports as lines such as
/// `PORT 8080` on its standard output and exits when its standard input closes, which happens when the
/// test process ends, so it never outlives the tests.
struct PythonFixtureProcess: Sendable {
    /// `python3` could not be started.
    struct NoPython: Error, CustomStringConvertible {
        var description: String { "python3 is required for the loopback fixtures; run .ci/run or install python3" }
    }

    /// The script's line did not name the port asked for.
    struct NoPort: Error, CustomStringConvertible {
        let line: String
        var description: String { "a fixture did not report its port: \(line)" }
    }

    let process: Process
    /// Held open for the life of the process: closing it ends the fixture.
    let input: Pipe
    private let output: FileHandle

    /// Starts `script` with `arguments`, and `environment` added to this process's.
    init(script: URL, arguments: [String] = [], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw NoPython()
        }
        self.process = process
        self.input = input
        self.output = output.fileHandleForReading
    }

    /// The port of the next line, which must read `<label> <port>`; stops the script otherwise.
    func port(labelled label: String) throws -> Int {
        let line = Self.readLine(from: output)
        guard line.hasPrefix(label + " "), let port = Int(line.dropFirst(label.count + 1)) else {
            process.terminate()
            throw NoPort(line: line)
        }
        return port
    }

    private static func readLine(from handle: FileHandle) -> String {
        var bytes: [UInt8] = []
        while let chunk = try? handle.read(upToCount: 1), let byte = chunk.first, byte != UInt8(ascii: "\n") {
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
