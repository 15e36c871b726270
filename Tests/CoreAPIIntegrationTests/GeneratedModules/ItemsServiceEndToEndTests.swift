import CoreAPI
import Foundation
import Testing

@testable import GeneratedItemsService

/// The service module CoreAPI's generator wrote from a FastAPI app's own document
/// (`Generator/Tests/Goldens/ItemsService`), called for every operation against that app on each engine:
/// JSON bodies both ways, path, query and header parameters, a text response, an empty one, and the
/// family's error body for the statuses the document lists.
@Suite(.timeLimit(.minutes(1)))
struct ItemsServiceEndToEndTests {
    @Test(arguments: TestTransport.engines)
    func everyOperationOfTheGeneratedModuleWorksAgainstTheApp(_ transport: TestTransport) async throws {
        let app = try await ItemsAppFixture.start()
        let session = transport.makeSession(hostProvider: DictionaryHostProvider([ItemsServiceHost.key: app.base]))

        let drill = ItemCreate(kind: .tool, name: "Drill", price: 99.5, tags: ["power"])
        let created = try await session.perform(CreateItem(requestBody: drill))
        #expect(created == Item(id: 1, kind: .tool, name: "Drill", note: nil, price: 99.5, tags: ["power"]))
        _ = try await session.perform(CreateItem(requestBody: ItemCreate(kind: .part, name: "Bit", price: 2)))

        #expect(try await session.perform(GeneratedItemsService.ListItems()).map(\.name) == ["Drill", "Bit"])
        #expect(try await session.perform(GeneratedItemsService.ListItems(limit: 1)).map(\.name) == ["Drill"])
        #expect(try await session.perform(GeneratedItemsService.ListItems(tag: ["power"])).map(\.id) == [1])
        #expect(try await session.perform(GetItem(itemId: 2)).kind == .part)
        #expect(try await session.perform(GetLabel(itemId: 1)) == "Drill (tool)")

        let replaced = try await session.perform(
            ReplaceItem(itemId: 2, requestBody: ItemCreate(kind: .part, name: "Kit", note: "new", price: 5))
        )
        #expect(replaced == Item(id: 2, kind: .part, name: "Kit", note: "new", price: 5, tags: []))
        #expect(try await session.perform(EchoHeader(xTrace: "t-1")).value == ["trace": "t-1"])

        _ = try await session.perform(DeleteItem(itemId: 2))
        let missing = ItemsServiceError(status: 404, body: Problem(code: "http", message: "no item 2"))
        await #expect(throws: missing) { try await session.perform(GetItem(itemId: 2)) }
        await #expect(throws: missing) { try await session.perform(GetLabel(itemId: 2)) }
        await #expect(throws: missing) { try await session.perform(DeleteItem(itemId: 2)) }
    }
}
