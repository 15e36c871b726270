// TransportConformance.swift, sample 1.
import CoreAPI
import CoreAPITesting

func checkConformance() async throws {
    for conformanceCase in TransportConformance.cases {
        try await conformanceCase.run { URLSessionTransport() }
    }
}
