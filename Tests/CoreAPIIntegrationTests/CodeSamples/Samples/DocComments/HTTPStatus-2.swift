// HTTPStatus.swift, sample 2: statements, in the body of a function.
import CoreAPI

private func sample(response: ResponseHead) {
    switch response.statusCode {
    case HTTPStatus.notFound: showEmptyState()
    case HTTPStatus.Kind.serverError: scheduleRetry()
    default: break
    }
}
