import CoreAPI
import CoreAPITesting
import Foundation
import Synchronization
import Testing

/// The service's error body, as a family reads it.
private struct ShopError: Error, Equatable {
    let code: String
}

private func shopError(from body: Data) -> ShopError? {
    let text = String(decoding: body, as: UTF8.self)
    return text.hasPrefix("code=") ? ShopError(code: String(text.dropFirst(5))) : nil
}

/// A family that reads its error body in `statusError(for:)`.
private protocol ReadsInStatusError: ApiMethod {}

extension ReadsInStatusError {
    var hostProviderKey: String { "shop" }
    func statusError(for failure: ApiError.StatusFailure) -> (any Error)? { shopError(from: failure.body) }
}

private struct StatusErrorMethod: ReadsInStatusError {
    typealias Response = Data
    var path: String { "/cart" }
}

/// A family whose response types read the error body in `process`.
private struct ShopReply: ApiResponse {
    let text: String

    static func process(response: ResponseHead?, data: Data?, error: (any Error)?) -> Result<Self, any Error> {
        if let response, !(200..<300).contains(response.statusCode), let body = data,
            let failure = shopError(from: body)
        {
            return .failure(failure)
        }
        if let error { return .failure(error) }
        guard let response, let data, let reply = makeResponse(response: response, data: data) else {
            return .failure(ApiError.unacceptableStatus(.init(statusCode: response?.statusCode ?? 0)))
        }
        return .success(reply)
    }

    static func makeResponse(response: ResponseHead, data: Data) -> Self? {
        ApiError(unacceptable: response, body: data) == nil
            ? ShopReply(text: String(decoding: data, as: UTF8.self)) : nil
    }
}

private struct ProcessMethod: ApiMethod {
    typealias Response = ShopReply
    var hostProviderKey: String { "shop" }
    var path: String { "/cart" }
}

/// A method that names the status in its own status errors.
private struct StatusErrorsMethod: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "shop" }
    var path: String { "/cart" }
    var options: CallOptions {
        CallOptions(
            statusErrors: CallOptions.StatusErrors().on(.unauthorized) {
                shopError(from: $0.body) ?? ShopError(code: "none")
            }
        )
    }
}

@Suite(.timeLimit(.minutes(1)))
struct RejectedCredentialTests {
    enum Reader: String, CaseIterable {
        case statusError, process, statusErrors
    }

    let transport = StubTransport()

    private func perform(_ reader: Reader, on session: ApiSession) async throws {
        switch reader {
        case .statusError: _ = try await session.perform(StatusErrorMethod())
        case .process: _ = try await session.perform(ProcessMethod())
        case .statusErrors: _ = try await session.perform(StatusErrorsMethod())
        }
    }

    /// A `401` is `ApiError.unauthorized` whichever way the service reads its error body, with the
    /// service's error kept beside it; and `UnauthorizedMiddleware` sees it.
    @Test(arguments: Reader.allCases)
    func a401WithTheServicesErrorBodyIsUnauthorized(reader: Reader) async throws {
        transport.on("/cart", reply: .text("code=expired", statusCode: 401))
        let seen = LockedCount()
        let session = transport.makeSession(
            hosts: ["shop": "https://shop.test"],
            middlewares: [UnauthorizedMiddleware { _, _ in seen.increment() }]
        )
        do {
            try await perform(reader, on: session)
            Issue.record("no error")
        } catch ApiError.unauthorized(let failure) {
            #expect(failure.statusCode == 401)
            #expect(failure.serviceError as? ShopError == ShopError(code: "expired"))
            #expect(failure.description.contains("ShopError"))
            #expect(!failure.description.contains("expired"))
        }
        #expect(seen.value == 1)
    }

    /// Any other status stays the service's own error.
    @Test(arguments: Reader.allCases.filter { $0 != .statusErrors })
    func anotherStatusStaysTheServicesError(reader: Reader) async throws {
        transport.on("/cart", reply: .text("code=sold-out", statusCode: 409))
        let session = transport.makeSession(hosts: ["shop": "https://shop.test"])
        await #expect(throws: ShopError(code: "sold-out")) { try await perform(reader, on: session) }
    }
}

private final class LockedCount: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
