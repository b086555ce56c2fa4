import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The check that a response's body is the one its head announced, which libcurl (and so
/// FoundationNetworking) does not make: it reads `Content-Length: 5five` as 5, `1e3` as 1 and
/// `0x10` as 0, and cuts the body to that without an error.
enum BodyFraming {
    /// Throws when `Content-Length` is not a plain decimal number (RFC 9110 §8.6; a list of equal
    /// values, as some servers repeat the field, is accepted), or when `received` body bytes
    /// disagree with it.
    ///
    /// The length is not compared for a `HEAD` request, for statuses without a body (1xx, 204,
    /// 304), for redirects (FoundationNetworking drops the body of a redirect it was told not to
    /// follow when the task has a completion handler), or when a `Content-Encoding` was decoded
    /// (the field counts the encoded bytes).
    static func check(_ response: HTTPURLResponse, received: Int64, method: String?) throws(URLError) {
        guard let field = response.value(forHTTPHeaderField: "Content-Length") else { return }
        guard let declared = declaredLength(field) else {
            let shown = field.count > 40 ? field.prefix(40) + "…" : Substring(field)
            throw URLError(
                .badServerResponse,
                userInfo: [NSLocalizedDescriptionKey: "The server sent an invalid Content-Length (\"\(shown)\"): not a decimal number of bytes."])
        }
        let status = response.statusCode
        let isHead = method != "GET" && method?.uppercased() == "HEAD"
        guard !isHead, status >= 200, status != 204, !(300..<400).contains(status) else { return }
        if let coding = response.value(forHTTPHeaderField: "Content-Encoding"), coding.lowercased() != "identity" { return }
        guard received == declared else {
            throw URLError(
                received < declared ? .networkConnectionLost : .badServerResponse,
                userInfo: [NSLocalizedDescriptionKey: "The body has \(received) bytes where Content-Length announced \(declared)."])
        }
    }

    /// The length a `Content-Length` value declares, or `nil` when it is not one.
    static func declaredLength(_ field: String) -> Int64? {
        // Over the UTF-8 bytes: a CharacterSet made per response cost more than the rest of the
        // check together.
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var length: Int64?
        for item in field.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            guard let start = item.firstIndex(where: { !isBlank($0) }), let end = item.lastIndex(where: { !isBlank($0) }) else {
                return nil
            }
            var value: Int64 = 0
            for byte in item[start...end] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowAgain) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                guard !overflow, !overflowAgain else { return nil }
                value = sum
            }
            guard length == nil || length == value else { return nil }
            length = value
        }
        return length
    }
}
