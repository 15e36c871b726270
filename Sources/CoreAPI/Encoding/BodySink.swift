import Foundation

/// Where a multipart body is written.
protocol BodySink {
    mutating func write(_ data: Data) throws
}

/// Collects a multipart body in memory.
struct MemorySink: BodySink {
    var data = Data()

    mutating func write(_ data: Data) {
        self.data.append(data)
    }
}
