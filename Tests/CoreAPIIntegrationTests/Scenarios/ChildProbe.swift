import Foundation
import Testing

/// A measurement made in a child process — this test binary running one probe suite — so the figure is
/// not mixed with the rest of the test run: the child prints one line `PROBE <number> <number> ...`.
enum ChildProbe {
    /// Whether this system reports peak memory (`/proc/self/status`).
    static var canMeasure: Bool {
        FileManager.default.fileExists(atPath: "/proc/self/status")
    }

    /// Runs the suite `suite` over `transport` in a child process with `environment` added, and returns
    /// the numbers it printed.
    static func run(suite: String, environment: [String: String], over transport: TestTransport) throws -> [Int] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--testing-library", "swift-testing", "--filter", suite]
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { $1 }
        variables[StressChild.transportVariable] = transport.rawValue
        process.environment = variables
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("PROBE ") }) else {
            throw Failure(output: text)
        }
        let numbers = line.split(separator: " ").dropFirst().compactMap { Int($0) }
        guard numbers.count == line.split(separator: " ").count - 1 else {
            throw Failure(output: text)
        }
        return numbers
    }

    /// Prints the probe's line; called in the child.
    static func report(_ numbers: Int...) {
        print("PROBE " + numbers.map(String.init).joined(separator: " "))
    }

    /// `VmHWM` from `/proc/self/status`: the peak resident set size in KiB.
    static func peakResidentKilobytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    struct Failure: Error, CustomStringConvertible {
        let output: String
        var description: String { "the probe printed no result:\n\(output.suffix(2000))" }
    }
}
