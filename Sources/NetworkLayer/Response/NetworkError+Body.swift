import Foundation

extension NetworkError {
    /// The longest excerpt of a body ``description(includingBody:redaction:)`` shows, in bytes:
    /// 1024.
    public static let bodyExcerptLimit = 1024

    /// ``description``, followed, when `includingBody` is `true` and the server answered with a
    /// body, by that body with the values of secret fields replaced: JSON members and form
    /// fields named by `redaction`'s query parameters (`access_token`, `password`, …, see
    /// ``Redaction/default``), and the request's own credentials wherever the server repeats
    /// them. At most ``bodyExcerptLimit`` bytes of it, on one line.
    ///
    /// No other string made from an error shows body bytes; this is the explicit way to see
    /// what the server said while debugging. The raw body is `error.response?.data`.
    ///
    /// ```swift
    /// } catch let error as NetworkError {
    ///     print(error.description(includingBody: true))
    ///     // The server answered 401 unauthorized (41-byte body). Body: {"access_token":"<redacted>",…}
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - includingBody: Whether to append the redacted body; with `false` this is
    ///     ``description``.
    ///   - redaction: Which fields are secret; ``Redaction/default`` by default. Pass the
    ///     router's ``Router/redaction`` to hide what its plugins name too.
    /// - Returns: One line of text.
    public func description(includingBody: Bool, redaction: Redaction = .default) -> String {
        guard includingBody, let response, !response.data.isEmpty else { return description }
        let redacted = redaction.body(response.data, contentType: response.header("Content-Type"))
        // The request's own secrets too, where the server repeats them (a refused token).
        let shown = response.hidingSecretsSent(in: redacted, by: redaction.merging(response.redaction ?? .none))
        return description + " Body: " + Self.excerpt(shown)
    }

    /// `text` cut to `limit` bytes, on one line: the one rule for showing what a server
    /// controls (a body, a message, a header, a key or value quoted by a decoding error).
    /// Control characters (CR, LF, ESC, BEL), format characters (bidirectional overrides,
    /// zero-width spaces) and line and paragraph separators become spaces, so that such text
    /// can neither forge a log line nor drive the reader's terminal.
    static func excerpt(_ text: String, limit: Int = bodyExcerptLimit) -> String {
        let utf8 = text.utf8
        let cut = utf8.count > limit
        let head = cut ? String(decoding: utf8.prefix(limit), as: UTF8.self) : text
        let line = String(String.UnicodeScalarView(head.unicodeScalars.map { isShown($0) ? $0 : " " }))
        return cut ? line + "… (\(utf8.count) bytes)" : line
    }

    private static func isShown(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return false
        default: return true
        }
    }
}
