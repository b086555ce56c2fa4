import Foundation
import Testing
@testable import NetworkLayer

/// The example vectors of FIPS 180-4 (NIST's "SHA256.pdf" and "SHA2_Additional.pdf"), and
/// agreement with coreutils' `sha256sum` around every padding boundary.
@Suite("SHA-256")
struct SHA256Tests {
    @Test func oneBlockMessageABC() {
        #expect(SHA256.hash("abc").hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func emptyMessage() {
        #expect(SHA256.hash("").hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func twoBlockMessageOf448Bits() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(SHA256.hash(message).hex == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func messageOf896Bits() {
        let message =
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(SHA256.hash(message).hex == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test func oneMillionRepetitionsOfA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hash(message).hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func feedingInPiecesGivesTheSameDigestAsAtOnce() {
        let message = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var hasher = SHA256()
        var offset = 0
        for size in [1, 62, 3, 64, 65, 127, 200, 1_000] where offset < message.count {
            let end = min(message.count, offset + size)
            hasher.update(message[offset..<end])
            offset = end
        }
        hasher.update(message[offset...])
        #expect(hasher.finalize() == SHA256.hash(message))
    }

    /// The one-shot hash of bytes in memory pads on the stack; the streaming one through its
    /// buffers. Both agree at every length across two blocks' padding boundaries.
    @Test func hashingInOneCallAgreesWithStreamingAtEveryLength() {
        for length in 0...200 {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
            let once = message.withUnsafeBytes { SHA256.hash($0) }
            #expect(once == SHA256.hash(message), "length \(length)")
        }
    }

    /// Lengths on each side of the padding boundaries (55/56 bytes, 64 bytes), of the bytes
    /// `i * 7 + 3`. The digests are coreutils' `sha256sum` of the same bytes, written here
    /// rather than computed by a child process per case: waiting for 14 processes held the
    /// cooperative thread pool long enough to make other suites' deadlines fail.
    @Test(arguments: [
        (0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (1, "084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5"),
        (55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"),
        (56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27"),
        (57, "35df609437dcfea3279283ab79fd554e2bf78f8f7ae2de532d8ee300b09e8f73"),
        (63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"),
        (64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241"),
        (65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"),
        (119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"),
        (120, "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5"),
        (127, "a8d23e75d936f303d248888d9b165ee543f4cbafcad3c9dd2a79bd84faa11d07"),
        (128, "d2742f1f4ac6bb7ca2b239ee18402ba8b3f9f8e652d2a72973c2b9ba11c08cf6"),
        (129, "307f8fc2c1622b92762e818d39a185d4d667ad49a4b07ceae1f4afa008a93ec4"),
        (1000, "1e9bc38cbf860b9ec31918b065f9b52476c549a782e0e7990bed8ce3868d2371"),
    ])
    func agreesWithSha256sum(length: Int, expected: String) {
        let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        #expect(SHA256.hash(message).hex == expected)
    }

    @Test func digestRoundTripsThroughItsBytes() {
        let digest = SHA256.hash("abc")
        #expect(SHA256Digest(bytes: digest.bytes) == digest)
        #expect(SHA256Digest(bytes: digest.bytes.prefix(31)) == nil)
    }
}
