// LossyArrayObserver.swift, sample 1: statements, in the body of a function.
import CoreAPI
import CoreAPIJSON
import Foundation

private func sample() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.userInfo[LossyArrayObserver.userInfoKey] = LossyArrayObserver { report in
        print("dropped \(report.dropped.count) of \(report.count) at \(report.path)")
    }
    return decoder
}
