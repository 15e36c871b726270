import CoreAPI
import Foundation
import Testing

private struct Boom: Error, CustomStringConvertible {
    var description: String { "boom at $.user.id" }
}

private struct Unrelated: Error {}

/// An error whose text holds a secret.
struct LeakyError: Error, CustomStringConvertible {
    var description: String { "GET https://h/me?token=SECRET-TOKEN failed" }
}

@Suite struct ApiErrorTests {
    private static func transport(_ kind: ApiError.TransportFailure.Kind, _ code: URLError.Code) -> ApiError {
        .transport(.init(kind: kind, code: code.rawValue))
    }

    @Test(arguments: [
        (URLError.Code.cancelled, ApiError.cancelled),
        (.userCancelledAuthentication, .cancelled),
        (.timedOut, .timeout),
        (.cannotConnectToHost, transport(.cannotConnect, .cannotConnectToHost)),
        (.cannotFindHost, transport(.dns, .cannotFindHost)),
        (.dnsLookupFailed, transport(.dns, .dnsLookupFailed)),
        (.networkConnectionLost, transport(.connectionLost, .networkConnectionLost)),
        (.notConnectedToInternet, transport(.offline, .notConnectedToInternet)),
        (.secureConnectionFailed, transport(.tls, .secureConnectionFailed)),
        (.serverCertificateUntrusted, transport(.tls, .serverCertificateUntrusted)),
        (.serverCertificateHasBadDate, transport(.tls, .serverCertificateHasBadDate)),
        (.clientCertificateRequired, transport(.tls, .clientCertificateRequired)),
        (.badServerResponse, transport(.badResponse, .badServerResponse)),
        (.cannotParseResponse, transport(.badResponse, .cannotParseResponse)),
        (.unknown, transport(.other, .unknown)),
        (.badURL, transport(.other, .badURL)),
    ])
    func urlErrorsMapToStableCategories(code: URLError.Code, expected: ApiError) {
        #expect(ApiError(URLError(code)) == expected)
        #expect(ApiError(NSError(domain: NSURLErrorDomain, code: code.rawValue)) == expected)
    }

    @Test func cancellationErrorIsCancelled() {
        #expect(ApiError(CancellationError()) == .cancelled)
    }

    @Test(arguments: [
        ApiError.timeout, .cancelled, .invalidRequest(.invalidMethod("X Y")),
        .transport(.init(kind: .dns, code: -1003)), .unacceptableStatus(.init(statusCode: 500)),
    ])
    func apiErrorsPassThrough(error: ApiError) {
        #expect(ApiError(error) == error)
    }

    /// An error CoreAPI does not know is `unknown`, never a transport failure, and keeps the error.
    @Test func unknownErrorsAreNoTransportFailures() throws {
        let error = ApiError(Unrelated())
        #expect(error == .unknown(.init(Unrelated())))
        #expect(error.category == .other)
        #expect(error.underlyingError is Unrelated)
        #expect(error != .transport(.init(kind: .other)))
        #expect(ApiError.Category(error) == .other)
        let foreign = ApiError(NSError(domain: "Other", code: URLError.Code.timedOut.rawValue))
        guard case .unknown(let failure) = foreign else {
            Issue.record("\(foreign) is not unknown")
            return
        }
        #expect(failure.typeName == "NSError(domain: Other, code: -1001)")
        #expect((failure.cause as NSError).domain == "Other")
        #expect(ApiError(Boom()) != ApiError(Unrelated()))
    }

    /// A `URLError` stays the cause of its transport failure; causes are left out of `==`.
    @Test func transportFailuresKeepTheirCause() throws {
        let urlError = URLError(.cannotConnectToHost)
        let error = ApiError(urlError)
        #expect(error == .transport(.init(kind: .cannotConnect, code: urlError.code.rawValue)))
        #expect((error.underlyingError as? URLError)?.code == .cannotConnectToHost)
        let nsError = NSError(domain: NSURLErrorDomain, code: URLError.Code.networkConnectionLost.rawValue)
        #expect((ApiError(nsError).underlyingError as? NSError)?.code == nsError.code)
        #expect(
            ApiError.TransportFailure(kind: .tls, cause: Boom()) == ApiError.TransportFailure(kind: .tls, cause: nil)
        )
        #expect(ApiError.timeout.underlyingError == nil)
        #expect(ApiError.mapping(.init(typeName: "User", cause: Boom())).underlyingError is Boom)
    }

    /// Descriptions name an unknown error's type, never its text, and never a transport failure's
    /// cause, either of which may quote a URL with a token in its query.
    @Test func descriptionsNeverPrintACausesText() throws {
        let unknown = ApiError(LeakyError())
        #expect(unknown.description == "Unknown error: CoreAPITests.LeakyError")
        let url = try #require(URL(string: "https://h/me?token=SECRET-TOKEN"))
        let transport = ApiError(URLError(.cannotFindHost, userInfo: [NSURLErrorFailingURLErrorKey: url]))
        #expect(transport.description == "Transport failure: dns (URLError -1003)")
        for error in [unknown, transport] {
            #expect(!error.description.contains("SECRET"))
            #expect(!error.localizedDescription.contains("SECRET"))
            #expect(!String(describing: error).contains("SECRET"))
        }
    }

    @Test func statusFailureKeepsBodiesUpToTheLimit() {
        #expect(ApiError.StatusFailure.maximumBodySize == 65536)
        let exact = Data((0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        #expect(ApiError.StatusFailure(statusCode: 500, body: exact).body == exact)
        let small = Data("oops".utf8)
        #expect(ApiError.StatusFailure(statusCode: 500, body: small).body == small)
    }

    @Test(arguments: [65537, 100_000, 1_000_000])
    func statusFailureCapsLargerBodies(size: Int) {
        let body = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) })
        let failure = ApiError.StatusFailure(statusCode: 502, body: body)
        #expect(failure.body.count == 65536)
        #expect(failure.body == body.prefix(65536))
        #expect(failure.body.startIndex == 0)
    }

    @Test func statusFailureURLHasNoQuery() throws {
        let url = try #require(URL(string: "https://h/users/me?api_key=SECRET#top"))
        let failure = ApiError.StatusFailure(statusCode: 404, url: url)
        #expect(failure.url?.query == nil)
        #expect(failure.url?.path == "/users/me")
    }

    @Test(arguments: [
        (ApiError.invalidRequest(.unknownHostKey("api")), ApiError.Category.other),
        (.transport(.init(kind: .tls)), .network),
        (.transport(.init(kind: .offline)), .offline),
        (.timeout, .timeout),
        (.cancelled, .cancelled),
        (.unauthorized(.init(statusCode: 401)), .unauthorized),
        (.unacceptableStatus(.init(statusCode: 503)), .status),
        (.mapping(.init(typeName: "User")), .other),
        (.unknown(.init(Unrelated())), .other),
    ])
    func categoriesAreStable(error: ApiError, category: ApiError.Category) {
        #expect(error.category == category)
    }

    @Test(arguments: [
        (ApiError.unauthorized(.init(statusCode: 401)), 401 as Int?),
        (.unacceptableStatus(.init(statusCode: 503)), 503),
        (.mapping(.init(typeName: "User", statusCode: 200)), 200),
        (.mapping(.init(typeName: "User")), nil),
        (.timeout, nil),
        (.transport(.init(kind: .dns, code: -1003)), nil),
    ])
    func statusCodeComesFromTheResponse(error: ApiError, statusCode: Int?) {
        #expect(error.statusCode == statusCode)
    }

    @Test(arguments: [
        (ApiError.invalidRequest(.unknownHostKey("api")), #"Invalid request: no host for key "api""#),
        (.invalidRequest(.unknownEnvironment("qa")), #"Invalid request: no environment named "qa""#),
        (.invalidRequest(.invalidURL("bad host")), "Invalid request: invalid URL: bad host"),
        (.invalidRequest(.invalidHeader(name: "X-A")), #"Invalid request: invalid header field "X-A""#),
        (.invalidRequest(.invalidMethod("GE T")), #"Invalid request: invalid method token "GE T""#),
        (.invalidRequest(.encoding("a.b: nan")), "Invalid request: parameters could not be encoded: a.b: nan"),
        (.transport(.init(kind: .dns, code: -1003)), "Transport failure: dns (URLError -1003)"),
        (.transport(.init(kind: .other)), "Transport failure: other"),
        (.timeout, "The request timed out"),
        (.cancelled, "The request was cancelled"),
        (
            .unacceptableStatus(.init(statusCode: 500)),
            "Unacceptable status: HTTP 500 Internal Server Error, 0 body bytes"
        ),
        (.mapping(.init(typeName: "User", statusCode: 200)), "Mapping failed: could not make User (HTTP 200)"),
        (.mapping(.init(typeName: "User", cause: Boom())), "Mapping failed: could not make User: boom at $.user.id"),
    ])
    func descriptionsAreOneLine(error: ApiError, expected: String) {
        #expect(error.description == expected)
        #expect(error.errorDescription == expected)
        #expect(error.localizedDescription == expected)
    }

    @Test func statusDescriptionsNeverContainSecretsOrBodies() throws {
        let url = try #require(URL(string: "https://h/me?token=SECRET-QUERY"))
        let failure = ApiError.StatusFailure(
            statusCode: 401,
            headers: ["WWW-Authenticate": "Bearer realm=x", "Set-Cookie": "session=SECRET-COOKIE"],
            body: Data("SECRET-BODY".utf8),
            url: url
        )
        let error = ApiError.unauthorized(failure)
        #expect(error.description == "Unauthorized: HTTP 401 Unauthorized for /me, 11 body bytes")
        #expect(!error.description.contains("SECRET"))
        #expect(!String(describing: error).contains("SECRET"))
    }

    @Test func mappingFailuresCompareWithoutTheirCause() {
        let a = ApiError.MappingFailure(typeName: "User", statusCode: 200, cause: Boom())
        let b = ApiError.MappingFailure(typeName: "User", statusCode: 200, cause: nil)
        #expect(a == b)
        #expect(a != ApiError.MappingFailure(typeName: "Post", statusCode: 200))
        #expect(a != ApiError.MappingFailure(typeName: "User", statusCode: 201))
        #expect(a.cause is Boom)
    }
}
