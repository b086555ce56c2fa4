import Foundation

/// RFC 3986 percent-escaping for query keys and values.
///
/// Only the unreserved characters (`A–Z a–z 0–9 - . _ ~`) and `?` and `/` stay literal, as in
/// Alamofire's `URLEncoding` (RFC 3986 §3.4 allows `?` and `/` in a query). Everything else,
/// including `+`, `&`, `=`, `%`, brackets and all non-ASCII bytes of the UTF-8 encoding, becomes
/// `%XX` with upper-case hex digits.
package enum PercentEscaping {
    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// The value of one hex digit of a `%XX` escape, in either case, or `nil`: the one rule for
    /// reading escapes back (path checks, `filename*` values).
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    @inline(__always)
    static func isLiteral(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "?"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    /// Appends `string` to `output`, escaped for a query component.
    static func append(_ string: String, escapedTo output: inout [UInt8]) {
        for byte in string.utf8 {
            if isLiteral(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    /// `string` with everything but the unreserved characters escaped, `?` and `/` included:
    /// safe as one path segment.
    package static func escapeAllReserved(_ string: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if isLiteral(byte), byte != UInt8(ascii: "?"), byte != UInt8(ascii: "/") {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
