import CoreAPI
import Foundation
import Testing

/// `RetryAfter`: delta-seconds and the three HTTP-date forms of RFC 9110.
@Suite struct RetryAfterTests {
    /// `Sun, 06 Nov 1994 08:49:37 GMT`, the example date of RFC 9110.
    static let rfcExample: TimeInterval = 784_111_777

    @Test(arguments: [
        ("0", 0.0), ("120", 120), ("007", 7), (" 5 ", 5), ("\t3\t", 3), ("86400", 86_400),
        ("18446744073709551615", TimeInterval(UInt64.max)),
    ])
    func deltaSecondsAreReadAsGiven(value: String, expected: TimeInterval) {
        #expect(RetryAfter.delay(from: value, now: Date(timeIntervalSince1970: 0)) == expected)
    }

    @Test(arguments: [
        "18446744073709551616", "99999999999999999999999999999999", String(repeating: "9", count: 10_000),
    ])
    func hugeDeltaSecondsSaturateInsteadOfOverflowing(value: String) {
        #expect(RetryAfter.delay(from: value, now: Date()) == TimeInterval(UInt64.max))
    }

    @Test(arguments: [
        "", " ", "\t", "-1", "+5", "1.5", "1e3", "5s", "5 5", "0x10", "soon", "\u{0661}\u{0662}", "½",
        "Sun, 06 Nov 1994 08:49:37 UTC", "sun, 06 nov 1994 08:49:37 gmt", "Sun, 06 Nov 1994 08:49:37 gmt",
        "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 GMTx", "Sun, 06 Nov 1994 08:49:37 GMT,",
        "Sun, 6 Nov 1994 08:49:37 GMT", "Sun,06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
        "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 06 Nov 1994 08:49:61 GMT", "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, 31 Nov 1994 08:49:37 GMT",
        "Sat, 29 Feb 2025 00:00:00 GMT", "Mon, 29 Feb 1900 00:00:00 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
        "Sunday, 06 Nov 1994 08:49:37 GMT", "Sun, 06-Nov-94 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT",
        "Sunday, 06 Nov 94 08:49:37 GMT", "Sun Nov 6 08:49:37 1994", "Sun Nov  6 08:49:37 94",
        "Sun Nov  6 08:49:37 1994 GMT", "Sunday Nov  6 08:49:37 1994", "Nov  6 08:49:37 1994",
        "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT 5",
    ])
    func invalidValuesGiveNil(value: String) {
        #expect(RetryAfter.delay(from: value, now: Date(timeIntervalSince1970: 0)) == nil)
    }

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        "  Sun, 06 Nov 1994 08:49:37 GMT\t",
    ])
    func allThreeDateFormsGiveTheTimeUntilTheDate(value: String) {
        let now = Date(timeIntervalSince1970: Self.rfcExample - 90)
        #expect(RetryAfter.delay(from: value, now: now) == 90)
    }

    @Test func asctimeTakesATwoDigitDay() {
        let now = Date(timeIntervalSince1970: Self.rfcExample)
        #expect(RetryAfter.delay(from: "Wed Nov 16 08:49:37 1994", now: now) == 864_000)  // ten days
    }

    @Test func pastDatesGiveZero() {
        let now = Date(timeIntervalSince1970: Self.rfcExample + 1)
        #expect(RetryAfter.delay(from: "Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 0)
        #expect(RetryAfter.delay(from: "Thu, 01 Jan 1970 00:00:00 GMT", now: now) == 0)
        #expect(RetryAfter.delay(from: "Sat, 01 Jan 0000 00:00:00 GMT", now: now) == 0)
    }

    @Test func leapDaysAndLeapSeconds() {
        let now = Date(timeIntervalSince1970: 0)
        #expect(RetryAfter.delay(from: "Thu, 29 Feb 2024 00:00:00 GMT", now: now) == 1_709_164_800)
        #expect(RetryAfter.delay(from: "Tue, 29 Feb 2000 00:00:00 GMT", now: now) == 951_782_400)
        // 23:59:60 is the second after 23:59:59.
        #expect(RetryAfter.delay(from: "Sat, 31 Dec 2016 23:59:60 GMT", now: now) == 1_483_228_800)
        #expect(RetryAfter.delay(from: "Fri, 31 Dec 9999 23:59:59 GMT", now: now) == 253_402_300_799)
    }

    /// RFC 9110 §5.6.7: a two-digit year more than 50 years ahead means the latest past year with those digits.
    @Test func rfc850YearsAreTheNearestWithinFiftyYearsAhead() {
        let now = Date(timeIntervalSince1970: 1_767_225_600)  // Thu, 01 Jan 2026 00:00:00 GMT
        // 2076 is 50 years ahead: still the future (2076-01-01 is 3_345_062_400 s after 1970).
        #expect(RetryAfter.delay(from: "Wednesday, 01-Jan-76 00:00:00 GMT", now: now) == 1_577_836_800)
        // 2077 would be 51 years ahead: it is 1977, in the past.
        #expect(RetryAfter.delay(from: "Saturday, 01-Jan-77 00:00:00 GMT", now: now) == 0)
        #expect(RetryAfter.delay(from: "Friday, 02-Jan-26 00:00:00 GMT", now: now) == 86_400)
    }

    @Test func datesAgreeWithDateFormatter() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let origin = Date(timeIntervalSince1970: -2_208_988_800)  // 1900-01-01
        var generator = SplitMix64(seed: 42)
        for _ in 0..<500 {
            let seconds = TimeInterval(generator.next() % 6_311_433_600)  // up to 2100
            let date = origin.addingTimeInterval(seconds)
            let value = formatter.string(from: date)
            #expect(RetryAfter.delay(from: value, now: origin) == seconds, "\(value)")
        }
    }

    @Test func nonFiniteNowGivesNilForDatesButNotForSeconds() {
        for now in [TimeInterval.nan, .infinity, -.infinity] {
            let date = Date(timeIntervalSince1970: now)
            #expect(RetryAfter.delay(from: "Sun, 06 Nov 1994 08:49:37 GMT", now: date) == nil)
            #expect(RetryAfter.delay(from: "30", now: date) == 30)
        }
    }

    @Test func extremeNowNeverTraps() {
        for now in [1e300, -1e300, TimeInterval.greatestFiniteMagnitude] {
            let delay = RetryAfter.delay(from: "Sunday, 06-Nov-94 08:49:37 GMT", now: Date(timeIntervalSince1970: now))
            #expect(delay.map { $0.isFinite && $0 >= 0 } == true)
        }
    }

    @Test func headersGiveTheFirstRetryAfterField() {
        let now = Date(timeIntervalSince1970: 0)
        #expect(RetryAfter.delay(in: ["retry-after": "12", "Content-Type": "text/plain"], now: now) == 12)
        #expect(RetryAfter.delay(in: ["Content-Type": "text/plain"], now: now) == nil)
        #expect(RetryAfter.delay(in: ["Retry-After": "later"], now: now) == nil)
    }

    /// Random bytes and mangled dates never crash and give `nil` or a finite, non-negative delay.
    @Test func arbitraryInputIsSafe() {
        var generator = SplitMix64(seed: 7)
        let alphabet = Array("0123456789 ,:-\tSunNovGMTday\u{0}\u{FFFD}é".unicodeScalars)
        let seeds = ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"]
        for round in 0..<5_000 {
            var scalars = Array(seeds[round % 3].unicodeScalars)
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let index = Int(generator.next() % UInt64(scalars.count + 1))
                let scalar = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                switch generator.next() % 3 {
                case 0: scalars.insert(scalar, at: index)
                case 1 where index < scalars.count: scalars[index] = scalar
                default: if index < scalars.count { scalars.remove(at: index) }
                }
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            let delay = RetryAfter.delay(from: text, now: Date(timeIntervalSince1970: 0))
            #expect(delay.map { $0.isFinite && $0 >= 0 } ?? true, "\(text.debugDescription)")
        }
    }
}

/// A small deterministic generator, so failures can be reproduced.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
