public import Foundation

/// How property names become parameter keys. Shared by every CoreAPI parameters encoder.
public enum KeyEncodingStrategy: Sendable {
    /// Keys as the `CodingKey`s spell them.
    case useDefaultKeys
    /// `userID` → `user_id`, `firstName` → `first_name`.
    case convertToSnakeCase
    /// `firstName` → `first-name`.
    case convertToKebabCase
    /// Keys converted by a function.
    case custom(@Sendable (String) -> String)

    /// `key` converted by this strategy.
    public func convert(_ key: String) -> String {
        switch self {
        case .useDefaultKeys: key
        case .convertToSnakeCase: Self.splitWords(key, separator: "_")
        case .convertToKebabCase: Self.splitWords(key, separator: "-")
        case .custom(let convert): convert(key)
        }
    }

    /// Lower-cases `key` and puts `separator` between words, where a word starts at an upper-case
    /// letter that follows a lower-case letter or digit, or that starts a capitalised run (`URLValue`
    /// → `url_value`). Leading and trailing underscores are kept.
    static func splitWords(_ key: String, separator: Character) -> String {
        guard key.contains(where: \.isUppercase) else { return key }
        let characters = Array(key)
        var result = ""
        result.reserveCapacity(characters.count + 4)
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let startsWord =
                    previous.isLowercase || previous.isNumber
                    || (previous.isUppercase && next.map { $0.isLowercase } == true)
                if startsWord && previous != "_" { result.append(separator) }
            }
            result += character.lowercased()
        }
        return result
    }
}

/// How dates become parameter values. Shared by every CoreAPI parameters encoder.
public enum DateEncodingStrategy: Sendable {
    /// ISO 8601 in UTC without fractional seconds: `2023-11-14T22:13:20Z`.
    case iso8601
    /// ISO 8601 in UTC with milliseconds: `2023-11-14T22:13:20.123Z`.
    case iso8601WithFractionalSeconds
    /// Whole or fractional seconds since 1970-01-01T00:00:00Z.
    case secondsSince1970
    /// Whole milliseconds since 1970-01-01T00:00:00Z, rounded to the nearest millisecond.
    case millisecondsSince1970
    /// Dates formatted by a function.
    case custom(@Sendable (Date) -> String)

    /// `date` formatted by this strategy.
    public func format(_ date: Date) -> String {
        switch self {
        case .iso8601:
            date.formatted(Date.ISO8601FormatStyle())
        case .iso8601WithFractionalSeconds:
            Self.iso8601WithMilliseconds(date)
        case .secondsSince1970:
            NumberText.format(date.timeIntervalSince1970)
        case .millisecondsSince1970:
            String(Self.milliseconds(date))
        case .custom(let format):
            format(date)
        }
    }

    /// `date` as a parameter leaf: a number for the `…Since1970` strategies, text otherwise.
    public func leaf(for date: Date) -> ParameterValue {
        switch self {
        case .secondsSince1970, .millisecondsSince1970: .number(format(date))
        default: .string(format(date))
        }
    }

    /// ISO 8601 with the milliseconds rounded, not truncated: a `Double` such as
    /// `1_700_000_000.123` is stored as `…0.12299990654`, which truncation would write as `.122`.
    static func iso8601WithMilliseconds(_ date: Date) -> String {
        let total = milliseconds(date)
        var seconds = total / 1000
        var fraction = total % 1000
        if fraction < 0 {
            seconds -= 1
            fraction += 1000
        }
        let whole = Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(Date.ISO8601FormatStyle())
        let digits = String(fraction)
        return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}

/// A value that brings its own date strategy, overriding the encoder's for every date inside it.
///
/// Works the same in every CoreAPI parameters encoder (JSON, query, form and multipart) and at any depth:
/// the closest enclosing conforming value wins.
///
/// ```swift
/// struct Booking: ApiMethod, CustomDateEncoding {
///     static var dateEncoding: DateEncodingStrategy { .millisecondsSince1970 }
///     // …
/// }
/// ```
public protocol CustomDateEncoding: Encodable {
    /// The strategy for the dates inside values of this type.
    static var dateEncoding: DateEncodingStrategy { get }
}

/// How arrays become query or form parameters.
public enum ArrayEncodingStrategy: Sendable, Hashable {
    /// `tags[]=a&tags[]=b`.
    case brackets
    /// `tags=a&tags=b`.
    case repeatedKey
    /// `tags=a,b` (the comma itself is not escaped; commas inside values are).
    case commaSeparated
    /// `tags[0]=a&tags[1]=b`.
    case indexed
}

/// How booleans become query or form parameters.
public enum BoolEncodingStrategy: Sendable, Hashable {
    /// `true` and `false`.
    case literal
    /// `1` and `0`.
    case numeric
}

enum NumberText {
    /// A finite `Double` as text without a needless `.0`: `1`, `1.5`, `1e+20`.
    static func format<Value: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Value) -> String {
        if value.rounded() == value, abs(value) < 1e15 {
            return String(Int64(value))
        }
        return String(value)
    }
}
