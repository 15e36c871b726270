// ApiSession+Batches.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample(session: ApiSession, ids: [Int]) async {
    for await item in session.results(of: ids.map(GetUser.init), mode: .concurrent(limit: 3)) {
        if case .success(let user) = item.result { show(user, at: item.index) }
    }
}
