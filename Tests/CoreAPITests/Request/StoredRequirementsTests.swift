import CoreAPI
import CoreAPITesting
import Foundation
import Testing

/// `let path = "/get"` compiles; it must not be sent as `?path=%2Fget` without a word.
private struct StoredPath: ApiMethod {
    typealias Response = Data
    let path = "/get"
    var hostProviderKey: String { "api" }
}

private struct StoredHostKey: ApiMethod {
    typealias Response = Data
    let hostProviderKey = "api"
    let q = "x"
}

private struct ExcludedPath: ApiMethod {
    typealias Response = Data
    @Excluded var path: String
    var hostProviderKey: String { "api" }
    let q: String
}

/// An API parameter that really is called `path`, beside a computed `path` requirement.
private struct ListFiles: ApiMethod {
    typealias Response = Data
    let folder: String
    var hostProviderKey: String { "api" }
    var path: String { "/files" }
    private enum CodingKeys: String, CodingKey {
        case folder = "path"
    }
}

@Suite(.timeLimit(.minutes(1)))
struct StoredRequirementsTests {
    let transport = StubTransport()
    var session: ApiSession { transport.makeSession(hosts: ["api": "https://api.test"]) }

    @Test func aStoredRequirementSentAsAParameterIsReportedAndNothingIsSent() async throws {
        transport.on("/get", reply: .text("ok"))
        await #expect(throws: ApiError.invalidRequest(.requirementSentAsParameter(property: "path"))) {
            try await session.perform(StoredPath())
        }
        await #expect(throws: ApiError.invalidRequest(.requirementSentAsParameter(property: "hostProviderKey"))) {
            try await session.perform(StoredHostKey())
        }
        #expect(transport.requests.isEmpty)
        let description = ApiError.invalidRequest(.requirementSentAsParameter(property: "path")).description
        #expect(description.contains("\"path\""))
        #expect(description.contains("@Excluded"))
    }

    @Test func anExcludedPathIsOnlyThePath() async throws {
        transport.on("/get", reply: .text("ok"))
        _ = try await session.perform(ExcludedPath(path: "/get", q: "1"))
        #expect(transport.requests.map(\.url.absoluteString) == ["https://api.test/get?q=1"])
    }

    @Test func aParameterThatReallyIsCalledPathIsSent() async throws {
        transport.on("/files", reply: .text("[]"))
        _ = try await session.perform(ListFiles(folder: "docs/a"))
        #expect(transport.requests.map(\.url.absoluteString) == ["https://api.test/files?path=docs%2Fa"])
    }
}
