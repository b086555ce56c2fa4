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
        guard method?.uppercased() != "HEAD", status >= 200, status != 204, !(300..<400).contains(status) else { return }
        if let coding = response.value(forHTTPHeaderField: "Content-Encoding"), coding.lowercased() != "identity" { return }
        guard received == declared else {
            throw URLError(
                received < declared ? .networkConnectionLost : .badServerResponse,
                userInfo: [NSLocalizedDescriptionKey: "The body has \(received) bytes where Content-Length announced \(declared)."])
        }
    }

    /// The length a `Content-Length` value declares, or `nil` when it is not one.
    static func declaredLength(_ field: String) -> Int64? {
        var length: Int64?
        for item in field.split(separator: ",", omittingEmptySubsequences: false) {
            let digits = item.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let value = Int64(digits), length == nil || length == value
            else { return nil }
            length = value
        }
        return length
    }
}
