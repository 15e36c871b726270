// TextApiResponse.swift, sample 1.
import CoreAPI
import CoreAPIText

private enum Sample {
    struct Version: TextApiResponse {
        let major: Int
        init?(text: String) {
            guard let major = Int(text.prefix { $0 != "." }) else { return nil }
            self.major = major
        }
    }
}
