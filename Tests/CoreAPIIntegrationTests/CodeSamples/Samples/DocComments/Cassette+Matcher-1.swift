// Cassette+Matcher.swift, sample 1: statements, in the body of a function.
import CoreAPITesting

private func sample() -> [[Cassette.Matcher]] {
    let matchers = Cassette.Matcher.defaults + [.headers(["Accept-Language"])]
    let loose = [Cassette.Matcher.method, .path]
    let byTenant = Cassette.Matcher("tenant") { recorded, sent in
        recorded.url.contains("tenant=") == sent.url.contains("tenant=") ? nil : "one names a tenant"
    }
    return [matchers, loose, [byTenant]]
}
