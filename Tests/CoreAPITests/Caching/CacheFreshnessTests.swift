import Foundation
import Testing

@testable import CoreAPI

/// Freshness lifetimes and ages by RFC 9111 §4.2, one rule per case.
struct CacheFreshnessTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func stored(
        _ headers: Headers,
        status: Int = 200,
        sent: TimeInterval = 0,
        received: TimeInterval = 0
    )
        -> HTTPCacheMiddleware.StoredResponse
    {
        HTTPCacheMiddleware.StoredResponse(
            url: URL(string: "https://api.test/x")!,
            statusCode: status,
            headers: headers,
            body: Data(),
            requestTime: now.addingTimeInterval(sent),
            responseTime: now.addingTimeInterval(received)
        )
    }

    static func date(_ offset: TimeInterval) -> String {
        CacheFreshness.format(now.addingTimeInterval(offset))
    }

    @Test(arguments: [
        ("max-age", stored(["Cache-Control": "max-age=60, s-maxage=600"]), 60.0),
        ("Expires against Date", stored(["Date": date(0), "Expires": date(300)]), 300.0),
        ("an invalid Expires is expired", stored(["Date": date(0), "Expires": "0"]), 0.0),
        ("max-age wins over Expires", stored(["Cache-Control": "max-age=5", "Expires": date(300)]), 5.0),
        ("a tenth since Last-Modified", stored(["Date": date(0), "Last-Modified": date(-1000)]), 100.0),
        ("at most a day by heuristic", stored(["Date": date(0), "Last-Modified": date(-100 * 86400)]), 86400.0),
        ("no heuristic for a 302", stored(["Date": date(0), "Last-Modified": date(-1000)], status: 302), 0.0),
        ("nothing is nothing", stored([:]), 0.0),
    ])
    func lifetimes(label: String, response: HTTPCacheMiddleware.StoredResponse, seconds: TimeInterval) {
        #expect(CacheFreshness.lifetime(of: response) == seconds, "\(label)")
    }

    /// Age: the `Age` field plus the exchange's delay, or the `Date`'s lag, plus the time stored.
    @Test func ages() {
        let aged = Self.stored(["Age": "30", "Date": Self.date(0)], sent: -2, received: 0)
        #expect(CacheFreshness.age(of: aged, at: Self.now.addingTimeInterval(10)) == 42)
        let late = Self.stored(["Date": Self.date(-50)], sent: 0, received: 0)
        #expect(CacheFreshness.age(of: late, at: Self.now.addingTimeInterval(10)) == 60)
    }
}
