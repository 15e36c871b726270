// ApiSession+Streaming.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample(session: ApiSession) async throws {
    let response = try await session.stream(ExportOrders())
    for try await line in response.lines {
        print(line)
    }
}
