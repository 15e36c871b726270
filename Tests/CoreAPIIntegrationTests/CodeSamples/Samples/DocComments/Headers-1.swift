// Headers.swift, sample 1: expressions and their values, in the body of a `@Playground` function.
import CoreAPI

@Playground private func sample() {
    var headers = Headers(["Authorization": "Bearer abc"])
    headers.add("gzip", for: "Accept-Encoding")
    headers["accept-encoding"]  // "gzip"
}
