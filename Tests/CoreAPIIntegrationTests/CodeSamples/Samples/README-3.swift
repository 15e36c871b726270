// README.md, sample 3: in ReadmeSamples, beside the README's other declarations.
import CoreAPI
import Foundation

extension ReadmeSamples {
    struct GetReport: ApiMethod {
        typealias Response = Data
        var hostProviderKey: String { "api" }
        var path: String { "/report" }
        var options: CallOptions {
            CallOptions(timeout: .seconds(5), acceptableStatusCodes: [200, 404])
        }
    }

    func loadReport(with session: ApiSession) async throws -> Data {
        try await session.perform(GetReport(), options: CallOptions(deadline: .seconds(30)))
    }
}
