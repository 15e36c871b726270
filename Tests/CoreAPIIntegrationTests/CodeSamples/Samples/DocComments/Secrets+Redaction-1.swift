// Secrets+Redaction.swift, sample 1: expressions and their values, in the body of a `@Playground` function.
import CoreAPI
import Foundation

@Playground private func sample() {
    let redaction = Secrets.Redaction(secretHeaderNames: ["X-Api-Key"], secretParameterKeys: ["pin"])
    redaction.redact(URL(string: "https://api.example.com/login?user=ada&pin=1234")!)
    // "https://api.example.com/login?user=ada&pin=<redacted>"
}
