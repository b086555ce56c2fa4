import Foundation

/// SHA-256 (FIPS 180-4 §6.2), for the cache's keys, credential fingerprints and disk checksums.
///
/// Our own because Foundation has no SHA-256 on Linux and CryptoKit does not exist there; the
/// package takes no dependency. Checked against the FIPS 180-4 example vectors and coreutils'
/// `sha256sum` in `SHA256Tests`.
struct SHA256 {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// Bytes of an incomplete block, waiting for the rest of it.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    init() {}

    /// The digest of `bytes` in one call.
    static func hash(_ bytes: some Sequence<UInt8>) -> SHA256Digest {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of bytes in memory, without a heap allocation: every cache lookup hashes its
    /// URL, and the buffers of `update` and `finalize` were a third of that hash's time.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> SHA256Digest {
        var hasher = SHA256()
        let whole = bytes.count / 64 * 64
        if whole > 0 {
            hasher.compress(blocks: UnsafeRawBufferPointer(rebasing: bytes[0..<whole]))
        }
        hasher.length = UInt64(bytes.count)
        return hasher.finishing(UnsafeRawBufferPointer(rebasing: bytes[whole...]))
    }

    /// The digest of a string's UTF-8 bytes.
    static func hash(_ text: String) -> SHA256Digest {
        var text = text
        return text.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }

    mutating func update(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if handled == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { update($0) }
        }
    }

    mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let taken = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<taken])
            offset = taken
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress(blocks: $0) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = (bytes.count - offset) / 64 * 64
        if whole > 0 {
            compress(blocks: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + whole]))
            offset += whole
        }
        if offset < bytes.count {
            pending.append(contentsOf: bytes[offset...])
        }
    }

    /// The digest of everything passed to `update`: the padding of FIPS 180-4 §5.1.1, then the state.
    mutating func finalize() -> SHA256Digest {
        let pending = pending
        return pending.withUnsafeBytes { finishing($0) }
    }

    /// The digest once `remainder`, the last bytes (fewer than 64), is padded and compressed in
    /// one or two blocks on the stack.
    private mutating func finishing(_ remainder: UnsafeRawBufferPointer) -> SHA256Digest {
        let bitLength = (length &* 8).bigEndian
        let blocks = remainder.count + 9 <= 64 ? 64 : 128
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer in
            let tail = UnsafeMutableRawBufferPointer(start: buffer.baseAddress, count: blocks)
            tail.initializeMemory(as: UInt8.self, repeating: 0)
            tail.copyMemory(from: remainder)
            tail[remainder.count] = 0x80
            withUnsafeBytes(of: bitLength) { length in
                UnsafeMutableRawBufferPointer(rebasing: tail[(blocks - 8)...]).copyMemory(from: length)
            }
            compress(blocks: UnsafeRawBufferPointer(tail))
        }
        let (a, b, c, d, e, f, g, h) = state
        return SHA256Digest(
            UInt64(a) << 32 | UInt64(b), UInt64(c) << 32 | UInt64(d), UInt64(e) << 32 | UInt64(f), UInt64(g) << 32 | UInt64(h))
    }

    /// Whole 64-byte blocks, one after the other (FIPS 180-4 §6.2.2).
    ///
    /// Masking shifts (`&>>`, `&<<`) throughout: Swift's `>>` checks for over-shifting, a
    /// branch per shift in the hottest loop of the cache.
    private mutating func compress(blocks: UnsafeRawBufferPointer) {
        Self.roundConstants.withUnsafeBufferPointer { constants in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
                var blockStart = 0
                while blockStart + 64 <= blocks.count {
                    for t in 0..<16 {
                        schedule[t] = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: blockStart + t * 4, as: UInt32.self))
                    }
                    for t in 16..<64 {
                        let w15 = schedule[t - 15]
                        let w2 = schedule[t - 2]
                        let sigma0 = w15.rotatedRight(7) ^ w15.rotatedRight(18) ^ (w15 &>> 3)
                        let sigma1 = w2.rotatedRight(17) ^ w2.rotatedRight(19) ^ (w2 &>> 10)
                        schedule[t] = schedule[t - 16] &+ sigma0 &+ schedule[t - 7] &+ sigma1
                    }
                    var (a, b, c, d, e, f, g, h) = state
                    for t in 0..<64 {
                        let bigSigma1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                        let choice = (e & f) ^ (~e & g)
                        let t1 = h &+ bigSigma1 &+ choice &+ constants[t] &+ schedule[t]
                        let bigSigma0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let t2 = bigSigma0 &+ majority
                        h = g
                        g = f
                        f = e
                        e = d &+ t1
                        d = c
                        c = b
                        b = a
                        a = t1 &+ t2
                    }
                    state = (
                        state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g,
                        state.7 &+ h
                    )
                    blockStart += 64
                }
            }
        }
    }

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

extension UInt32 {
    @inline(__always)
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self &>> count) | (self &<< (32 &- count))
    }
}

/// A SHA-256 digest: 32 bytes held as four big-endian words, so that it hashes and compares fast
/// as a dictionary key.
struct SHA256Digest: Hashable, Sendable, CustomStringConvertible {
    let words: (UInt64, UInt64, UInt64, UInt64)

    init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) {
        words = (w0, w1, w2, w3)
    }

    /// Reads 32 bytes; `nil` when there are fewer.
    init?(bytes: some Collection<UInt8>) {
        guard bytes.count >= 32 else { return nil }
        var words: [UInt64] = [0, 0, 0, 0]
        for (index, byte) in bytes.prefix(32).enumerated() {
            words[index / 8] = words[index / 8] << 8 | UInt64(byte)
        }
        self.init(words[0], words[1], words[2], words[3])
    }

    /// The digest of nothing in particular: all zero bits, for "no credential" and "no Vary".
    static let zero = SHA256Digest(0, 0, 0, 0)

    /// The 32 bytes, most significant first.
    var bytes: [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(32)
        for word in [words.0, words.1, words.2, words.3] {
            withUnsafeBytes(of: word.bigEndian) { result.append(contentsOf: $0) }
        }
        return result
    }

    /// 64 lower-case hexadecimal digits.
    var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    var description: String { hex }

    static func == (lhs: SHA256Digest, rhs: SHA256Digest) -> Bool {
        lhs.words == rhs.words
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
