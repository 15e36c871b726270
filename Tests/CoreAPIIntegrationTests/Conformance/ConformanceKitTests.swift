import CoreAPI
import CoreAPITesting
import Testing

/// The public conformance kit of CoreAPITesting, over every transport under test: each of its cases
/// passes, as it must for a third party's transport.
@Suite(.timeLimit(.minutes(1)))
struct ConformanceKitTests {
    @Test(arguments: TestTransport.underTest, TransportConformance.cases)
    func everyCasePasses(transport: TestTransport, conformanceCase: TransportConformance.Case) async throws {
        try await conformanceCase.run { transport.makeTransport() }
    }

    /// The cases have names of their own, and a summary each.
    @Test func casesAreNamedAndDescribed() {
        let cases = TransportConformance.cases
        #expect(Set(cases.map(\.name)).count == cases.count)
        #expect(cases.allSatisfy { !$0.summary.isEmpty && $0.description == $0.name })
        #expect(cases.count == 17)
    }
}
