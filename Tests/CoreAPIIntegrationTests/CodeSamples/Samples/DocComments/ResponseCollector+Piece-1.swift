// ResponseCollector+Piece.swift, sample 1: statements, in the body of a function.
import CoreAPI
import Foundation

private final class PieceSample: @unchecked Sendable {  // every access to `collector` holds `lock`
    let lock = NSLock()
    var collector = ResponseCollector(method: .get, options: TransportOptions(), decodedCodings: ["identity"])

    func sample(_ data: Data) throws -> Bool {
        let piece = try lock.withLock { try collector.take(data) }
        try piece.deliver()
        return piece.step == .more
    }
}
