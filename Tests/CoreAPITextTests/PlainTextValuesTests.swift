import CoreAPI
import CoreAPITesting
import CoreAPIText
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Count: ApiMethod {
    typealias Response = Int
    var hostProviderKey: String { "api" }
    var path: String { "/count" }
}

struct PlainTextValuesTests {
    @Test(arguments: [
        ("42", 42), (" 42\n", 42), ("-7", -7), ("+7", 7), ("0", 0), ("9223372036854775807", Int.max),
        ("9223372036854775808", nil), ("4 2", nil), ("42.0", nil), ("0x2A", nil), ("", nil), ("forty", nil),
    ])
    func integers(text: String, expected: Int?) {
        #expect(Int(text: text) == expected)
    }

    @Test(arguments: [
        ("0.25", 0.25), ("-1e3", -1000), ("3", 3), (" 2.5E-1 ", 0.25), ("1.", nil), (".5", nil), ("nan", nil),
        ("inf", nil), ("1e999", nil), ("0x1p3", nil), ("1,5", nil),
    ])
    func doubles(text: String, expected: Double?) {
        #expect(Double(text: text) == expected)
    }

    @Test(arguments: [
        ("19.99", Decimal(string: "19.99")), ("0.1", Decimal(string: "0.1")), ("-3", Decimal(-3)),
        ("12abc", nil), ("1 2", nil), ("", nil),
    ])
    func decimalsAreExact(text: String, expected: Decimal?) {
        #expect(Decimal(text: text) == expected)
    }

    @Test(arguments: [
        ("true", true), ("TRUE", true), ("1", true), ("false", false), ("False\n", false), ("0", false),
        ("yes", nil), ("2", nil), ("", nil),
    ])
    func booleans(text: String, expected: Bool?) {
        #expect(Bool(text: text) == expected)
    }

    @Test(arguments: [
        ("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")),
        ("e621e1f8-c36c-495a-93fc-0c247a3e6e5f\n", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")),
        ("E621E1F8C36C495A93FC0C247A3E6E5F", nil), ("", nil),
    ])
    func uuids(text: String, expected: UUID?) {
        #expect(UUID(text: text) == expected)
    }

    @Test(.timeLimit(.minutes(1)))
    func aMethodCanReturnANumberFromATextBody() async throws {
        let transport = StubTransport()
        transport.on("/count", reply: .text("17\n"))
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        #expect(try await session.perform(Count()) == 17)
        transport.on("/count", reply: .text("seventeen"))
        let error = await #expect(throws: ApiError.self) { try await session.perform(Count()) }
        guard case .mapping(let failure) = error else {
            Issue.record("expected a mapping error, got \(String(describing: error))")
            return
        }
        #expect(failure.cause as? Charset.DecodingError == .rejectedText)
    }
}
