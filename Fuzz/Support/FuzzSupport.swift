// Shared by every fuzz target: compiled into each target's executable together with the library.
import Foundation

/// The fuzz input as tokens separated by `0xFF`, a byte that never occurs in valid UTF-8.
///
/// A target reads tokens in order; a missing token reads as empty. Seeds stay readable:
/// `printf 'name\xffvalue'` is the two tokens `name` and `value`.
struct FuzzTokens {
    static let separator: UInt8 = 0xFF

    private let tokens: [[UInt8]]
    private var position = 0

    init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        self.init(Array(UnsafeBufferPointer(start: data, count: size)))
    }

    init(_ bytes: [UInt8]) {
        tokens = bytes.split(separator: Self.separator, omittingEmptySubsequences: false).map(Array.init)
    }

    var isAtEnd: Bool { position >= tokens.count }

    /// The next token, or an empty one after the last.
    mutating func next() -> [UInt8] {
        guard position < tokens.count else { return [] }
        defer { position += 1 }
        return tokens[position]
    }

    /// The next token as a string (invalid UTF-8 is repaired with U+FFFD, as `String(decoding:as:)` does).
    mutating func nextString() -> String {
        String(decoding: next(), as: UTF8.self)
    }
}

/// Option bytes: byte `index` of a token, `0` past its end.
struct FuzzOptions {
    let bytes: [UInt8]

    subscript(index: Int) -> UInt8 {
        index < bytes.count ? bytes[index] : 0
    }
}

/// Fails the run with a message when a property does not hold: libFuzzer sees the abort, saves the input
/// as `crash-<sha1>` and exits non-zero.
func require(
    _ condition: @autoclosure () -> Bool,
    _ message: @autoclosure () -> String,
    file: StaticString = #fileID,
    line: UInt = #line
) {
    guard !condition() else { return }
    fail(message(), file: file, line: line)
}

/// Fails the run unconditionally; see ``require(_:_:file:line:)``.
func fail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    FileHandle.standardError.write(Data("\n== PROPERTY FAILED (\(file):\(line)): \(message)\n".utf8))
    abort()
}

/// `text` with its UTF-8 bytes shown, for failure messages.
func show(_ text: String) -> String {
    "\(text.debugDescription) [\(text.utf8.map { String($0, radix: 16) }.joined(separator: " "))]"
}

/// `bytes` as hex, for failure messages.
func show(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
}

/// Whether two strings have the same UTF-8 bytes (`==` on `String` compares canonical equivalence).
func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
    lhs.utf8.elementsEqual(rhs.utf8)
}

/// Called by libFuzzer before anything else. The Swift runtime's crash backtracer claims SIGABRT, SIGILL and
/// SIGSEGV before libFuzzer can, so a crash would not be saved as an artifact (and the backtracer can hang
/// under ASan). Unless `SWIFT_BACKTRACE` is set, re-run this executable once with it turned off.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> CInt {
    guard getenv("SWIFT_BACKTRACE") == nil else { return 0 }
    setenv("SWIFT_BACKTRACE", "enable=no", 1)
    execv("/proc/self/exe", argv.pointee)
    // Only reached when exec failed: carry on, crashes are still crashes.
    FileHandle.standardError.write(Data("warning: could not re-exec with SWIFT_BACKTRACE=enable=no\n".utf8))
    return 0
}
