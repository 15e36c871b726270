import Foundation
import Testing

@testable import CoreAPI

/// The digest that names the file store's files, against FIPS 180-4's examples and lengths around
/// the padding's block boundaries, and the HMAC that keeps secrets the cache varies on, against
/// RFC 4231's.
struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
    ])
    func matchesKnownDigests(input: String, digest: String) {
        #expect(SHA256.hex(of: input.utf8) == digest)
    }

    @Test(arguments: [
        (
            [UInt8](repeating: 0x0b, count: 20), "Hi There",
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            Array("Jefe".utf8), "what do ya want for nothing?",
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            [UInt8](repeating: 0xaa, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First",
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
    ])
    func hmacMatchesRFC4231(key: [UInt8], message: String, mac: String) {
        #expect(SHA256.hmacHex(key: key, message: message.utf8) == mac)
    }
}
