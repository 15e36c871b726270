public import Foundation

extension EncodingStrategy {
    /// How dates become parameter values. Shared by every CoreAPI parameters encoder.
    public enum Dates: Sendable {
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
        func leaf(for date: Date) -> ParameterValue {
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
}

extension EncodingStrategy {
    /// A value that brings its own date strategy, overriding the encoder's for every date inside it.
    ///
    /// Works the same in every CoreAPI parameters encoder (JSON, query, form and multipart) and at any depth:
    /// the closest enclosing conforming value wins.
    ///
    /// ```swift
    /// struct Booking: ApiMethod, EncodingStrategy.CustomDate {
    ///     typealias Response = EmptyResponse
    ///     static var dateEncoding: EncodingStrategy.Dates { .millisecondsSince1970 }
    ///     let room: Int
    ///     let from: Date  // sent as milliseconds, whatever the encoder's strategy
    ///     var hostProviderKey: String { "api" }
    ///     var path: String { "/bookings" }
    /// }
    /// ```
    public protocol CustomDate: Encodable {
        /// The strategy for the dates inside values of this type.
        static var dateEncoding: EncodingStrategy.Dates { get }
    }
}
