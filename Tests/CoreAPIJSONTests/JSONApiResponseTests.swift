import CoreAPI
import CoreAPIJSON
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct User: JSONApiResponse, Equatable {
    let id: Int
    let firstName: String
    let createdAt: Date

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}

private struct Plain: JSONApiResponse, Equatable {
    let id: Int
    let tags: [String]
}

/// The service module's shared error body and the family protocol that reads it.
private struct ServiceErrorBody: Decodable {
    let code: String
    let message: String
}

private struct ServiceError: Error, Equatable {
    let status: Int
    let code: String
}

private protocol ServiceResponse: JSONApiResponse {}

extension ServiceResponse {
    static func process(response: ResponseHead?, data: Data?, error: (any Error)?) -> Result<Self, any Error> {
        if let response, !(200..<300).contains(response.statusCode), let data,
            let body = try? JSONDecoder().decode(ServiceErrorBody.self, from: data)
        {
            return .failure(ServiceError(status: response.statusCode, code: body.code))
        }
        return standardProcess(response: response, data: data, error: error)
    }
}

private struct Account: ServiceResponse, Equatable {
    let balance: Int
}

private struct Get<Response: ApiResponse>: ApiMethod {
    var path: String
    var hostProviderKey: String { "api" }
    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: path)
    }
    func encode(to encoder: any Encoder) throws {}
}

@Suite(.timeLimit(.minutes(1)))
struct JSONApiResponseTests {
    let server = StubTransport()
    var session: ApiSession { server.makeSession(hosts: ["api": "https://api.test"]) }

    @Test func decodesWithThePerTypeDecoder() async throws {
        server.on("/user", reply: .json(#"{"id": 3, "first_name": "Ada", "created_at": 1700000000}"#))
        let user = try await session.perform(Get<User>(path: "/user"))
        #expect(user == User(id: 3, firstName: "Ada", createdAt: Date(timeIntervalSince1970: 1_700_000_000)))
    }

    @Test func decodesArraysOfModels() async throws {
        server.on("/list", reply: .json(#"[{"id": 1, "tags": []}, {"id": 2, "tags": ["a"]}]"#))
        let list = try await session.perform(Get<[Plain]>(path: "/list"))
        #expect(list == [Plain(id: 1, tags: []), Plain(id: 2, tags: ["a"])])
    }

    @Test func mappingFailureCarriesTheDecodingErrorAndItsPath() async throws {
        server.on("/bad", reply: .json(#"{"id": 1, "tags": ["a", 2]}"#))
        let error = await #expect(throws: ApiError.self) {
            try await session.perform(Get<Plain>(path: "/bad"))
        }
        guard case .mapping(let failure) = error else {
            Issue.record("expected mapping, got \(String(describing: error))")
            return
        }
        #expect(failure.statusCode == 200)
        #expect(failure.typeName == "Plain")
        let cause = try #require(failure.cause as? DecodingError)
        guard case .typeMismatch(_, let context) = cause else {
            Issue.record("expected typeMismatch, got \(cause)")
            return
        }
        #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["tags", "1"])
    }

    @Test func familyProcessReadsTheCommonErrorBody() async throws {
        server.on("/account", reply: .json(#"{"code": "frozen", "message": "Account frozen"}"#, statusCode: 423))
        await #expect(throws: ServiceError(status: 423, code: "frozen")) {
            try await session.perform(Get<Account>(path: "/account"))
        }
    }

    @Test func familyProcessFallsBackToTheStatusErrorForOtherBodies() async throws {
        server.on("/account", reply: .text("gateway down", statusCode: 502))
        let error = await #expect(throws: ApiError.self) {
            try await session.perform(Get<Account>(path: "/account"))
        }
        #expect(error?.statusCode == 502)
        #expect(error?.category == .status)
    }

    @Test func familyProcessDecodesSuccess() async throws {
        server.on("/account", reply: .json(#"{"balance": 42}"#))
        #expect(try await session.perform(Get<Account>(path: "/account")) == Account(balance: 42))
    }

    @Test func makeResponseReturnsNilOnFailure() throws {
        let response = ResponseHead(status: HTTPStatus(200), url: URL(string: "https://api.test")!)
        #expect(Plain.makeResponse(response: response, data: Data("{}".utf8)) == nil)
        #expect(
            Plain.makeResponse(response: response, data: Data(#"{"id":1,"tags":[]}"#.utf8)) == Plain(id: 1, tags: [])
        )
    }
}

private struct Problem: Decodable {
    let title: String
}

private struct ProblemError: Error, Equatable {
    let status: Int
    let title: String
}

private protocol ProblemResponse: JSONApiResponse {}

extension ProblemResponse {
    static func process(response: ResponseHead?, data: Data?, error: (any Error)?) -> Result<Self, any Error> {
        processErrorBody(Problem.self, response: response, data: data, error: error) { body, response in
            ProblemError(status: response.statusCode, title: body.title)
        }
    }
}

private struct Profile: ProblemResponse, Equatable {
    let title: String
}

private struct GetProfile: ApiMethod {
    typealias Response = Profile
    var acceptableStatusCodes: CallOptions.AcceptableStatusCodes = .successful
    var options: CallOptions { CallOptions(acceptableStatusCodes: acceptableStatusCodes) }
    var hostProviderKey: String { "api" }
    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/profile")
    }
    func encode(to encoder: any Encoder) throws {}
}

@Suite(.timeLimit(.minutes(1)))
struct ProcessErrorBodyTests {
    let server = StubTransport()
    var session: ApiSession { server.makeSession(hosts: ["api": "https://api.test"]) }

    @Test func unacceptableStatusWithTheSharedBodyBecomesTheModuleError() async throws {
        server.on("/profile", reply: .json(#"{"title": "Gone"}"#, statusCode: 410))
        await #expect(throws: ProblemError(status: 410, title: "Gone")) {
            try await session.perform(GetProfile())
        }
    }

    @Test func aStatusTheMethodAcceptsIsDecodedAsSuccessEvenWithTheSameShape() async throws {
        server.on("/profile", reply: .json(#"{"title": "Archived"}"#, statusCode: 410))
        let profile = try await session.perform(GetProfile(acceptableStatusCodes: [200, 410]))
        #expect(profile == Profile(title: "Archived"))
    }

    @Test func successWithTheSameShapeIsNotAnError() async throws {
        server.on("/profile", reply: .json(#"{"title": "Ada"}"#))
        #expect(try await session.perform(GetProfile()) == Profile(title: "Ada"))
    }

    @Test func otherBodiesAndTransportErrorsFallBackToApiError() async throws {
        server.on("/profile", reply: .text("<html>bad gateway</html>", statusCode: 502))
        let status = await #expect(throws: ApiError.self) { try await session.perform(GetProfile()) }
        #expect(status?.statusCode == 502)

        server.on("/profile", reply: .failure(.transport(.init(kind: .offline))))
        await #expect(
            throws: ApiError.transport(.init(kind: .offline, code: URLError.Code.notConnectedToInternet.rawValue))
        ) {
            try await session.perform(GetProfile())
        }
    }
}
