import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The check that a response's body is the one its head announced, which libcurl (and so
/// FoundationNetworking) does not make: it reads `Content-Length: 5five` as 5, `1e3` as 1 and
/// `0x10` as 0, and cuts the body to that without an error. Both transports apply it: the head's
/// rule (``problem(contentLength:transferEncoding:)``) is this file's, written once.
package enum BodyFraming {
    /// Why a response head's framing cannot be trusted, or `nil`: a `Content-Length` that is not
    /// one plain decimal number (RFC 9110 §8.6; equal repeated values are accepted), or both
    /// `Transfer-Encoding` and `Content-Length` (RFC 9112 §6.3: "ought to be handled as an
    /// error", the shape of response smuggling). `contentLength` holds every field, joined.
    package static func problem(contentLength: String?, transferEncoding: String?) -> String? {
        guard let contentLength else { return nil }
        if transferEncoding != nil {
            return "the response has both Transfer-Encoding and Content-Length, so its length cannot be trusted"
        }
        guard declaredLength(contentLength) != nil else {
            let shown = contentLength.count > 40 ? contentLength.prefix(40) + "…" : Substring(contentLength)
            return "the response's Content-Length \"\(HeaderValidation.printable(String(shown)))\" is not one decimal number of bytes"
        }
        return nil
    }

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
        if let problem = problem(contentLength: field, transferEncoding: response.value(forHTTPHeaderField: "Transfer-Encoding")) {
            throw URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: "The server's response is malformed: \(problem)."])
        }
        guard let declared = declaredLength(field) else { return }
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
    package static func declaredLength(_ field: String) -> Int64? {
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
