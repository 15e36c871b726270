// JSONLines.swift, sample 1: statements, in the body of a function.
import CoreAPI
import CoreAPIJSON

private func sample(session: ApiSession) async throws {
    let response = try await session.stream(ExportOrders())
    for try await order in response.jsonLines(of: Order.self) {
        process(order)
    }
}
