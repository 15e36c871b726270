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

    @Test("A property with a default decodes an absent key as the default, and an initializer argument defaults to it")
    func modelDefaults() throws {
        let decoded = try JSONDecoder().decode(Settings.self, from: Data(#"{"name":"a"}"#.utf8))
        #expect(decoded == Settings(name: "a"))
        #expect(decoded.pageSize == 20)
        #expect(decoded.theme == .dark)
        #expect(decoded.notify)
        #expect(decoded.ratio == 0.5)
        #expect(decoded.tags == nil)
        #expect(decoded.nickname == nil)
        let json = #"{"name":"b","nickname":null,"notify":false,"pageSize":5,"ratio":2,"tags":["x"],"theme":"neon"}"#
        let sent = try JSONDecoder().decode(Settings.self, from: Data(json.utf8))
        #expect(
            sent
                == Settings(
                    name: "b",
                    pageSize: 5,
                    theme: .unknown("neon"),
                    notify: false,
                    ratio: 2,
                    tags: ["x"],
                    nickname: nil
                )
        )
        #expect(
            try Self.encoded(Settings(name: "a"))
                == #"{"name":"a","notify":true,"pageSize":20,"ratio":0.5,"theme":"dark"}"#
        )
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Settings.self, from: Data(#"{"pageSize":1}"#.utf8))
        }
    }

    @Test("Query and header parameters with defaults are sent with them unless set")
    func parameterDefaults() async throws {
        transport.on(.get, "/v1/settings", reply: .json(#"{"name":"a"}"#))
        let settings = try await session.perform(GetSettings())
        _ = try await session.perform(GetSettings(limit: 5, sort: .desc, xLocale: "fr"))
        #expect(settings.pageSize == 20)
        let requests = transport.requests
        #expect(
            requests.map(\.url.absoluteString) == [
                "https://api.test/v1/settings?limit=20&sort=asc", "https://api.test/v1/settings?limit=5&sort=desc",
            ]
        )
        #expect(requests.map { $0.headers["X-Locale"] } == ["en", "fr"])
    }

    @Test("Read-only properties are never sent and write-only ones are sent; a response without either decodes")
    func readOnlyAndWriteOnly() async throws {
        transport.on(.post, "/v1/accounts", reply: .json(#"{"id":"7","createdAt":"2024-05-01","name":"ann"}"#))
        let parent = Account(id: "1", createdAt: "2020", name: "root", password: nil, parent: nil)
        let account = Account(id: "ignored", createdAt: "ignored", name: "ann", password: "pw", parent: parent)
        let stored = try await session.perform(CreateAccount(requestBody: account))
        let request = try #require(transport.requests.first)
        #expect(request.bodyText == #"{"name":"ann","parent":{"name":"root"},"password":"pw"}"#)
        #expect(stored == Account(id: "7", createdAt: "2024-05-01", name: "ann", password: nil, parent: nil))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Account.self, from: Data(#"{"id":"7"}"#.utf8))
        }
    }
}
