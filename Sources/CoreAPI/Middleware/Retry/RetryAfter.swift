package import Foundation

/// Reads the `Retry-After` header field (RFC 9110 §10.2.3): how long to wait before sending again.
///
/// The field holds delta-seconds — a non-negative decimal integer — or an HTTP-date. Dates are read in
/// the preferred IMF-fixdate form (`Sun, 06 Nov 1994 08:49:37 GMT`) and in the two obsolete forms
/// RFC 9110 §5.6.7 asks recipients to accept: RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`, its two-digit
/// year read as the nearest year no more than 50 years ahead) and asctime (`Sun Nov  6 08:49:37 1994`).
/// As RFC 9110 requires, day names, month names and `GMT` are case-sensitive. Spaces and tabs around
/// the value are ignored.
///
/// The parser is pure and cheap: it never looks at the clock (the caller passes `now`), never uses a
/// `DateFormatter` or allocates for a native string, and any input — however long or odd — gives `nil`
/// or a finite, non-negative delay.
///
/// ```swift
/// RetryAfter.delay(from: "120", now: Date())  // 120
/// RetryAfter.delay(from: "Sun, 06 Nov 1994 08:49:37 GMT", now: Date())  // 0: the date has passed
/// RetryAfter.delay(from: "soon", now: Date())  // nil
/// ```
package enum RetryAfter {
    /// The field name, `Retry-After`.
    package static let fieldName = "Retry-After"

    /// The delay a `Retry-After` value asks for.
    /// - Parameters:
    ///   - value: The field value.
    ///   - now: The current time, against which an HTTP-date is measured.
    /// - Returns: The delay in seconds: the delta-seconds as given (saturating at `UInt64.max` instead of
    ///   overflowing), or the time from `now` until the date, `0` for a date in the past;
    ///   `nil` for anything else, such as `-1`, `1.5`, `+5`, an empty value, an invalid date, or a date
    ///   when `now` is not finite.
    package static func delay(from value: String, now: Date = Date()) -> TimeInterval? {
        // A plain array rather than borrowed contiguous storage: safe for every string, and a
        // header value is short.
        parse(Array(value.utf8), now: now.timeIntervalSince1970)
    }

    /// The delay the first `Retry-After` field of `headers` asks for; see ``delay(from:now:)``.
    /// - Parameters:
    ///   - headers: Response header fields.
    ///   - now: The current time, against which an HTTP-date is measured.
    /// - Returns: The delay in seconds, or `nil` when there is no such field or its value is not valid.
    package static func delay(in headers: Headers, now: Date = Date()) -> TimeInterval? {
        guard let value = headers.values(for: fieldName).first else { return nil }
        return delay(from: value, now: now)
    }

    /// The moment an HTTP-date (RFC 9110 §5.6.7, any of its three forms) names, in seconds since 1970.
    /// - Parameters:
    ///   - value: The field value, such as a `Last-Modified` or a `Date`.
    ///   - now: The current time, which places an RFC 850 date's two-digit year.
    /// - Returns: The seconds since 1970, or `nil` when `value` is not an HTTP-date.
    package static func date(from value: String, now: Date = Date()) -> TimeInterval? {
        let bytes = Array(value.utf8)
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == space || bytes[start] == tab { start += 1 }
        while end > start, bytes[end - 1] == space || bytes[end - 1] == tab { end -= 1 }
        guard start < end, now.timeIntervalSince1970.isFinite else { return nil }
        var cursor = Cursor(bytes: Array(bytes[start..<end]))
        return cursor.httpDate(now: now.timeIntervalSince1970)
    }

    // MARK: - Parsing

    private static func parse(_ bytes: [UInt8], now: TimeInterval) -> TimeInterval? {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == space || bytes[start] == tab { start += 1 }
        while end > start, bytes[end - 1] == space || bytes[end - 1] == tab { end -= 1 }
        guard start < end else { return nil }
        var cursor = Cursor(bytes: Array(bytes[start..<end]))
        if isDigit(bytes[start]) {
            return cursor.deltaSeconds()
        }
        guard now.isFinite, let date = cursor.httpDate(now: now) else { return nil }
        return max(0, date - now)
    }

    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static let shortDays: [[UInt8]] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { Array($0.utf8) }
    private static let longDays: [[UInt8]] = [
        "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
    ]
    .map { Array($0.utf8) }
    private static let months: [[UInt8]] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    .map { Array($0.utf8) }

    /// Reads the trimmed field value from left to right.
    private struct Cursor {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        /// `1*DIGIT` up to the end; saturates at `UInt64.max` instead of overflowing.
        mutating func deltaSeconds() -> TimeInterval? {
            var value: UInt64 = 0
            while !isAtEnd {
                guard RetryAfter.isDigit(bytes[index]) else { return nil }
                let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
                value = overflow1 || overflow2 ? .max : sum
                index += 1
            }
            return TimeInterval(value)
        }

        /// One of the three HTTP-date forms, as seconds since 1970.
        mutating func httpDate(now: TimeInterval) -> TimeInterval? {
            let name = letters()
            if take(UInt8(ascii: ",")) {
                guard take(RetryAfter.space) else { return nil }
                if RetryAfter.shortDays.contains(where: { $0.elementsEqual(name) }) {
                    return imfFixdate()
                }
                if RetryAfter.longDays.contains(where: { $0.elementsEqual(name) }) {
                    return rfc850Date(now: now)
                }
                return nil
            }
            guard RetryAfter.shortDays.contains(where: { $0.elementsEqual(name) }), take(RetryAfter.space) else {
                return nil
            }
            return asctimeDate()
        }

        /// `2DIGIT SP month SP 4DIGIT SP time-of-day SP "GMT"` (after `day-name "," SP`).
        private mutating func imfFixdate() -> TimeInterval? {
            guard let day = digits(2), take(RetryAfter.space), let month = month(), take(RetryAfter.space),
                let year = digits(4), take(RetryAfter.space), let time = timeOfDay(), gmtAtEnd()
            else { return nil }
            return RetryAfter.seconds(year: year, month: month, day: day, time: time)
        }

        /// `2DIGIT "-" month "-" 2DIGIT SP time-of-day SP "GMT"` (after `day-name-l "," SP`).
        private mutating func rfc850Date(now: TimeInterval) -> TimeInterval? {
            let dash = UInt8(ascii: "-")
            guard let day = digits(2), take(dash), let month = month(), take(dash), let shortYear = digits(2),
                take(RetryAfter.space), let time = timeOfDay(), gmtAtEnd()
            else { return nil }
            // RFC 9110 §5.6.7: a year more than 50 years ahead is the latest past year with those digits.
            let currentYear = RetryAfter.year(at: now)
            var year = currentYear - currentYear % 100 + shortYear
            if year > currentYear + 50 {
                year -= 100
            }
            return RetryAfter.seconds(year: year, month: month, day: day, time: time)
        }

        /// `month SP ( 2DIGIT / ( SP DIGIT ) ) SP time-of-day SP 4DIGIT` (after `day-name SP`).
        private mutating func asctimeDate() -> TimeInterval? {
            guard let month = month(), take(RetryAfter.space) else { return nil }
            let day: Int?
            if take(RetryAfter.space) {
                day = digits(1)
            } else {
                day = digits(2)
            }
            guard let day, take(RetryAfter.space), let time = timeOfDay(), take(RetryAfter.space),
                let year = digits(4), isAtEnd
            else { return nil }
            return RetryAfter.seconds(year: year, month: month, day: day, time: time)
        }

        /// `2DIGIT ":" 2DIGIT ":" 2DIGIT` as seconds into the day; 60 seconds allows a leap second.
        private mutating func timeOfDay() -> Int? {
            let colon = UInt8(ascii: ":")
            guard let hour = digits(2), take(colon), let minute = digits(2), take(colon), let second = digits(2),
                hour < 24, minute < 60, second <= 60
            else { return nil }
            return hour * 3600 + minute * 60 + second
        }

        /// A month name, 1 to 12.
        private mutating func month() -> Int? {
            let name = letters()
            return RetryAfter.months.firstIndex { $0.elementsEqual(name) }.map { $0 + 1 }
        }

        /// `SP "GMT"` and nothing after it.
        private mutating func gmtAtEnd() -> Bool {
            take(RetryAfter.space) && letters().elementsEqual("GMT".utf8) && isAtEnd
        }

        /// The ASCII letters from here on.
        private mutating func letters() -> ArraySlice<UInt8> {
            let start = index
            while !isAtEnd, (bytes[index] | 0x20) >= UInt8(ascii: "a"), (bytes[index] | 0x20) <= UInt8(ascii: "z") {
                index += 1
            }
            return bytes[start..<index]
        }

        /// Exactly `count` digits.
        private mutating func digits(_ count: Int) -> Int? {
            guard bytes.count - index >= count else { return nil }
            var value = 0
            for _ in 0..<count {
                guard RetryAfter.isDigit(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            return value
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard !isAtEnd, bytes[index] == byte else { return false }
            index += 1
            return true
        }
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, UTC)

    /// Seconds since 1970 for a date and time of day, or `nil` for a day the month does not have.
    private static func seconds(year: Int, month: Int, day: Int, time: Int) -> TimeInterval? {
        guard day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        return TimeInterval(daysSince1970(year: year, month: month, day: day) * 86_400 + time)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date (Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year at `seconds` since 1970 (Howard Hinnant's `civil_from_days`); `seconds` must be finite.
    private static func year(at seconds: TimeInterval) -> Int {
        // Clamped so the conversion cannot trap; ±10^12 days is far beyond any real clock.
        let days = Int(min(max((seconds / 86_400).rounded(.down), -1e12), 1e12)) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let year = yearOfEra + era * 400
        return shiftedMonth >= 10 ? year + 1 : year
    }
}
