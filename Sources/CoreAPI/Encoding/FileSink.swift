import Foundation

/// Writes to a file through a buffer, so small pieces do not each cost a system call.
struct FileSink: BodySink {
    let handle: FileHandle
    var buffer = Data()

    mutating func write(_ data: Data) throws {
        guard data.count < Self.bufferSize else {
            // Chunks of attachment files go straight to the file.
            try flush()
            try write(through: data)
            return
        }
        buffer.append(data)
        if buffer.count >= Self.bufferSize {
            try flush()
        }
    }

    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try write(through: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private static let bufferSize = 256 * 1024

    private func write(through data: Data) throws {
        do {
            try handle.write(contentsOf: data)
        } catch {
            throw ApiError.invalidRequest(.encoding("the temporary body file could not be written: \(error)"))
        }
    }
}
