// ApiCall.swift, sample 1: statements, in the body of a function.
import CoreAPI
import Foundation

@MainActor private func sample(session: ApiSession, file: URL, bar: ProgressBar) async throws -> Data {
    let upload = session.start(UploadPhoto(file: file))
    Task {
        for await step in upload.progress {
            bar.value = step.fractionCompleted ?? 0
        }
    }
    let receipt = try await upload.value
    return receipt
}
