// Fuzz target for the query and form encoders: `QueryParametersEncoder`, `FormParametersEncoder`, `QueryString`
// and `PercentEncoding` (Sources/CoreAPI/Encoding/QueryString.swift and neighbours).
//
// Input: tokens separated by 0xFF (see FuzzSupport.swift). Token 0 holds option bytes:
//   [0] array encoding: brackets, repeated key, indexed, comma-separated
//   [1] bool encoding: literal or numeric
//   [2] which URLQueryItem values are nil in the `QueryString.encode([URLQueryItem])` check (bit mask)
// then the top-level object: key token, value token, key token, value token, ... A value token is
//   `{` (an object: key/value tokens up to a `}` token), `[` (an array: value tokens up to a `]` token),
//   `n` (null), `t` / `f` (booleans), `#` followed by digits (an integer), or any other bytes (a string).
// Nesting is limited to 4 levels; duplicate keys in an object (by `String` equality) are skipped.
//
// Properties, for RFC 3986 query strings and for form bodies with `+` and with `%20` for spaces:
// - the output holds only unreserved characters, `%XX` escapes with upper-case hex, `=`, `&` and `,`
//   (brackets only as `%5B`/`%5D`); a form body may also hold `*` and (with `+` spaces) `+`, never `~`;
// - decoding it with `removingPercentEncoding` (form: `+` to space first) and with `URLComponents.queryItems`
//   gives back exactly the flattened keys and values, byte for byte, in sorted order;
// - encoding is deterministic: equal input, or the same objects with their keys in reverse order, give
//   equal bytes;
// - a comma-separated array of arrays or objects is a typed `ApiError`, and nothing else throws;
// - `QueryParametersEncoder.encode(_:in:)` appends the same query to a GET URL's existing query;
// - `QueryString.encode([URLQueryItem])` round-trips through `URLComponents`, nil values included.
import Foundation

@testable import CoreAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A parameters tree built from the input; encoded through `Encodable` like a real method.
private indirect enum Node: Encodable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([Node])
    case object([(key: String, value: Node)])

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .int(let number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case .object(let entries):
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in entries { try container.encode(value, forKey: Key(key)) }
        }
    }

    /// The same tree with every object's keys in reverse order.
    var reversed: Node {
        switch self {
        case .array(let items): .array(items.map(\.reversed))
        case .object(let entries): .object(entries.reversed().map { ($0.key, $0.value.reversed) })
        default: self
        }
    }
}

/// Reads the tree grammar described at the top of the file.
private struct TreeReader {
    var tokens: FuzzTokens
    var budget = 64

    mutating func object(depth: Int, closed: Bool) -> Node {
        var entries: [(key: String, value: Node)] = []
        while !tokens.isAtEnd, budget > 0 {
            let keyBytes = tokens.next()
            if closed, keyBytes == [UInt8(ascii: "}")] { break }
            let value = self.value(depth: depth)
            let key = String(decoding: keyBytes, as: UTF8.self)
            if !entries.contains(where: { $0.key == key }) {
                entries.append((key, value))
            }
        }
        return .object(entries)
    }

    mutating func value(depth: Int) -> Node {
        budget -= 1
        let token = tokens.next()
        switch token {
        case [UInt8(ascii: "{")] where depth < 4:
            return object(depth: depth + 1, closed: true)
        case [UInt8(ascii: "[")] where depth < 4:
            var items: [Node] = []
            while !tokens.isAtEnd, budget > 0 {
                var lookahead = tokens
                if lookahead.next() == [UInt8(ascii: "]")] {
                    tokens = lookahead
                    break
                }
                items.append(value(depth: depth + 1))
            }
            return .array(items)
        case [UInt8(ascii: "n")]: return .null
        case [UInt8(ascii: "t")]: return .bool(true)
        case [UInt8(ascii: "f")]: return .bool(false)
        default:
            if token.first == UInt8(ascii: "#"), let number = Int(String(decoding: token.dropFirst(), as: UTF8.self)) {
                return .int(number)
            }
            return .string(String(decoding: token, as: UTF8.self))
        }
    }
}

/// The flattened pairs the encoders should write, computed independently of `QueryString`:
/// keys sorted by UTF-8 bytes at every level, `null` dropped, arrays by `arrayEncoding`.
private struct Flattener {
    let arrayEncoding: EncodingStrategy.Arrays
    let numericBools: Bool

    struct Invalid: Error {}

    func pairs(_ root: Node) throws -> [(key: String, parts: [String])] {
        var result: [(key: String, parts: [String])] = []
        guard case .object(let entries) = root else { throw Invalid() }
        for (key, value) in sorted(entries) {
            try flatten(value, key: key, into: &result)
        }
        return result
    }

    private func sorted(_ entries: [(key: String, value: Node)]) -> [(key: String, value: Node)] {
        entries.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
    }

    private func scalarText(_ node: Node) -> String? {
        switch node {
        case .string(let text): text
        case .int(let number): String(number)
        case .bool(let flag): numericBools ? (flag ? "1" : "0") : (flag ? "true" : "false")
        default: nil
        }
    }

    private func flatten(_ node: Node, key: String, into result: inout [(key: String, parts: [String])]) throws {
        switch node {
        case .null:
            return
        case .object(let entries):
            for (subkey, value) in sorted(entries) {
                try flatten(value, key: key + "[" + subkey + "]", into: &result)
            }
        case .array(let items):
            let items = items.filter {
                if case .null = $0 { return false }
                return true
            }
            switch arrayEncoding {
            case .commaSeparated:
                let texts = items.compactMap(scalarText)
                guard texts.count == items.count else { throw Invalid() }
                if !texts.isEmpty { result.append((key, texts)) }
            case .brackets:
                for item in items { try flatten(item, key: key + "[]", into: &result) }
            case .indexed:
                for (index, item) in items.enumerated() { try flatten(item, key: key + "[\(index)]", into: &result) }
            case .repeatedKey:
                for item in items { try flatten(item, key: key, into: &result) }
            }
        default:
            result.append((key, [scalarText(node)!]))
        }
    }
}

private enum Style: CaseIterable {
    case query
    case formPlus
    case formPercent20

    var isForm: Bool { self != .query }
}

private func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        true
    default: false
    }
}

private func isUpperHex(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte)
}

/// The allowed alphabet: unreserved (form: without `~`, with `*` and maybe `+`), `%XX`, `=`, `&`, `,`.
private func checkAlphabet(_ output: String, style: Style) {
    let bytes = Array(output.utf8)
    var index = 0
    while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "%") {
            require(
                index + 2 < bytes.count && isUpperHex(bytes[index + 1]) && isUpperHex(bytes[index + 2]),
                "bad escape at \(index) in \(output.debugDescription)"
            )
            index += 3
            continue
        }
        let allowed: Bool
        switch (style, byte) {
        case (_, UInt8(ascii: "=")), (_, UInt8(ascii: "&")), (_, UInt8(ascii: ",")): allowed = true
        case (.query, _): allowed = isUnreserved(byte)
        case (_, UInt8(ascii: "~")): allowed = false
        case (_, UInt8(ascii: "*")): allowed = true
        case (.formPlus, UInt8(ascii: "+")): allowed = true
        default: allowed = isUnreserved(byte)
        }
        require(
            allowed,
            "byte \(String(byte, radix: 16)) at \(index) not allowed in \(style): \(output.debugDescription)"
        )
        index += 1
    }
}

private func decode(_ text: Substring, style: Style) -> String {
    let plusDecoded = style == .formPlus ? text.replacingOccurrences(of: "+", with: " ") : String(text)
    guard let decoded = plusDecoded.removingPercentEncoding else {
        fail("removingPercentEncoding failed for \(text.debugDescription)")
    }
    return decoded
}

/// Decodes the output and compares it with the expected pairs, byte for byte.
private func checkRoundTrip(_ output: String, expected: [(key: String, parts: [String])], style: Style) {
    if expected.isEmpty {
        require(output.isEmpty, "no pairs but output \(output.debugDescription)")
        return
    }
    let segments = output.split(separator: "&", omittingEmptySubsequences: false)
    require(segments.count == expected.count, "\(segments.count) segments, expected \(expected.count): \(output)")
    for (segment, pair) in zip(segments, expected) {
        guard let equals = segment.firstIndex(of: "=") else { fail("no = in \(segment.debugDescription)") }
        let key = decode(segment[..<equals], style: style)
        require(sameBytes(key, pair.key), "key \(show(key)), expected \(show(pair.key))")
        let parts = segment[segment.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
        require(parts.count == pair.parts.count, "\(parts.count) value parts, expected \(pair.parts.count)")
        for (part, expectedPart) in zip(parts, pair.parts) {
            let value = decode(part, style: style)
            require(sameBytes(value, expectedPart), "value \(show(value)), expected \(show(expectedPart))")
        }
    }

    // The same through URLComponents (a `+` means a space only in forms, so it becomes %20 first).
    var components = URLComponents()
    components.percentEncodedQuery = style == .formPlus ? output.replacingOccurrences(of: "+", with: "%20") : output
    let items = components.queryItems ?? []
    require(items.count == expected.count, "URLComponents read \(items.count) items, expected \(expected.count)")
    for (item, pair) in zip(items, expected) {
        let value = pair.parts.joined(separator: ",")
        require(sameBytes(item.name, pair.key), "URLComponents name \(show(item.name)), expected \(show(pair.key))")
        require(
            item.value.map { sameBytes($0, value) } == true,
            "URLComponents value \(item.value.map(show) ?? "nil"), expected \(show(value))"
        )
    }
}

/// libFuzzer's entry point: one input, every property above, for the three escapings.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var tokens = FuzzTokens(data, size)
    let options = FuzzOptions(bytes: tokens.next())
    let arrayEncoding: EncodingStrategy.Arrays = [.brackets, .repeatedKey, .indexed, .commaSeparated][
        Int(options[0]) % 4
    ]
    let numericBools = options[1] % 2 == 1
    let boolEncoding: EncodingStrategy.Bools = numericBools ? .numeric : .literal
    var reader = TreeReader(tokens: tokens)
    let root = reader.object(depth: 0, closed: false)

    let expected: [(key: String, parts: [String])]?
    do {
        expected = try Flattener(arrayEncoding: arrayEncoding, numericBools: numericBools).pairs(root)
    } catch {
        expected = nil
    }

    for style in Style.allCases {
        let encode: (Node) throws -> String
        switch style {
        case .query:
            let encoder = QueryParametersEncoder(arrayEncoding: arrayEncoding, boolEncoding: boolEncoding)
            encode = { try encoder.queryString(for: $0) }
        case .formPlus, .formPercent20:
            let encoder = FormParametersEncoder(
                spaceEncoding: style == .formPlus ? .plus : .percent20,
                arrayEncoding: arrayEncoding,
                boolEncoding: boolEncoding
            )
            encode = { try encoder.body(for: $0).map { String(decoding: $0, as: UTF8.self) } ?? "" }
        }

        let output: String
        do {
            output = try encode(root)
        } catch ApiError.invalidRequest(.encoding) {
            require(expected == nil, "\(style) threw, but the tree is encodable: \(root)")
            continue
        } catch {
            fail("\(style) threw an unexpected error: \(error)")
        }
        guard let expected else { fail("\(style) encoded a comma-separated array of containers: \(output)") }

        checkAlphabet(output, style: style)
        checkRoundTrip(output, expected: expected, style: style)

        // Deterministic, and independent of the order of keys.
        require((try? encode(root)) == output, "\(style): a second encoding differs")
        require((try? encode(root.reversed)) == output, "\(style): reversing the keys changed the output")

        if style == .query {
            checkRequest(root, query: output, arrayEncoding: arrayEncoding, boolEncoding: boolEncoding)
            checkQueryItems(expected, nilMask: options[2])
        }
    }
    return 0
}

/// The query lands after the URL's existing query.
private func checkRequest(
    _ root: Node,
    query: String,
    arrayEncoding: EncodingStrategy.Arrays,
    boolEncoding: EncodingStrategy.Bools
) {
    let encoder = QueryParametersEncoder(arrayEncoding: arrayEncoding, boolEncoding: boolEncoding)
    let request = ApiRequest(url: URL(string: "https://example.com/search?x=1")!)
    let encoded: ApiRequest
    do {
        encoded = try encoder.encode(root, in: request)
    } catch {
        fail("encode(_:in:) threw \(error) for query \(query.debugDescription)")
    }
    let expectedQuery = query.isEmpty ? "x=1" : "x=1&" + query
    let actual = URLComponents(url: encoded.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery
    require(actual == expectedQuery, "URL query \(actual.debugDescription), expected \(expectedQuery.debugDescription)")
}

/// `QueryString.encode([URLQueryItem])` keeps item order and nil values.
private func checkQueryItems(_ pairs: [(key: String, parts: [String])], nilMask: UInt8) {
    let items = pairs.prefix(8).enumerated().map { index, pair in
        URLQueryItem(name: pair.key, value: nilMask & (1 << index) != 0 ? nil : pair.parts.joined(separator: ","))
    }
    let query = QueryString.encode(items)
    checkAlphabet(query, style: .query)
    // An empty query is ambiguous (no items, or one empty name without value): nothing to decode.
    guard !query.isEmpty else {
        require(items.count <= 1, "\(items.count) items but an empty query")
        return
    }
    var components = URLComponents()
    components.percentEncodedQuery = query
    let decoded = components.queryItems ?? []
    require(decoded.count == items.count, "URLQueryItem round trip: \(decoded.count) items, expected \(items.count)")
    for (item, original) in zip(decoded, items) {
        require(sameBytes(item.name, original.name), "item name \(show(item.name)), expected \(show(original.name))")
        switch (item.value, original.value) {
        case (nil, nil): break
        case (let value?, let expected?):
            require(sameBytes(value, expected), "item value \(show(value)), expected \(show(expected))")
        default:
            fail("item value \(item.value.map(show) ?? "nil"), expected \(original.value.map(show) ?? "nil")")
        }
    }
}
