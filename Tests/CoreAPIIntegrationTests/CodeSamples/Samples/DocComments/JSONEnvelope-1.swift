// JSONEnvelope.swift, sample 1.
import CoreAPI
import CoreAPIJSON

private enum Sample {
    struct Items: JSONApiResponse {
        static var envelope: JSONEnvelope { "result.items" }
        let names: [String]
    }
}
