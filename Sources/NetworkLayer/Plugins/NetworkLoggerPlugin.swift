import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Logs each request and its outcome, with secrets redacted.
///
/// One line when a request is sent and one when it finishes: method, URL, status or error,
/// duration and sizes; optionally headers and bodies. `Authorization`, `Cookie`, `Set-Cookie`,
/// `Proxy-Authorization` and secret-looking query parameters (`api_key`, `token`, …) are
/// hidden by default (see ``Redaction/default``), and so is everything the router's
/// ``Router/redaction`` names, a token plugin's header included.
///
/// ```swift
/// let logger = NetworkLoggerPlugin()                               // to standard error
/// let verbose = NetworkLoggerPlugin(options: [.headers, .bodies])
/// let custom = NetworkLoggerPlugin { line in os_log("%{public}@", line) }
/// ```
///
/// Output:
/// ```
/// → [1] GET https://api.themoviedb.org/3/movie/popular?api_key=<redacted>&page=1
/// ← [1] 200 GET https://api.themoviedb.org/3/movie/popular?api_key=<redacted>&page=1 (182 ms, 0 B sent, 5321 B received)
/// ```
public struct NetworkLoggerPlugin: PluginType {
    /// What is logged besides the summary lines.
    public struct Options: OptionSet, Sendable {
        /// The raw bit mask.
        public let rawValue: Int
        /// Creates options from a raw bit mask.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Request and response headers (redacted).
        public static let headers = Options(rawValue: 1 << 0)
        /// Request and response bodies, up to ``NetworkLoggerPlugin/bodyLimit`` bytes, with the
        /// values of secret JSON members and form fields redacted, each on one line (control
        /// characters become spaces, so a body cannot forge a log line or drive a terminal).
        /// Off by default: without it no line shows a body byte, an error's included.
        public static let bodies = Options(rawValue: 1 << 1)
    }

    /// Receives each log line; the default writes to standard error.
    public typealias Sink = @Sendable (String) -> Void

    /// What is logged besides the summary lines.
    public let options: Options
    /// Which values are hidden.
    public let redaction: Redaction
    /// The longest body logged, in bytes; 4096.
    public static let bodyLimit = 4096
    private let sink: Sink

    /// Creates a logger.
    ///
    /// - Parameters:
    ///   - options: Headers and bodies to log too; none by default.
    ///   - redaction: Which values are hidden; ``Redaction/default`` by default.
    ///   - sink: Where lines go; standard error by default.
    public init(options: Options = [], redaction: Redaction = .default, sink: @escaping Sink = NetworkLoggerPlugin.standardError) {
        self.options = options
        self.redaction = redaction
        self.sink = sink
    }

    /// Writes `line` and a newline to standard error. A failed write (a closed descriptor)
    /// loses the line: `FileHandle.write(_:)` would trap on it instead.
    public static let standardError: Sink = { line in
        try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Logs the request about to be sent.
    public func willSend(_ request: URLRequest, context: RequestContext) {
        let redaction = self.redaction.merging(context.redaction)
        var lines = [
            "→ [\(context.id)] \(request.httpMethod ?? "GET") \(redaction.url(request.url))"
                + (context.attempt > 1 ? " (attempt \(context.attempt))" : "")
        ]
        if options.contains(.headers) {
            for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
                lines.append("    " + NetworkError.excerpt("\(name): \(redaction.header(name, value))"))
            }
        }
        if options.contains(.bodies), let body = request.httpBody, !body.isEmpty {
            let redacted = redaction.body(body, contentType: request.headerValue(named: "Content-Type"))
            let shown = Data(redaction.hidingSecrets(of: request, in: redacted).utf8)
            lines.append("    " + Self.excerpt(shown))
        }
        sink(lines.joined(separator: "\n"))
    }

    /// Logs the outcome.
    public func didReceive(_ result: Result<Response, NetworkError>, context: RequestContext) {
        let redaction = self.redaction.merging(context.redaction)
        // `startedAt` may be any date a test or a plugin gave: a time past `Int` is shown as its largest.
        let milliseconds = Int(exactly: (context.elapsed * 1000).rounded()) ?? .max
        switch result {
        case .success(let response):
            sink(summary(of: response, milliseconds: milliseconds, context: context, redaction: redaction))
        case .failure(let error):
            if let response = error.response {
                sink(summary(of: response, milliseconds: milliseconds, context: context, redaction: redaction))
            }
            sink(
                "✕ [\(context.id)] \(String(describing: type(of: context.target))) failed after \(milliseconds) ms: "
                    + redactedDescription(of: error, redaction: redaction))
        }
    }

    private func summary(of response: Response, milliseconds: Int, context: RequestContext, redaction: Redaction) -> String {
        let request = response.request
        // Found once: finding them parses the request's body, and every header line needs them.
        let secrets = response.secretsSent(by: redaction)
        var lines = [
            "← [\(context.id)] \(response.statusCode) \(request.httpMethod ?? "GET") \(redaction.url(request.url))"
                + " (\(milliseconds) ms, \(request.httpBody?.count ?? 0) B sent, \(response.data.count) B received)"
        ]
        if options.contains(.headers) {
            let fields = response.httpResponse.allHeaderFields.compactMap { key, value -> (String, String)? in
                guard let key = key as? String else { return nil }
                return (key, "\(value)")
            }
            // A server may repeat what it was sent (a refused token, a debugging echo): the
            // request's own secrets are hidden wherever they appear in its answer.
            for (name, value) in fields.sorted(by: { $0.0 < $1.0 }) {
                let shown = redaction.hiding(secrets, in: redaction.header(name, value))
                lines.append("    " + NetworkError.excerpt("\(name): \(shown)"))
            }
        }
        if options.contains(.bodies), !response.data.isEmpty {
            let redacted = redaction.body(response.data, contentType: response.header("Content-Type"))
            let shown = Data(redaction.hiding(secrets, in: redacted).utf8)
            lines.append("    " + Self.excerpt(shown))
        }
        return lines.joined(separator: "\n")
    }

    /// The error's description with any URL in it redacted: URLError messages carry the URL.
    private func redactedDescription(of error: NetworkError, redaction: Redaction) -> String {
        if case .transport(let urlError) = error {
            return "URLError \(urlError.code.rawValue) for \(redaction.url(urlError.failingURL))"
        }
        if case .unacceptableStatusCode(let response) = error {
            return "status \(response.statusCode)"
        }
        return error.localizedDescription
    }

    /// On one line, as every text the server controls is shown (``NetworkError``'s rule): a
    /// line break in a body forged a summary line of its own, and an escape sequence in a body
    /// or a header drove the reader's terminal (found from outside 2026-11-26).
    private static func excerpt(_ data: Data) -> String {
        let line = NetworkError.excerpt(String(decoding: data.prefix(bodyLimit), as: UTF8.self), limit: .max)
        return data.count > bodyLimit ? line + "… (\(data.count) B)" : line
    }
}
