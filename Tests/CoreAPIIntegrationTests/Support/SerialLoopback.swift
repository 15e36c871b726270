import Testing

/// Loopback suites whose tests run one at a time: the timing checks of `LoopbackTests` must not share
/// the machine's cores with the large uploads of `UploadTests` and `UploadMemoryTests`.
@Suite(.serialized) enum SerialLoopback {}
