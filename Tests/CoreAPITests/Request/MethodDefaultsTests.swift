import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A method as short as it can be: host key, path, and a property used only in the path.
private struct GetItem: ApiMethod {
    typealias Response = Data
    @Excluded var id: Int
    var verbose = false
    var hostProviderKey: String { "api" }
    var path: String { "/items/\(id)" }
}

/// A `POST` with no `parametersEncoding`: JSON body by default.
private struct CreateItem: ApiMethod {
    typealias Response = Data
    @Excluded var shop: String
    let name: String
    let price: Int
    var hostProviderKey: String { "api" }
    var httpMethod: HTTPMethod { .post }
    var path: String { "/shops/\(shop)/items" }
}

/// Every method token with no `parametersEncoding` and one parameter.
private struct AnyMethod: ApiMethod {
    typealias Response = Data
    @Excluded var httpMethod: HTTPMethod
    let q: Int
    var hostProviderKey: String { "api" }
    var path: String { "/x" }
}

/// Names neither a path nor `urlInfo(from:)`: the host itself.
private struct Root: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
}

/// An excluded value used in a header.
private struct WithTokenHeader: ApiMethod {
    typealias Response = Data
    @Excluded var token: String
    let page: Int
    var hostProviderKey: String { "api" }
    var path: String { "/feed" }
    var headers: Headers { ["X-Token": token] }
}

@Suite(.timeLimit(.minutes(1)))
struct MethodDefaultsTests {
    let transport = StubTransport(fallback: .status(200))

    private var session: ApiSession {
        transport.makeSession(hosts: ["api": "https://api.test/v1"])
    }

    @Test func aPathPropertyBuildsTheURLAndAnExcludedPropertyIsNoParameter() async throws {
        _ = try await session.perform(GetItem(id: 7))
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://api.test/v1/items/7?verbose=false")
    }

    @Test func aPostSendsItsParametersAsJSONByDefault() async throws {
        _ = try await session.perform(CreateItem(shop: "north", name: "Lamp", price: 30))
        let request = try #require(transport.requests.first)
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "https://api.test/v1/shops/north/items")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.bodyText == #"{"name":"Lamp","price":30}"#)
    }

    @Test(arguments: [
        (HTTPMethod.get, "https://api.test/v1/x?q=1", nil),
        (.head, "https://api.test/v1/x?q=1", nil),
        (.delete, "https://api.test/v1/x?q=1", nil),
        (.post, "https://api.test/v1/x", #"{"q":1}"#),
        (.put, "https://api.test/v1/x", #"{"q":1}"#),
        (.patch, "https://api.test/v1/x", #"{"q":1}"#),
    ])
    func theDefaultEncodingFollowsTheMethod(method: HTTPMethod, url: String, body: String?) async throws {
        _ = try await session.perform(AnyMethod(httpMethod: method, q: 1))
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == url)
        #expect(request.bodyText == body)
    }

    @Test func aMethodWithNoPathGoesToTheHostItself() async throws {
        _ = try await session.perform(Root())
        #expect(transport.requests.first?.url.absoluteString == "https://api.test/v1")
    }

    @Test func anExcludedValueCanFeedAHeader() async throws {
        _ = try await session.perform(WithTokenHeader(token: "t0k", page: 2))
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://api.test/v1/feed?page=2")
        #expect(request.headers["X-Token"] == "t0k")
    }

    /// Every encoder leaves the property out, Foundation's too.
    @Test func everyEncoderLeavesAnExcludedPropertyOut() throws {
        let item = CreateItem(shop: "north", name: "Lamp", price: 30)
        let json = try JSONEncoder().encode(item)
        #expect(String(decoding: json, as: UTF8.self).contains("shop") == false)
        let jsonBody = try JSONParametersEncoder().body(for: item)
        #expect(jsonBody.map { String(decoding: $0, as: UTF8.self) } == #"{"name":"Lamp","price":30}"#)
        let query = try QueryParametersEncoder().encode(
            item,
            in: ApiRequest(url: URL(string: "https://api.test/x")!)
        )
        #expect(query.url.absoluteString == "https://api.test/x?name=Lamp&price=30")
        let form = try FormParametersEncoder().body(for: item)
        #expect(form.map { String(decoding: $0, as: UTF8.self) } == "name=Lamp&price=30")
    }

    @Test func anExcludedWrapperComparesByItsValue() {
        #expect(Excluded(wrappedValue: 3) == Excluded(wrappedValue: 3))
        #expect(Excluded(wrappedValue: 3) != Excluded(wrappedValue: 4))
    }
}
