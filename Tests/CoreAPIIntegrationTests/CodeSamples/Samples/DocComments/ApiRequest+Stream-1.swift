// ApiRequest+Stream.swift, sample 1: statements, in the body of a function.
import CoreAPI
import Foundation

private func sample() -> ApiRequest {
    let stream = ApiRequest.Stream(length: 11) {
        AsyncStream { continuation in
            continuation.yield(Data("hello ".utf8))
            continuation.yield(Data("world".utf8))
            continuation.finish()
        }
    }
    var request = ApiRequest(method: .put, url: URL(string: "https://api.example.com/notes/1")!)
    request.body = .stream(stream)
    return request
}
