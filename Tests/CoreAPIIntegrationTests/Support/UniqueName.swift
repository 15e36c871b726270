import Foundation

/// `label` with a random suffix: a name of its own for one test's resource on the shared fixture, whose
/// counts and logs are kept by name.
func uniqueName(_ label: String) -> String {
    "\(label)-\(UUID().uuidString.prefix(8))"
}
