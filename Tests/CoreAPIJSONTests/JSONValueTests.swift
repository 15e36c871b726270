import CoreAPI
import CoreAPIJSON
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct GetConfig: ApiMethod {
    typealias Response = JSONValue
    var hostProviderKey: String { "api" }
    var path: String { "/config" }
}

@Suite(.timeLimit(.minutes(1)))
struct JSONValueTests {
    @Test(arguments: [
        ("null", JSONValue.null), ("true", .bool(true)), ("false", .bool(false)), ("0", .integer(0)),
        ("-42", .integer(-42)), ("9007199254740993", .integer(9_007_199_254_740_993)), ("0.25", .double(0.25)),
        ("-1.5e3", .integer(-1500)), ("1e400", Optional<JSONValue>.none), (#""héllo\n""#, .string("héllo\n")),
        ("[]", .array([])),
        ("{}", .object([:])), (#"[1,"a",null,[true]]"#, [1, "a", nil, [true]] as JSONValue),
        (#"{"a":{"b":[1,2.5]}}"#, ["a": ["b": [1, 2.5]]] as JSONValue),
    ])
    func decodesEveryKindOfValue(json: String, expected: JSONValue?) throws {
        let decoded = try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        #expect(decoded == expected)
    }

    @Test(arguments: [
        (JSONValue.null, "null"), (.bool(true), "true"), (.integer(9_007_199_254_740_993), "9007199254740993"),
        (.double(0.5), "0.5"), (.string("a\"b"), #""a\"b""#), ([1, nil, "x"] as JSONValue, #"[1,null,"x"]"#),
        (["b": 1, "a": [:]] as JSONValue, #"{"a":{},"b":1}"#),
    ])
    func encodesToTheSameJSON(value: JSONValue, json: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(value), as: UTF8.self) == json)
    }

    @Test func subscriptsAndAccessorsReadNestedValues() {
        let value: JSONValue = ["limits": ["daily": 100, "ratio": 0.5], "tags": ["a", "b"], "on": true, "none": nil]
        #expect(value["limits"]?["daily"]?.intValue == 100)
        #expect(value["limits"]?["ratio"]?.doubleValue == 0.5)
        #expect(value["limits"]?["ratio"]?.intValue == nil)
        #expect(value["limits"]?["daily"]?.doubleValue == 100)
        #expect(value["tags"]?[1]?.stringValue == "b")
        #expect(value["tags"]?[2] == nil)
        #expect(value["tags"]?[-1] == nil)
        #expect(value["on"]?.boolValue == true)
        #expect(value["none"]?.isNull == true)
        #expect(value["missing"] == nil)
        #expect(value[0] == nil)
        #expect(value["tags"]?["a"] == nil)
        #expect(value["tags"]?.arrayValue?.count == 2)
        #expect(value.objectValue?.count == 4)
        #expect(JSONValue.double(3).intValue == 3)
        #expect(JSONValue.string("1").intValue == nil)
    }

    @Test func aMethodCanReturnAnyJSON() async throws {
        let transport = StubTransport()
        transport.on("/config", reply: .json(#"{"features":["a"],"version":3}"#))
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        let config = try await session.perform(GetConfig())
        #expect(config == ["features": ["a"], "version": 3])
        transport.on("/config", reply: .json("not json"))
        let error = await #expect(throws: ApiError.self) { try await session.perform(GetConfig()) }
        #expect(error?.category == .other)
    }
}
