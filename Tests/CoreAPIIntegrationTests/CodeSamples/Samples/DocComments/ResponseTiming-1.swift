// ResponseTiming.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample(session: ApiSession) async throws {
    let page = try await session.perform(ListItems())
    if let timing = page.timing, timing.total > .seconds(2) {
        report(slow: timing)
    }
}
