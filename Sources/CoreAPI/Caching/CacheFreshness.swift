import Foundation

/// How fresh a stored response is, by RFC 9111 §4.2: its freshness lifetime and its current age.
struct CacheFreshness {
    /// The statuses a cache may give a heuristic freshness lifetime (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// How long the response stays fresh: `s-maxage` for a shared cache (a private one ignores it),
    /// else `max-age`, else `Expires` minus `Date`, else — only for a status that allows it and a
    /// response without an `Expires` — a tenth of the time since `Last-Modified`, at most a day
    /// (§4.2.2); zero otherwise.
    static func lifetime(of response: HTTPCacheMiddleware.StoredResponse, shared: Bool = false) -> TimeInterval {
        let headers = response.headers
        let control = CacheControl(headers)
        if shared, let sharedMaxAge = control.seconds("s-maxage") {
            return sharedMaxAge
        }
        if let maxAge = control.seconds("max-age") {
            return maxAge
        }
        let date = headers["Date"].flatMap(parseDate) ?? response.responseTime
        if let expires = headers["Expires"] {
            // An invalid date, such as "0", means already expired.
            return max(0, (parseDate(expires) ?? .distantPast).timeIntervalSince(date))
        }
        if heuristicallyCacheable.contains(response.statusCode) || control.has("public"),
            let modified = headers["Last-Modified"].flatMap(parseDate)
        {
            return min(max(0, date.timeIntervalSince(modified)) / 10, 24 * 3600)
        }
        return 0
    }

    /// The response's current age at `now` (§4.2.3): its `Age` and the delay of its exchange, or how old
    /// its `Date` says it is, whichever is larger, plus how long it has been stored.
    static func age(of response: HTTPCacheMiddleware.StoredResponse, at now: Date) -> TimeInterval {
        let headers = response.headers
        let ageValue = headers["Age"].flatMap { TimeInterval($0) } ?? 0
        let dateValue = headers["Date"].flatMap(parseDate) ?? response.responseTime
        let apparentAge = max(0, response.responseTime.timeIntervalSince(dateValue))
        let responseDelay = max(0, response.responseTime.timeIntervalSince(response.requestTime))
        let initialAge = max(apparentAge, ageValue + responseDelay)
        return initialAge + max(0, now.timeIntervalSince(response.responseTime))
    }

    /// An HTTP date (RFC 9110 §5.6.7): IMF-fixdate, or the obsolete RFC 850 and asctime forms.
    static func parseDate(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text.trimmingCharacters(in: .whitespaces)) {
                return date
            }
        }
        return nil
    }

    /// `date` as an IMF-fixdate.
    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
