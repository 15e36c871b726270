// CannedResponse.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample() -> [CannedResponse] {
    let user = CannedResponse.json(#"{"id": 42, "name": "Ada"}"#)
    let missing = CannedResponse.status(404)
    let slow = CannedResponse.text("ok").delayed(by: .seconds(2))
    let offline = CannedResponse.failure(.transport(.init(kind: .offline)))
    let tooSlow = CannedResponse.failure(.timeout)
    return [user, missing, slow, offline, tooSlow]
}
