import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// The request as a `curl` command that sends the same method, URL, headers and body,
    /// quoted for a POSIX shell, with secrets hidden by `redaction`.
    ///
    /// ```swift
    /// print(try RequestBuilder.makeRequest(for: MovieApi.popular(page: 1)).cURLDescription())
    /// // curl -X GET 'https://api.themoviedb.org/3/movie/popular?page=1' \
    /// //   -H 'Authorization: <redacted>'
    /// ```
    ///
    /// A body that is not UTF-8 text is replaced by a comment giving its size. Form fields and
    /// JSON members named by `redaction`'s query parameters are redacted; a JSON body without
    /// such a member is shown as it is.
    public func cURLDescription(redaction: Redaction = .default) -> String {
        var lines = ["curl -X \(shellQuoted(httpMethod ?? "GET")) \(shellQuoted(redaction.url(url)))"]
        for (name, value) in (allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            lines.append("-H \(shellQuoted("\(name): \(redaction.header(name, value))"))")
        }
        if let body = httpBody, !body.isEmpty {
            if String(data: body, encoding: .utf8) != nil {
                let text = redaction.body(body, contentType: headerValue(named: "Content-Type"))
                lines.append("--data-binary \(shellQuoted(text))")
            } else {
                lines.append("# body: \(body.count) bytes of binary data not shown")
            }
        }
        return lines.joined(separator: " \\\n  ")
    }
}

/// `text` in single quotes, each `'` written as `'\''`: nothing inside is interpreted by the shell.
func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
