// WritingATransport.md, sample 3.
import CoreAPI
import CoreAPITesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct MyEngineTransportConformanceTests {
    @Test(arguments: TransportConformance.cases)
    func conforms(to conformanceCase: TransportConformance.Case) async throws {
        try await conformanceCase.run { MyEngineTransport() }
    }
}
