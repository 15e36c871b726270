// Fuzz target for `RetryAfter.delay(from:now:)` (Sources/CoreAPI/Middleware/Retry/RetryAfter.swift).
//
// Input: byte 0 selects the mode, the rest is read by the mode.
// - raw (bit 0 clear): the rest is the field value; `now` is 2023-11-14T22:13:20Z.
// - raw with a fuzzed clock (bits 0 set, 1 clear): bytes 1...8 are the bit pattern of `now` (NaN and
//   infinities included), the rest is the field value.
// - date (bits 0 and 1 set): bytes 1...12 give a date and time, each field from one byte so values out of
//   range occur too; the date is written in all three HTTP-date forms and checked against Foundation's
//   Gregorian calendar.
//
// Properties:
// - never crashes; the result is `nil` or finite and >= 0;
// - a value of digits only (after trimming spaces and tabs) gives exactly that integer, saturated at
//   `UInt64.max`, whatever `now` is; digits followed by anything else give `nil`;
// - spaces and tabs around the value do not change the result;
// - a date is read when `now` is not finite only if it is delta-seconds;
// - IMF-fixdate, RFC 850 and asctime forms of a valid date give `max(0, date - now)` computed with
//   `Calendar(identifier: .gregorian)` in UTC (years from 1600, where it is proleptic Gregorian);
//   out-of-range days, hours, minutes or seconds give `nil`.
import Foundation

@testable import CoreAPI

private let fixedNow = Date(timeIntervalSince1970: 1_700_000_000)

private let utcCalendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
}()

/// libFuzzer's entry point: one input, every property above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let mode = bytes.first ?? 0
    if mode & 0b11 == 0b11 {
        checkDate(Array(bytes.dropFirst()))
        return 0
    }
    var rest = bytes.dropFirst()
    var now = fixedNow
    if mode & 1 == 1 {
        var pattern: UInt64 = 0
        for byte in rest.prefix(8) { pattern = pattern << 8 | UInt64(byte) }
        rest = rest.dropFirst(8)
        now = Date(timeIntervalSince1970: Double(bitPattern: pattern))
    }
    checkValue(String(decoding: rest, as: UTF8.self), now: now)
    return 0
}

private func isSpaceOrTab(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09
}

private func isDigit(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte)
}

/// The properties that hold for any value.
private func checkValue(_ value: String, now: Date) {
    let result = RetryAfter.delay(from: value, now: now)
    if let result {
        require(result.isFinite && result >= 0, "delay \(result) for \(show(value)) now \(now.timeIntervalSince1970)")
    }

    let trimmed = Array(value.utf8).drop(while: isSpaceOrTab).reversed().drop(while: isSpaceOrTab).reversed()
    if let first = trimmed.first, isDigit(first) {
        if trimmed.allSatisfy(isDigit) {
            // The saturated integer, computed independently.
            var expected: UInt64 = 0
            var saturated = false
            for digit in trimmed where !saturated {
                let (times10, o1) = expected.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(digit - 0x30))
                if o1 || o2 { saturated = true } else { expected = sum }
            }
            let expectedDelay = TimeInterval(saturated ? UInt64.max : expected)
            require(
                result == expectedDelay,
                "digits \(show(value)): expected \(expectedDelay), got \(String(describing: result))"
            )
        } else {
            require(result == nil, "digits then other bytes \(show(value)) gave \(String(describing: result))")
        }
    } else if !now.timeIntervalSince1970.isFinite {
        require(result == nil, "a date with a non-finite now gave \(String(describing: result)) for \(show(value))")
    }
    if trimmed.isEmpty {
        require(result == nil, "blank value \(show(value)) gave \(String(describing: result))")
    }

    // Spaces and tabs around the value are ignored.
    let padded = " \t " + value + "\t  "
    let paddedResult = RetryAfter.delay(from: padded, now: now)
    require(
        paddedResult == result,
        "padding changed the result for \(show(value)): \(String(describing: result)) vs \(String(describing: paddedResult))"
    )

    // The header lookup reads the first Retry-After field the same way.
    let headers = Headers([
        Headers.Field(name: "retry-after", value: value), Headers.Field(name: "Retry-After", value: "1"),
    ])
    require(
        RetryAfter.delay(in: headers, now: now) == result,
        "delay(in:) differs from delay(from:) for \(show(value))"
    )
}

private let shortDays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
private let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
private let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

private func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
}

/// A date built from bytes and written in the three forms, against Foundation's calendar.
private func checkDate(_ bytes: [UInt8]) {
    let options = FuzzOptions(bytes: bytes)
    // Mostly valid fields, sometimes one past the end of its range.
    let year = 1600 + (Int(options[0]) << 8 | Int(options[1])) % 8400  // 1600...9999
    let month = Int(options[2]) % 12 + 1
    let day = Int(options[3]) % 32  // 0 and 29...31 test invalid days
    let hour = Int(options[4]) % 25
    let minute = Int(options[5]) % 61
    let second = Int(options[6]) % 62
    let weekday = Int(options[7]) % 7
    // `now`: from 1970 to about 2097, plus or minus a little, so the RFC 850 century rule is exercised.
    let nowSeconds = Double(Int(options[8]) << 24 | Int(options[9]) << 16 | Int(options[10]) << 8 | Int(options[11]))
    let now = Date(timeIntervalSince1970: nowSeconds)

    let valid: Bool = {
        guard day >= 1, hour < 24, minute < 60, second <= 60 else { return false }
        let firstOfMonth = utcCalendar.date(from: DateComponents(year: year, month: month, day: 1))!
        return day <= utcCalendar.range(of: .day, in: .month, for: firstOfMonth)!.count
    }()

    func expected(forYear year: Int) -> TimeInterval? {
        guard valid else { return nil }
        // `second` may be 60 (a leap second): Foundation rolls it over into the next minute, as the parser does.
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: 0)
        guard let date = utcCalendar.date(from: components) else { fail("Foundation has no date for \(components)") }
        return max(0, date.timeIntervalSince1970 + Double(second) - nowSeconds)
    }

    let time = "\(twoDigits(hour)):\(twoDigits(minute)):\(twoDigits(second))"
    let imf = "\(shortDays[weekday]), \(twoDigits(day)) \(months[month - 1]) \(year) \(time) GMT"
    let asctimeDay = day < 10 ? " \(day)" : "\(day)"
    let asctime = "\(shortDays[weekday]) \(months[month - 1]) \(asctimeDay) \(time) \(year)"
    let shortYear = year % 100
    let rfc850 = "\(longDays[weekday]), \(twoDigits(day))-\(months[month - 1])-\(twoDigits(shortYear)) \(time) GMT"

    let expectedFull = expected(forYear: year)
    for text in [imf, asctime] {
        let result = RetryAfter.delay(from: text, now: now)
        require(
            result == expectedFull,
            "\(text.debugDescription) now \(nowSeconds): expected \(String(describing: expectedFull)), got \(String(describing: result))"
        )
        checkValue(text, now: now)
    }

    // RFC 9110 §5.6.7: a two-digit year more than 50 years in the future is the most recent past year
    // with those digits.
    let currentYear = utcCalendar.component(.year, from: now)
    var rfc850Year = currentYear - currentYear % 100 + shortYear
    if rfc850Year > currentYear + 50 { rfc850Year -= 100 }
    // Only compare where the resolved year is still in the proleptic Gregorian range of the calendar.
    if rfc850Year >= 1600 {
        // The day may be valid in `year` but not in `rfc850Year` (29 February): recompute validity.
        let result = RetryAfter.delay(from: rfc850, now: now)
        var expected850: TimeInterval?
        if valid || (day == 29 && month == 2 && hour < 24 && minute < 60 && second <= 60) {
            let firstOfMonth = utcCalendar.date(from: DateComponents(year: rfc850Year, month: month, day: 1))!
            if day <= utcCalendar.range(of: .day, in: .month, for: firstOfMonth)!.count {
                let components = DateComponents(year: rfc850Year, month: month, day: day, hour: hour, minute: minute)
                let date = utcCalendar.date(from: components)!
                expected850 = max(0, date.timeIntervalSince1970 + Double(second) - nowSeconds)
            }
        }
        require(
            result == expected850,
            "\(rfc850.debugDescription) now \(nowSeconds): expected \(String(describing: expected850)), got \(String(describing: result))"
        )
    }
    checkValue(rfc850, now: now)

    // Names are case-sensitive: a lower-case "gmt" or month is not a date.
    require(RetryAfter.delay(from: imf.replacingOccurrences(of: "GMT", with: "gmt"), now: now) == nil, "gmt accepted")
    let upperMonth = imf.replacingOccurrences(of: months[month - 1], with: months[month - 1].uppercased())
    require(RetryAfter.delay(from: upperMonth, now: now) == nil, "upper-case month accepted: \(upperMonth)")
}
