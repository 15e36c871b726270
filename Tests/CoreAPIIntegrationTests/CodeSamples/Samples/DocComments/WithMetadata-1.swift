// WithMetadata.swift, sample 1: declarations and statements, in the body of a function.
import CoreAPI
import Foundation

private func sample(session: ApiSession) async throws -> (String?, Data) {
    struct ListItems: ApiMethod {
        typealias Response = WithMetadata<Data>
        var hostProviderKey: String { "api" }
        var path: String { "/items" }
    }

    let page = try await session.perform(ListItems())
    let next = page.headers["Link"]
    let bytes = page.value
    return (next, bytes)
}
