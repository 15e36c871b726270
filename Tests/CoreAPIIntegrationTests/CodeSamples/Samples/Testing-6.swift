// Testing.md, sample 6.
import CoreAPI
import CoreAPITesting
import Foundation

func makeCassette(named name: String, policy: SessionPolicy) -> Cassette {
    Cassette(
        named: name,
        in: cassettesFolder,
        redaction: Cassette.Redaction(secrets: policy.secrets).replacing("ada@example.com", with: "<email>"),
        settings: Cassette.Recorder.Settings(bodyLimit: 256 * 1024, fixedDate: Date(timeIntervalSince1970: 0))
    )
}
