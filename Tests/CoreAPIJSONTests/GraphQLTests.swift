import CoreAPI
import CoreAPIJSON
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Viewer: Decodable, Sendable, Equatable {
    let login: String
}

private struct ViewerData: Decodable, Sendable, Equatable {
    let viewer: Viewer
}

/// Variables, an operation name, and a stored property that must not be sent.
private struct GetViewer: GraphQLMethod {
    typealias ResultData = ViewerData
    let first: Int
    var hostProviderKey: String { "api" }
    var path: String { "/graphql" }
    var query: GraphQL.Query { "query Viewer($first: Int) { viewer { login } }" }
    var variables: [String: Int] { ["first": first] }
    var operationName: String? { "Viewer" }
}

/// No variables, a query from elsewhere.
private struct FromSource: GraphQLMethod {
    typealias ResultData = ViewerData
    let source: GraphQL.Query
    var hostProviderKey: String { "api" }
    var path: String { "/graphql" }
    var query: GraphQL.Query { source }
}

@Suite(.timeLimit(.minutes(1)))
struct GraphQLTests {
    let transport = StubTransport()
    var session: ApiSession { transport.makeSession(hosts: ["api": "https://api.test"]) }

    @Test func theRequestIsAJSONPostOfQueryVariablesAndOperationName() async throws {
        transport.on(.post, "/graphql", reply: .json(#"{"data":{"viewer":{"login":"ada"}}}"#))
        let data = try await session.perform(GetViewer(first: 3))
        #expect(data == ViewerData(viewer: Viewer(login: "ada")))
        let request = try #require(transport.requests.first)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(
            request.bodyText
                == #"{"operationName":"Viewer","query":"query Viewer($first: Int) { viewer { login } }","variables":{"first":3}}"#
        )
    }

    @Test func noVariablesAndNoOperationNameSendOnlyTheQuery() async throws {
        transport.on(.post, "/graphql", reply: .json(#"{"data":{"viewer":{"login":"ada"}}}"#))
        _ = try await session.perform(FromSource(source: "{ viewer { login } }"))
        #expect(transport.requests.first?.bodyText == #"{"query":"{ viewer { login } }"}"#)
    }

    @Test func aQueryFileIsReadWhenTheRequestIsBuilt() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-\(UUID()).graphql")
        try Data("{ viewer { login } }\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        transport.on(.post, "/graphql", reply: .json(#"{"data":{"viewer":{"login":"ada"}}}"#))
        _ = try await session.perform(FromSource(source: .file(file)))
        #expect(transport.requests.first?.bodyText == #"{"query":"{ viewer { login } }\n"}"#)
    }

    @Test(arguments: [
        GraphQL.Query.file(URL(fileURLWithPath: "/nonexistent/q.graphql")),
        .resource("missing", in: Bundle.main),
    ])
    func anUnreadableQueryIsATypedErrorAndNothingIsSent(query: GraphQL.Query) async throws {
        let error = await #expect(throws: ApiError.self) { try await session.perform(FromSource(source: query)) }
        guard case .invalidRequest(.unreadableFile(let path)) = error else {
            Issue.record("expected an unreadable file, got \(String(describing: error))")
            return
        }
        #expect(path.hasSuffix("q.graphql") || path == "missing.graphql")
        #expect(transport.requests.isEmpty)
    }

    @Test func aResponseWithNeitherDataNorErrorsIsAFailure() async throws {
        transport.on(.post, "/graphql", reply: .json(#"{"data":null}"#))
        let failure = await #expect(throws: GraphQL.Failure<ViewerData>.self) {
            try await session.perform(FromSource(source: "{ viewer { login } }"))
        }
        #expect(failure?.errors.isEmpty == true)
        #expect(failure?.description == "GraphQL errors (HTTP 200): no data and no errors")
    }

    @Test func errorsDecodeWithPathsLocationsAndExtensions() throws {
        let body = #"""
            {"errors":[{"message":"boom","path":["a",0,"b"],"locations":[{"line":2,"column":3}],
            "extensions":{"code":"E1"}},{"message":"plain"}],"data":{"viewer":{"login":7}}}
            """#
        let response = try JSONDecoder().decode(GraphQL.Response<ViewerData>.self, from: Data(body.utf8))
        #expect(response.data == nil)  // undecodable data beside errors is dropped, the errors kept
        #expect(response.errors.map(\.description) == ["a[0].b: boom", "plain"])
        #expect(response.errors[0].path == [.key("a"), .index(0), .key("b")])
        #expect(response.errors[0].locations == [GraphQL.Error.Location(line: 2, column: 3)])
        #expect(response.errors[0].extensions == ["code": "E1"])
        #expect(response.errors[1].path.isEmpty)
    }
}
