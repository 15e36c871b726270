import CoreAPI
import CoreAPITesting
import Foundation
import Testing

@testable import GoldenFeatures

/// Values of the module generated from Features.yaml: integer enums, defaults, read-only and write-only
/// properties.
@Suite("Generated module: values")
struct GeneratedValuesTests {
    let transport = StubTransport()
    var session: ApiSession { transport.makeSession(hosts: [FeaturesHost.key: "https://api.test/v1"]) }

    static func order(_ fields: String) throws -> Order {
        let json = #"{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","status":"placed","placedAt":"x","items":[]"#
        return try JSONDecoder().decode(Order.self, from: Data((json + fields + "}").utf8))
    }

    static func encoded(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test(
        "An integer enum decodes its listed values as cases and any other as unknown, and encodes the number back",
        arguments: [
            (#","priority":1,"rating":-1"#, Priority.low, Order.Rating.minus1),
            (#","priority":3,"rating":0"#, Priority.high, Order.Rating.value0),
            (#","priority":7,"rating":5"#, Priority.unknown(7), Order.Rating.unknown(5)),
        ]
    )
    func integerEnum(fields: String, priority: Priority, rating: Order.Rating) throws {
        let order = try Self.order(fields)
        #expect(order.priority == priority)
        #expect(order.rating == rating)
        let json = try Self.encoded(order)
        #expect(json.contains("\"priority\":\(priority.rawValue)"))
        #expect(json.contains("\"rating\":\(rating.rawValue)"))
    }

    @Test("An integer enum in the query is sent as its number")
    func integerEnumQuery() async throws {
        transport.on(.get, "/v1/orders", reply: .json("[]"))
        _ = try await session.perform(ListOrders(xRequestID: "r", priority: .normal))
        _ = try await session.perform(ListOrders(xRequestID: "r", priority: .unknown(9)))
        let urls = transport.requests.map(\.url.absoluteString)
        #expect(urls == ["https://api.test/v1/orders?priority=2", "https://api.test/v1/orders?priority=9"])
    }
}
