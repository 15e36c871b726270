import CoreAPI
import Testing

struct HTTPStatusTests {
    @Test(arguments: [
        (100, HTTPStatus.Kind.informational), (199, .informational), (200, .successful), (204, .successful),
        (299, .successful), (300, .redirection), (308, .redirection), (400, .clientError), (451, .clientError),
        (499, .clientError), (500, .serverError), (599, .serverError), (99, .other), (600, .other), (0, .other),
        (-1, .other),
    ])
    func theKindIsTheClassOfTheCode(code: Int, kind: HTTPStatus.Kind) {
        #expect(HTTPStatus(code).kind == kind)
    }

    @Test(arguments: [
        (HTTPStatus.ok, "200 OK"), (.notFound, "404 Not Found"), (.contentTooLarge, "413 Content Too Large"),
        (.unprocessableContent, "422 Unprocessable Content"), (.tooManyRequests, "429 Too Many Requests"),
        (HTTPStatus(299), "299"), (HTTPStatus(440, reasonPhrase: "Session Expired"), "440 Session Expired"),
    ])
    func theDescriptionIsTheCodeAndItsPhrase(status: HTTPStatus, description: String) {
        #expect(status.description == description)
    }

    @Test func statusesAreEqualByCodeWhateverTheirPhrases() {
        let custom = HTTPStatus(404, reasonPhrase: "No Such Item")
        #expect(custom == .notFound)
        #expect(Set([custom, HTTPStatus.notFound]).count == 1)
        #expect(custom.reasonPhrase == "No Such Item")
        #expect(HTTPStatus(404).reasonPhrase == "Not Found")
        let literal: HTTPStatus = 503
        #expect(literal == .serviceUnavailable)
        #expect(HTTPStatus.ok < .created)
    }

    @Test(arguments: [(404, "not found"), (401, "client error"), (503, "server error"), (200, "other")])
    func aCodeMatchesAStatusOrAKindInASwitch(code: Int, expected: String) {
        let matched: String
        switch code {
        case HTTPStatus.notFound: matched = "not found"
        case HTTPStatus.Kind.clientError: matched = "client error"
        case HTTPStatus.Kind.serverError: matched = "server error"
        default: matched = "other"
        }
        #expect(matched == expected)
    }
}
