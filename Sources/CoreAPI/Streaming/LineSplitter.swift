package import Foundation

/// Splits bytes into lines as they arrive. A line ends at LF, at CR, or at CRLF, which is one end even
/// when its two bytes arrive in different pieces; the end is not part of the line.
package struct LineSplitter: Sendable {
    private var pending: [UInt8] = []
    /// Whether the last byte seen was a CR, so an LF that follows ends nothing.
    private var afterCR = false

    /// Creates a splitter.
    package init() {}

    /// Takes the next piece, calling `line` with each line it completes, in order.
    package mutating func append(_ piece: Data, _ line: ([UInt8]) throws -> Void) rethrows {
        for byte in piece {
            if afterCR {
                afterCR = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\n"):
                try line(pending)
                pending.removeAll(keepingCapacity: true)
            case UInt8(ascii: "\r"):
                try line(pending)
                pending.removeAll(keepingCapacity: true)
                afterCR = true
            default:
                pending.append(byte)
            }
        }
    }

    /// The last line, when the input ended without a line end; `nil` when it ended with one.
    package mutating func finish() -> [UInt8]? {
        defer { pending.removeAll() }
        return pending.isEmpty ? nil : pending
    }
}
