import Foundation

/// The folder the Testing article's cassette samples read: `Fixtures/Cassettes` of this test target, which
/// holds `fetchesAUser.har`.
let cassettesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/Cassettes")
