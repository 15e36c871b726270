// CassetteMatcher.swift, sample 1: statements, in the body of a function.
import CoreAPITesting

private func sample() -> [[CassetteMatcher]] {
    let matchers = CassetteMatcher.defaults + [.headers(["Accept-Language"])]
    let loose = [CassetteMatcher.method, .path]
    let byTenant = CassetteMatcher("tenant") { recorded, sent in
        recorded.url.contains("tenant=") == sent.url.contains("tenant=") ? nil : "one names a tenant"
    }
    return [matchers, loose, [byTenant]]
}
