// DecodingResponses.md, sample 6.
import CoreAPI

func timeOrders(session: ApiSession) async throws -> Duration? {
    let page = try await session.perform(ListOrders())
    return page.timing?.exchange
}
