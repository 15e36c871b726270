import CoreAPI
import Foundation

/// How a call ended, by category.
enum CallOutcome: Hashable, Sendable, CustomStringConvertible {
    case success
    case cancelled
    case timeout
    case status(Int)
    case other(String)

    /// Performs `method` on `session`; a body other than `expectedBody`, when given, is `.other`.
    init<M: ApiMethod>(_ session: ApiSession, _ method: M, expectedBody: Data? = nil) async where M.Output == Data {
        do {
            let data = try await session.perform(method)
            if let expectedBody, data != expectedBody {
                self = .other("unexpected body \(String(decoding: data, as: UTF8.self))")
            } else {
                self = .success
            }
        } catch {
            self.init(error)
        }
    }

    init(_ error: any Error) {
        switch error {
        case ApiError.cancelled: self = .cancelled
        case ApiError.timeout: self = .timeout
        case ApiError.unacceptableStatus(let failure): self = .status(failure.statusCode)
        default: self = .other(String(describing: error))
        }
    }

    var description: String {
        switch self {
        case .success: "success"
        case .cancelled: "cancelled"
        case .timeout: "timeout"
        case .status(let code): "status \(code)"
        case .other(let text): text
        }
    }
}
