// RequestBody.swift, sample 2: a member, in a method.
import CoreAPI
import Foundation

private struct PutNote: ApiMethod {
    typealias Response = EmptyResponse
    var hostProviderKey: String { "api" }
    var httpMethod: HTTPMethod { .put }
    var path: String { "/notes/1" }

    var body: RequestBody? {
        .stream(length: 11, contentType: "text/plain") {
            AsyncStream { continuation in
                continuation.yield(Data("hello ".utf8))
                continuation.yield(Data("world".utf8))
                continuation.finish()
            }
        }
    }
}
