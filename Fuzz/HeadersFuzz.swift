// Fuzz target for the header validator: `Headers.validate()`, `Headers.isValidName`, `Headers.isValidValue`
// (Sources/CoreAPI/Request/Headers.swift), plus the case-insensitive lookups the validator's callers rely on.
//
// Input: tokens separated by 0xFF (see FuzzSupport.swift). Token 0 holds option bytes:
//   [0] how the headers are built: field list, `add`, dictionary, or `set`
//   [1] [2] where and which of CR, LF, NUL to inject into a copy of each value
// then name and value tokens alternate.
//
// Properties:
// - `isValidName` is exactly "non-empty RFC 9110 token" and `isValidValue` exactly "no control character
//   but HTAB" (checked against an oracle written from the RFC, not from the library);
// - a field accepted by `validate()` never has CR, LF or NUL in its value, and its name is a non-empty token;
// - a value with CR, LF or NUL is always rejected, wherever the byte is;
// - `validate()` throws exactly `ApiError.invalidRequest(.invalidHeader(name:))` naming the first invalid
//   field, and nothing else;
// - `values(for:)`, `contains`, `set`, `remove` and `merge` agree with an ASCII-case-insensitive oracle.
import Foundation

@testable import CoreAPI

/// RFC 9110 §5.6.2: `tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|"
/// / "~" / DIGIT / ALPHA`.
private let tchars: Set<UInt8> = Set(
    Array("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
)

private func oracleIsToken(_ name: String) -> Bool {
    !name.utf8.isEmpty && name.utf8.allSatisfy { tchars.contains($0) }
}

/// The documented value rule: no C0 control character but HTAB, no DEL. Bytes >= 0x80 are obs-text.
private func oracleIsValidValue(_ value: String) -> Bool {
    !value.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
}

private func hasCRLFOrNUL(_ value: String) -> Bool {
    value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
}

private func asciiLowercased(_ text: String) -> [UInt8] {
    text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
}

private func sameFields(_ lhs: [Headers.Field], _ rhs: [Headers.Field]) -> Bool {
    lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { sameBytes($0.name, $1.name) && sameBytes($0.value, $1.value) }
}

private func oracleSameName(_ lhs: String, _ rhs: String) -> Bool {
    asciiLowercased(lhs) == asciiLowercased(rhs)
}

/// libFuzzer's entry point: one input, every property above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var tokens = FuzzTokens(data, size)
    let options = FuzzOptions(bytes: tokens.next())
    var pairs: [(name: String, value: String)] = []
    while !tokens.isAtEnd, pairs.count < 16 {
        pairs.append((tokens.nextString(), tokens.nextString()))
    }

    let headers: Headers
    switch options[0] % 4 {
    case 0:
        headers = Headers(pairs.map { Headers.Field(name: $0.name, value: $0.value) })
    case 1:
        var built = Headers()
        for pair in pairs { built.add(pair.value, for: pair.name) }
        headers = built
    case 2:
        headers = Headers(Dictionary(pairs, uniquingKeysWith: { _, last in last }))
    default:
        var built = Headers()
        for pair in pairs { built.set(pair.value, for: pair.name) }
        headers = built
    }

    checkValidation(headers)
    checkInjection(pairs, options: options)
    checkLookups(headers, pairs: pairs)
    return 0
}

/// The validator against the oracle, field by field and as a whole.
private func checkValidation(_ headers: Headers) {
    for field in headers.fields {
        require(
            Headers.isValidName(field.name) == oracleIsToken(field.name),
            "isValidName(\(show(field.name))) = \(Headers.isValidName(field.name))"
        )
        require(
            Headers.isValidValue(field.value) == oracleIsValidValue(field.value),
            "isValidValue(\(show(field.value))) = \(Headers.isValidValue(field.value))"
        )
        if hasCRLFOrNUL(field.value) {
            require(!Headers.isValidValue(field.value), "value with CR/LF/NUL accepted: \(show(field.value))")
        }
    }

    let firstInvalid = headers.fields.first { !oracleIsToken($0.name) || !oracleIsValidValue($0.value) }
    do {
        try headers.validate()
        require(firstInvalid == nil, "validate() accepted invalid field \(show(firstInvalid!.name))")
        for field in headers.fields {
            require(!hasCRLFOrNUL(field.value), "accepted value with CR/LF/NUL: \(show(field.value))")
            require(oracleIsToken(field.name), "accepted name that is not a token: \(show(field.name))")
        }
    } catch let error as ApiError {
        guard let firstInvalid else { fail("validate() rejected valid headers: \(error)") }
        guard case .invalidRequest(.invalidHeader(let name)) = error else {
            fail("validate() threw \(error), expected invalidHeader")
        }
        require(sameBytes(name, firstInvalid.name), "error names \(show(name)), expected \(show(firstInvalid.name))")
    } catch {
        fail("validate() threw a non-ApiError: \(error)")
    }
}

/// A CR, LF or NUL put anywhere into a value is always rejected, whatever the rest of the field is.
private func checkInjection(_ pairs: [(name: String, value: String)], options: FuzzOptions) {
    let bad: [UInt8] = [0x0D, 0x0A, 0x00]
    for (index, pair) in pairs.enumerated() {
        var bytes = Array(pair.value.utf8)
        let position = bytes.isEmpty ? 0 : (Int(options[1]) + index) % (bytes.count + 1)
        bytes.insert(bad[(Int(options[2]) + index) % bad.count], at: position)
        let value = String(decoding: bytes, as: UTF8.self)
        require(!Headers.isValidValue(value), "injected CR/LF/NUL accepted: \(show(value))")
        let name = oracleIsToken(pair.name) ? pair.name : "X-Fuzz"
        do {
            try Headers([Headers.Field(name: name, value: value)]).validate()
            fail("validate() accepted \(show(name)): \(show(value))")
        } catch ApiError.invalidRequest(.invalidHeader(let errorName)) {
            require(sameBytes(errorName, name), "error names \(show(errorName)), expected \(show(name))")
        } catch {
            fail("validate() threw \(error) for an injected control character")
        }
    }
}

/// Case-insensitive lookups and edits against the oracle.
private func checkLookups(_ headers: Headers, pairs: [(name: String, value: String)]) {
    for pair in pairs.prefix(4) {
        let expected = headers.fields.filter { oracleSameName($0.name, pair.name) }.map(\.value)
        let values = headers.values(for: pair.name)
        require(
            values.count == expected.count && zip(values, expected).allSatisfy(sameBytes),
            "values(for: \(show(pair.name))) = \(values.map(show)), expected \(expected.map(show))"
        )
        require(headers.contains(pair.name) == !expected.isEmpty, "contains(\(show(pair.name)))")
        for other in pairs.prefix(4) {
            require(
                pair.name.equalsIgnoringASCIICase(other.name) == oracleSameName(pair.name, other.name),
                "equalsIgnoringASCIICase(\(show(pair.name)), \(show(other.name)))"
            )
        }

        var edited = headers
        edited.set(pair.value, for: pair.name)
        let after = edited.values(for: pair.name)
        require(after.count == 1 && sameBytes(after[0], pair.value), "set(_:for: \(show(pair.name))) left \(after)")
        let othersBefore = headers.fields.filter { !oracleSameName($0.name, pair.name) }
        let othersAfter = edited.fields.filter { !oracleSameName($0.name, pair.name) }
        require(sameFields(othersBefore, othersAfter), "set(_:for: \(show(pair.name))) changed other fields")

        edited.remove(pair.name)
        require(!edited.contains(pair.name), "remove(\(show(pair.name))) left a field")
        require(sameFields(edited.fields, othersBefore), "remove(\(show(pair.name))) changed other fields")
    }

    // merge: every name of `other` ends up with exactly other's values; the rest keep theirs.
    let split = pairs.count / 2
    let base = Headers(pairs[..<split].map { Headers.Field(name: $0.name, value: $0.value) })
    let other = Headers(pairs[split...].map { Headers.Field(name: $0.name, value: $0.value) })
    let merged = base.merging(other)
    for field in base.fields + other.fields {
        let fromOther = other.fields.filter { oracleSameName($0.name, field.name) }.map(\.value)
        let expected =
            fromOther.isEmpty ? base.fields.filter { oracleSameName($0.name, field.name) }.map(\.value) : fromOther
        let actual = merged.values(for: field.name)
        require(
            actual.count == expected.count && zip(actual, expected).allSatisfy(sameBytes),
            "merge: \(show(field.name)) has \(actual.map(show)), expected \(expected.map(show))"
        )
    }
}
