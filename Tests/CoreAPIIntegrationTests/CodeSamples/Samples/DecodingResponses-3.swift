// DecodingResponses.md, sample 3.
import CoreAPIJSON
import Foundation

extension Catalog {
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.userInfo[LossyArrayObserver.userInfoKey] = LossyArrayObserver { report in
            print("catalog dropped \(report.dropped.count) of \(report.count) at \(report.path)")
        }
        return decoder
    }()
}
