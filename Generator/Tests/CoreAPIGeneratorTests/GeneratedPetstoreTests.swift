import CoreAPI
import CoreAPITesting
import Foundation
import Testing

@testable import GoldenPetstore
@testable import GoldenUspto

/// The modules generated from Petstore.yaml and Uspto.yaml, called over a stub transport.
@Suite("Generated modules: Petstore and Uspto")
struct GeneratedPetstoreTests {
    let transport = StubTransport()
    var session: ApiSession {
        transport.makeSession(hosts: [PetstoreHost.key: "https://pets.test/v1", UsptoHost.key: "https://ds.test/api"])
    }

    @Test(
        "Each method's request line and body",
        arguments: [
            (0, "GET https://pets.test/v1/pets?limit=2", ""),
            (1, "GET https://pets.test/v1/pets/a%20b", ""),
            (2, "POST https://pets.test/v1/pets", #"{"id":7,"name":"Rex"}"#),
            (3, "POST https://ds.test/api/oa/v1/records", "criteria=*%3A*&rows=10&start=0"),
        ]
    )
    func requests(index: Int, line: String, body: String) async throws {
        transport.on("*", reply: .json(#"[]"#))
        switch index {
        case 0: _ = try await session.perform(ListPets(limit: 2))
        case 1: _ = try? await session.perform(ShowPetById(petId: "a b"))
        case 2: _ = try await session.perform(CreatePets(requestBody: Pet(id: 7, name: "Rex")))
        default: _ = try await session.perform(PerformSearch(dataset: "oa", rows: 10))
        }
        let request = try #require(transport.requests.first)
        #expect("\(request.method.rawValue) \(request.url.absoluteString)" == line)
        #expect((request.bodyText ?? "") == body)
    }

    @Test("A model array response, and the common error body as the family's error")
    func responses() async throws {
        transport.on(.get, "/v1/pets", reply: .json(#"[{"id":1,"name":"Rex","tag":"dog"},{"id":2,"name":"Tom"}]"#))
        transport.on(.get, "/v1/pets/9", reply: .json(#"{"code":9,"message":"no such pet"}"#, statusCode: 404))
        let pets = try await session.perform(ListPets())
        #expect(pets.value == [Pet(id: 1, name: "Rex", tag: "dog"), Pet(id: 2, name: "Tom")])
        #expect(pets.count == 2)
        #expect(pets.xNext == nil)
        await #expect(throws: PetstoreError(status: 404, body: ErrorModel(code: 9, message: "no such pet"))) {
            try await session.perform(ShowPetById(petId: "9"))
        }
    }

    @Test("A string response read as JSON; a documented error status with a body of its own is a typed error")
    func usptoResponses() async throws {
        transport.on(.get, "/api/oa/v1/fields", reply: .json(#""title, year""#))
        transport.on(.get, "/api/oa/v2/fields", reply: .json(#""not published""#, statusCode: 404))
        transport.on(.get, "/api/oa/v3/fields", reply: .text("<html>gone</html>", statusCode: 404))
        #expect(try await session.perform(ListSearchableFields(dataset: "oa", version: "v1")).value == "title, year")
        await #expect(throws: UsptoStatusError(status: 404, body: "not published")) {
            try await session.perform(ListSearchableFields(dataset: "oa", version: "v2"))
        }
        await #expect {
            try await session.perform(ListSearchableFields(dataset: "oa", version: "v3"))
        } throws: { error in
            guard case .unacceptableStatus(let failure) = error as? ApiError else { return false }
            return failure.statusCode == 404
        }
    }

    @Test("A server's variables are filled in, with the document's defaults")
    func serverVariables() {
        #expect(UsptoHost.server() == "https://developer.example.gov/ds-api")
        #expect(UsptoHost.server(scheme: "http") == "http://developer.example.gov/ds-api")
        #expect(PetstoreHost.servers == ["http://petstore.example.com/v1"])
    }
}
