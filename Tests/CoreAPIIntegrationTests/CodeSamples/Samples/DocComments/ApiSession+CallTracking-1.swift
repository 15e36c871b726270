// ApiSession+CallTracking.swift, sample 1: statements, in the body of a function.
import CoreAPI

@MainActor private func sample(session: ApiSession, spinner: Spinner) async {
    for await count in session.callCounts() {
        spinner.isVisible = count > 0
    }
}
