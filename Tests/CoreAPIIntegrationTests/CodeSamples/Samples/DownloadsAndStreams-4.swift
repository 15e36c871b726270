// DownloadsAndStreams.md, sample 4.
import CoreAPI
import CoreAPIJSON
import Foundation

struct OrderLine: Decodable, Sendable {
    let sku: String
    let quantity: Int
}

func countOrderedItems(with session: ApiSession) async throws -> Int {
    let response = try await session.stream(ListOrderLines())
    var total = 0
    for try await line in response.jsonLines(of: OrderLine.self) {
        total += line.quantity
    }
    return total
}
