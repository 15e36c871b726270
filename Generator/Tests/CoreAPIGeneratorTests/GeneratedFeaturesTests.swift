import CoreAPI
import CoreAPITesting
import Foundation
import Testing

@testable import GoldenFeatures

/// The module generated from Features.yaml, called through a session over a stub transport.
@Suite("Generated module: Features")
struct GeneratedFeaturesTests {
    let transport = StubTransport()
    var session: ApiSession { transport.makeSession(hosts: [FeaturesHost.key: "https://api.test/v1"]) }

    static let orderJSON = """
        {"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","status":"lost","placedAt":"2024-05-01T10:00:00Z",\
        "items":[{"sku":"A-1","quantity":2}],"self":"me","2fa-code":"123",\
        "payment":{"kind":"bank","iban":"DE00"},"shape":3}
        """

    @Test("Query, array and header parameters; an unlisted enum value and a discriminated choice decode")
    func listOrders() async throws {
        transport.on(.get, "/v1/orders", reply: .json("[\(Self.orderJSON)]"))
        let first = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
        let orders = try await session.perform(
            ListOrders(status: .placed, ids: [first, first], xRequestID: "r-1", filter: .init(min: 2))
        )
        let request = try #require(transport.requests.first)
        #expect(
            request.url.absoluteString
                == "https://api.test/v1/orders?filter%5Bmin%5D=2&ids=\(first),\(first)&status=placed"
        )
        #expect(request.headers["X-Request-ID"] == "r-1")
        #expect(orders.count == 1)
        #expect(orders[0].status == .unknown("lost"))
        #expect(orders[0].selfValue == "me")
        #expect(orders[0].value2faCode == "123")
        #expect(orders[0].payment == .bankTransfer(BankTransfer(kind: "bank", iban: "DE00")))
        #expect(orders[0].shape == .int(3))
        #expect(orders[0].items == [LineItem(sku: "A-1", quantity: 2)])
    }

    @Test("A discriminator value the document does not list is kept as it was sent")
    func unknownDiscriminator() throws {
        let payment = try JSONDecoder().decode(Payment.self, from: Data(#"{"kind":"cash","amount":3}"#.utf8))
        #expect(payment == .unknown(["kind": "cash", "amount": 3]))
        let card = try JSONDecoder().decode(Payment.self, from: Data(#"{"kind":"card","last4":"4242"}"#.utf8))
        #expect(card == .card(Card(kind: "card", last4: "4242")))
    }

    @Test("A JSON body with query parameters: the body is the model, the parameters are in the URL")
    func createOrder() async throws {
        transport.on(.post, "/v1/orders", reply: .json(Self.orderJSON, statusCode: 201))
        let order = Order(
            id: UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!,
            status: .inTransit,
            placedAt: "2024-05-01T10:00:00Z",
            items: [LineItem(sku: "A-1", quantity: 2)]
        )
        _ = try await session.perform(CreateOrder(dryRun: true, requestBody: order))
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://api.test/v1/orders?dryRun=true")
        #expect(
            request.bodyText
                == #"{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","items":[{"quantity":2,"sku":"A-1"}],"#
                + #""placedAt":"2024-05-01T10:00:00Z","status":"in-transit"}"#
        )
    }

    @Test("A status the method does not document stays the generic status error", arguments: [400, 422, 500])
    func undocumentedError(status: Int) async throws {
        transport.on(.put, "/v1/orders/7/labels", reply: .json(#"{"title":"bad labels"}"#, statusCode: status))
        await #expect {
            try await session.perform(PutLabels(orderId: "7", requestBody: PutLabels.Body(labels: ["x"])))
        } throws: { error in
            guard case .unacceptableStatus(let failure) = error as? ApiError else { return false }
            return failure.statusCode == status
        }
    }

    @Test("A map response is read through the family's JSON wrapper")
    func mapResponse() async throws {
        transport.on(.put, "/v1/orders/7/labels", reply: .json(#"{"x":2,"y":0}"#))
        let counts = try await session.perform(PutLabels(orderId: "7", requestBody: nil))
        #expect(counts.value == ["x": 2, "y": 0])
        #expect(transport.requests.first?.body == nil)
    }

    @Test("An inline response model, with a nullable choice left out")
    func inlineResponse() async throws {
        transport.on(.get, "/v1/stats", reply: .json(#"{"count":4,"lastOrder":null}"#))
        let stats = try await session.perform(GetStats())
        #expect(stats.value == GetStats.ResponseBody(count: 4, lastOrder: nil))
        #expect(stats.xTotal == nil)
    }

    @Test("Recursive models: boxed optional properties decode, and encode without a key when nil")
    func recursion() throws {
        let json = #"{"name":"leaf","owner":{"favourite":{"name":"root"},"name":"Ann"},"parent":{"name":"root"}}"#
        let leaf = try JSONDecoder().decode(Category.self, from: Data(json.utf8))
        #expect(leaf.parent == Category(name: "root", parent: nil, owner: nil))
        #expect(leaf.owner?.favourite?.name == "root")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(leaf), as: UTF8.self) == json)
        let sum = try JSONDecoder().decode(
            Expression.self,
            from: Data(#"{"left":1,"right":{"left":2,"right":3}}"#.utf8)
        )
        #expect(sum == .sum(Sum(left: .double(1), right: .sum(Sum(left: .double(2), right: .double(3))))))
    }

    @Test("A multipart body: fields and files as parts, query parameters in the URL")
    func multipartUpload() async throws {
        transport.on(.post, "/v1/upload", reply: .status(204))
        let file = Attachment(data: Data("hello".utf8), filename: "a.txt")
        _ = try await session.perform(UploadAttachment(folder: "docs", title: "Notes", file: file))
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://api.test/v1/upload?folder=docs")
        let contentType = try #require(request.headers["Content-Type"])
        #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        let body = try #require(request.bodyText)
        #expect(
            body.contains(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
                    + "Content-Type: text/plain\r\n\r\nhello\r\n"
            )
        )
        #expect(body.contains("--\(boundary)\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nNotes\r\n"))
        #expect(body.hasSuffix("--\(boundary)--\r\n"))
        #expect(!body.contains("name=\"extras\""))
    }

    @Test(
        "Each security scheme's middleware sends its credential",
        arguments: [
            (FeaturesAuth.bearer { "t0k" }, "Authorization", "Bearer t0k"),
            (FeaturesAuth.basic(user: "u", password: "p"), "Authorization", "Basic dTpw"),
            (FeaturesAuth.oauth { "abc" }, "Authorization", "Bearer abc"),
            (FeaturesAuth.apiKey { "k-1" }, "X-API-Key", "k-1"),
            (FeaturesAuth.sessionCookie { "s-1" }, "Cookie", "SESSION=s-1"),
        ]
    )
    func security(middleware: HeadersMiddleware, field: String, value: String) async throws {
        transport.on(.get, "/v1/stats", reply: .json("{}"))
        let session = transport.makeSession(hosts: [FeaturesHost.key: "https://api.test/v1"], middlewares: [middleware])
        _ = try await session.perform(GetStats())
        #expect(transport.requests.first?.headers[field] == value)
        #expect(FeaturesAuth.secretHeaderNames == ["X-API-Key"])
    }
}
