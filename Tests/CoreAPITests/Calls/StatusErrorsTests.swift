import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

enum ItemError: Error, Equatable {
    case noSuchItem
    case conflict(String)
    case sessionExpired
}

/// A method with statuses of its own.
private struct GetItem: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/item" }
    var options: CallOptions {
        let fixed: CallOptions.StatusErrors = [.notFound: ItemError.noSuchItem]
        return CallOptions(
            acceptableStatusCodes: [200, 409],
            statusErrors:
                fixed
                .on(HTTPStatus(440, reasonPhrase: "Session Expired")) { _ in ItemError.sessionExpired }
                .on(.conflict) { failure in ItemError.conflict(String(decoding: failure.body, as: UTF8.self)) },
            statusMessages: [.badRequest: "The item request was refused."]
        )
    }
}

/// A method with no rules of its own.
private struct Plain: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/item" }
}

@Suite(.timeLimit(.minutes(1)))
struct StatusErrorsTests {
    let transport = StubTransport()

    private func session(messages: [HTTPStatus: String] = [:]) -> ApiSession {
        ApiSession(
            hostProvider: DictionaryHostProvider(["api": "https://api.test"]),
            transport: transport,
            defaults: CallOptions(statusMessages: messages)
        )
    }

    @Test(arguments: [
        (CannedResponse.status(404), ItemError.noSuchItem),
        (CannedResponse.status(440), .sessionExpired),
    ])
    func aListedStatusEndsWithTheMethodsError(reply: CannedResponse, expected: ItemError) async throws {
        transport.on("/item", reply: reply)
        await #expect(throws: expected) { try await session().perform(GetItem()) }
    }

    @Test func anAcceptedStatusIsNeverLookedUp() async throws {
        transport.on("/item", reply: CannedResponse.text("taken", statusCode: 409))
        #expect(try await session().perform(GetItem()) == Data("taken".utf8))
    }

    @Test func aRuleReadsTheBody() async throws {
        let literal: CallOptions.StatusErrors = [.notFound: ItemError.noSuchItem]
        #expect(!literal.isEmpty)
        #expect(CallOptions.StatusErrors().isEmpty)
        let rules = CallOptions.StatusErrors().on(.conflict) { failure in
            ItemError.conflict(String(decoding: failure.body, as: UTF8.self))
        }
        let failure = ApiError.StatusFailure(statusCode: 409, body: Data("name taken".utf8))
        #expect(rules.error(for: failure) as? ItemError == .conflict("name taken"))
        #expect(rules.error(for: ApiError.StatusFailure(statusCode: 404)) == nil)
    }

    @Test func anUnlistedStatusStaysTheGenericErrorWithTheMethodsMessage() async throws {
        transport.on("/item", reply: .status(400))
        let error = await #expect(throws: ApiError.self) {
            try await session(messages: [.badRequest: "session-wide"]).perform(GetItem())
        }
        guard case .unacceptableStatus(let failure) = error else {
            Issue.record("expected a status error, got \(String(describing: error))")
            return
        }
        #expect(failure.status == .badRequest)
        #expect(failure.message == "The item request was refused.")
        #expect(
            error?.description
                == "Unacceptable status: The item request was refused. (HTTP 400 Bad Request for /item, 0 body bytes)"
        )
    }

    @Test(arguments: [
        (400, "Check the form.", "Unacceptable status: Check the form. (HTTP 400 Bad Request for /item, 0 body bytes)"),
        (401, "Sign in again.", "Unauthorized: Sign in again. (HTTP 401 Unauthorized for /item, 0 body bytes)"),
        (503, nil, "Unacceptable status: HTTP 503 Service Unavailable for /item, 0 body bytes"),
    ])
    func theSessionsMessagesNameItsStatuses(code: Int, message: String?, description: String) async throws {
        transport.on("/item", reply: .status(code))
        let session = session(messages: [.badRequest: "Check the form.", .unauthorized: "Sign in again."])
        let error = await #expect(throws: ApiError.self) { try await session.perform(Plain()) }
        #expect(error?.statusCode == code)
        #expect(error?.description == description)
    }
}
