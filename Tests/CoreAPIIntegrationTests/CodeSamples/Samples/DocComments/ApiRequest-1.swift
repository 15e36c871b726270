// ApiRequest.swift, sample 1: statements, in the body of a function.
import CoreAPI
import Foundation

private func sample() -> ApiRequest {
    var request = ApiRequest(method: .post, url: URL(string: "https://api.example.com/items")!)
    request.headers.set("application/json", for: "Content-Type")
    request.body = .data(Data(#"{"name":"pen"}"#.utf8))
    return request
}
