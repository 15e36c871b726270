// HTTPStatus.swift, sample 1.
import CoreAPI

extension HTTPStatus {
    static let sessionExpired = HTTPStatus(440, reasonPhrase: "Session Expired")
}
