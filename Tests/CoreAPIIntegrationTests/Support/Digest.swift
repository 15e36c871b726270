import Foundation

/// SHA-256 digests computed by an independent implementation (Python's `hashlib`).
enum Digest {
    static func sha256(of file: URL) throws -> String {
        try run(input: FileHandle(forReadingFrom: file))
    }

    static func sha256(of data: Data) throws -> String {
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let digest = Result {
            try run(
                input: pipe.fileHandleForReading,
                whileRunning: {
                    try writer.write(contentsOf: data)
                    try writer.close()
                }
            )
        }
        return try digest.get()
    }

    private static func run(input: FileHandle, whileRunning feed: () throws -> Void = {}) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import hashlib, sys\nh = hashlib.sha256()\nfor c in iter(lambda: sys.stdin.buffer.read(1 << 20), b''): h.update(c)\nprint(h.hexdigest())",
        ]
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        try feed()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
