// RetryAfter.swift, sample 1: expressions and their values, in the body of a `@Playground` function.
import CoreAPI
import Foundation

@Playground private func sample() {
    RetryAfter.delay(from: "120", now: Date())  // 120
    RetryAfter.delay(from: "Sun, 06 Nov 1994 08:49:37 GMT", now: Date())  // 0: the date has passed
    RetryAfter.delay(from: "soon", now: Date())  // nil
}
