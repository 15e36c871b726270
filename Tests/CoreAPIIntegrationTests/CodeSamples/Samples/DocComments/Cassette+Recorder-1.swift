// Cassette+Recorder.swift, sample 1: statements, in the body of a function.
import CoreAPI
import CoreAPITesting
import Foundation

private func sample(policy: SessionPolicy, hosts: DictionaryHostProvider, cassetteURL: URL) async throws {
    let recorder = Cassette.Recorder(
        wrapping: URLSessionTransport(),
        redaction: Cassette.Redaction(secrets: policy.secrets),
        settings: Cassette.Recorder.Settings(fixedDate: Date(timeIntervalSince1970: 0))
    )
    let session = ApiSession(hostProvider: hosts, transport: recorder, policy: policy)
    _ = try await session.perform(GetUser(id: 42))
    try recorder.archive.write(to: cassetteURL)
}
