import CoreAPI
import CoreAPITesting
import Foundation
import GoldenPublicAccess
import Testing

/// The module generated public from PublicAccess.yaml, used as a library target's consumer would: imported
/// without `@testable`, so only its public declarations are reachable.
@Suite("Generated module: public access")
struct GeneratedPublicAccessTests {
    let transport = StubTransport()
    var session: ApiSession {
        transport.makeSession(
            hosts: [PublicAccessHost.key: "https://api.test/v1"],
            middlewares: [PublicAccessAuth.token { "t0k" }]
        )
    }

    @Test("A method, its typed output and a model are built and read from outside the module")
    func getBook() async throws {
        var headers = Headers()
        headers.set("\"3\"", for: "ETag")
        transport.on(
            .get,
            "/v1/books/*",
            reply: .json(#"{"id":"a/b","title":"Dune","format":"paper"}"#, headers: headers)
        )
        let book = try await session.perform(GetBook(id: "a/b", xTrace: "t-1"))
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://api.test/v1/books/a%2Fb")
        #expect(request.headers["X-Trace"] == "t-1")
        #expect(request.headers["Authorization"] == "Bearer t0k")
        #expect(book.value == Book(id: "a/b", title: "Dune", format: .paper))
        #expect(book.eTag == "\"3\"")
        #expect(book.title == "Dune")
        #expect(book.copies == 1)
        #expect(PublicAccessHost.server(region: "us") == "https://us.library.example.com/v1")
    }

    @Test("A JSON body leaves the read-only id out; the common error body is the family's public error")
    func putBook() async throws {
        transport.on(.put, "/v1/books/*", reply: .json(#"{"title":"no"}"#, statusCode: 409))
        let book = Book(id: "7", title: "Dune", format: .ebook, rating: .value3)
        await #expect(throws: PublicAccessError(status: 409, body: Problem(title: "no"))) {
            try await session.perform(PutBook(id: "7", notify: true, requestBody: book))
        }
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://api.test/v1/books/7?notify=true")
        #expect(request.bodyText == #"{"copies":1,"format":"ebook","rating":3,"title":"Dune"}"#)
    }

    @Test("Query parameters with a default, a choice, a JSON wrapper and a form body")
    func others() async throws {
        transport.on(.get, "/v1/search", reply: .json(#"[{"id":"1","title":"A","format":"paper"},"pamphlet"]"#))
        transport.on(.get, "/v1/shelves", reply: .json(#"["north","south"]"#))
        transport.on(.post, "/v1/shelves", reply: .status(204))
        let found = try await session.perform(Search(q: "sand"))
        #expect(found == [.book(Book(id: "1", title: "A", format: .paper)), .string("pamphlet")])
        let shelves: PublicAccessJSON<Shelves> = try await session.perform(ListShelves())
        #expect(shelves.value == ["north", "south"])
        _ = try await session.perform(AddShelf(name: "east"))
        let requests = transport.requests
        #expect(requests.first?.url.absoluteString == "https://api.test/v1/search?limit=10&q=sand")
        #expect(requests.last?.bodyText == "name=east")
    }
}
