import CoreAPI
import Testing

@Suite struct HTTPMethodTests {
    @Test(arguments: [
        (HTTPMethod.get, "GET"), (.post, "POST"), (.put, "PUT"), (.patch, "PATCH"), (.delete, "DELETE"),
        (.head, "HEAD"), (.options, "OPTIONS"), (.trace, "TRACE"), (.connect, "CONNECT"),
    ])
    func staticMembersCarryTheirTokens(method: HTTPMethod, token: String) {
        #expect(method.rawValue == token)
        #expect(method.description == token)
        #expect(method == HTTPMethod(rawValue: token))
    }

    @Test func tokensAreCaseSensitive() {
        #expect(HTTPMethod(rawValue: "get") != .get)
        #expect(HTTPMethod(rawValue: "get").prefersQueryParameters == false)
    }

    @Test(arguments: ["GET", "PROPFIND", "M-SEARCH", "x-custom_1.0", "!#$%&'*+-.^_`|~", "Z9"])
    func validTokensAreAccepted(token: String) throws {
        let method = try HTTPMethod(validating: token)
        #expect(method.rawValue == token)
        try HTTPMethod(rawValue: token).validate()
    }

    @Test(arguments: [
        "", "GET POST", "GE\r\nT", "GÉT", "(GET)", "GET\t", "GET/1", "\"GET\"", "GE:T", "G,T", "GET\0", "[GET]", "G@T",
    ])
    func invalidTokensAreRejected(token: String) {
        #expect(throws: ApiError.invalidRequest(.invalidMethod(token))) {
            try HTTPMethod(validating: token)
        }
        #expect(throws: ApiError.invalidRequest(.invalidMethod(token))) {
            try HTTPMethod(rawValue: token).validate()
        }
    }

    @Test(arguments: [
        (HTTPMethod.get, true), (.head, true), (.delete, true), (.post, false), (.put, false), (.patch, false),
        (.options, false), (.trace, false), (.connect, false), (HTTPMethod(rawValue: "PROPFIND"), false),
    ])
    func onlyGetHeadAndDeletePreferQueryParameters(method: HTTPMethod, expected: Bool) {
        #expect(method.prefersQueryParameters == expected)
    }

    @Test(arguments: [
        (HTTPMethod.get, true), (.head, true), (.options, true), (.put, true), (.delete, true), (.trace, true),
        (.post, false), (.patch, false), (.connect, false), (HTTPMethod(rawValue: "PROPFIND"), false),
    ])
    func idempotentMethodsAreRFC9110s(method: HTTPMethod, idempotent: Bool) {
        #expect(method.isIdempotent == idempotent)
    }
}
