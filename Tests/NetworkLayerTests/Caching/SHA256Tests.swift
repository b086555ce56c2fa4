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

    /// Lengths on each side of the padding boundaries (55/56 bytes, 64 bytes), against coreutils.
    @Test(arguments: [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1_000])
    func agreesWithSha256sum(length: Int) throws {
        let message = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        #expect(SHA256.hash(message).hex == (try sha256(of: message)))
    }

    @Test func digestRoundTripsThroughItsBytes() {
        let digest = SHA256.hash("abc")
        #expect(SHA256Digest(bytes: digest.bytes) == digest)
        #expect(SHA256Digest(bytes: digest.bytes.prefix(31)) == nil)
    }
}
