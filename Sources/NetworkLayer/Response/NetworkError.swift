import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every way a request can fail, each case with its cause and, where the server answered, the
/// ``Response`` with its status and body, so that no failure loses what the server said.
///
/// ```swift
/// do {
///     let movie = try await router.request(.details(id: 550), as: Movie.self)
/// } catch NetworkError.unacceptableStatusCode(let response) where response.statusCode == 404 {
///     print("no such movie:", response.text)
/// } catch NetworkError.cancelled {
///     // the user navigated away
/// }
/// ```
public enum NetworkError: Error, Sendable {
    /// The endpoint could not be turned into a request; nothing was sent.
    case invalidRequest(RequestBuildingError)

    /// The transfer failed: offline, connection lost, host not found, Foundation's own timeout.
    case transport(URLError)

    /// The request did not finish within its deadline (``EndPointType/timeout``), enforced by the
    /// router whatever the server and Foundation do.
    case timedOut(after: TimeInterval)

    /// The request was cancelled: through its handle, its router, or the awaiting `Task`.
    case cancelled

    /// The server answered with a status the endpoint does not accept
    /// (``EndPointType/acceptableStatusCodes``). The response keeps status, headers and body.
    case unacceptableStatusCode(Response)

    /// The body could not be decoded into the requested type. The error is usually a
    /// `DecodingError` with the coding path; the response keeps the body.
    case decoding(any Error, Response)

    /// A download's file could not be put in place: a file already at the destination, a folder
    /// that cannot be written, a resumed body that does not continue the partial file. A file
    /// already at the destination is left as it was.
    case download(DownloadError)

    /// A streamed body could not be read: its reader fell too far behind a transport that
    /// cannot pause, or the answer to ``Router/events(_:options:reconnection:)`` was not an
    /// event stream (see ``StreamError``).
    case stream(StreamError)

    /// The cache could not answer or could not be opened: the policy forbids the network and
    /// nothing usable is stored (``HTTPCacheError/notCached``), or the disk cache's folder
    /// cannot be used (see ``HTTPCacheError``).
    case cache(HTTPCacheError)

    /// The response body passed the largest the transport keeps in memory, `limit` bytes after
    /// decoding, and the transfer was stopped there. The limit is the transport's
    /// `maximumResponseSize`, ``HTTPTransport/defaultMaximumResponseSize`` (32 MiB) unless
    /// given: raise it, or receive a large body as a download or a stream, which have none.
    case responseTooLarge(limit: Int)

    /// Anything else a transport or plugin threw.
    case underlying(any Error)

    /// The server's response, when there was one.
    public var response: Response? {
        switch self {
        case .unacceptableStatusCode(let response), .decoding(_, let response), .stream(.notAnEventStream(let response)):
            return response
        case .invalidRequest, .transport, .timedOut, .cancelled, .download, .stream, .cache, .responseTooLarge, .underlying:
            return nil
        }
    }

    /// The HTTP status code, when the server answered.
    public var statusCode: Int? { response?.statusCode }

    /// Whether the request ran out of time, by the router's deadline or Foundation's timeout.
    public var isTimeout: Bool {
        switch self {
        case .timedOut: return true
        case .transport(let error): return error.code == .timedOut
        default: return false
        }
    }

    /// Maps whatever a transport or plugin threw to the case a user can act on. A `URLError`
    /// is kept without the secrets of its URL (see ``Redaction``).
    init(_ error: any Error, redaction: Redaction = .default) {
        switch error {
        case NetworkError.transport(let error):
            self = .transport(error.redacted(with: redaction))
        case let error as NetworkError:
            self = error
        case let error as URLError where error.code == .cancelled:
            self = .cancelled
        case let error as URLError where ResponseSizeLimit.limit(of: error) != nil:
            self = .responseTooLarge(limit: ResponseSizeLimit.limit(of: error) ?? 0)
        case let error as URLError:
            self = .transport(error.redacted(with: redaction))
        case is CancellationError:
            self = .cancelled
        case let error as RequestBuildingError:
            self = .invalidRequest(error)
        case let error as DownloadError:
            self = .download(error)
        case let error as StreamError:
            self = .stream(error)
        case let error as HTTPCacheError:
            self = .cache(error)
        default:
            self = .underlying(error)
        }
    }
}

extension NetworkError: CustomStringConvertible, CustomDebugStringConvertible {
    /// The same sentence as `localizedDescription`: printing an error shows no secret, where
    /// the default description would print a wrapped `URLError`'s user info, URL included, and
    /// no byte of a response body.
    public var description: String { errorDescription ?? "NetworkError" }

    /// The case and its sentence, with the request as ``Response/description`` shows it when the
    /// server answered.
    public var debugDescription: String {
        let name: String
        switch self {
        case .invalidRequest: name = "invalidRequest"
        case .transport(let error): name = "transport(URLError \(error.code.rawValue))"
        case .timedOut: name = "timedOut"
        case .cancelled: name = "cancelled"
        case .unacceptableStatusCode: name = "unacceptableStatusCode"
        case .decoding: name = "decoding"
        case .download: name = "download"
        case .stream: name = "stream"
        case .cache: name = "cache"
        case .responseTooLarge: name = "responseTooLarge"
        case .underlying(let error): name = "underlying(\(type(of: error)))"
        }
        let request = response.map { " [\($0.description)]" } ?? ""
        return "NetworkError.\(name): \(description)\(request)"
    }
}

extension NetworkError: LocalizedError {
    /// A sentence that says what failed and, where the server answered, its status and the
    /// body's size. Never the body itself, which may hold a secret: it stays on
    /// ``response`` (`error.response?.data`), and ``description(includingBody:redaction:)``
    /// shows it redacted on request.
    public var errorDescription: String? {
        switch self {
        case .invalidRequest(let error):
            return "Invalid request: \(error.message)"
        case .transport(let error):
            // Redacted again: a plugin or transport may have built this case from a raw URLError.
            let message = error.redacted(with: .default).localizedDescription
            return "The request failed: \(message) (URLError \(error.code.rawValue))."
        case .timedOut(let seconds):
            return "The request did not finish within its \(Self.format(seconds)) s deadline."
        case .cancelled:
            return "The request was cancelled."
        case .unacceptableStatusCode(let response):
            // Never the body: an error body may hold a token (issue 23). See description(includingBody:).
            return "The server answered \(response.statusCode)"
                + " \(HTTPURLResponse.localizedString(forStatusCode: response.statusCode))"
                + " (\(response.data.count)-byte body)."
        case .decoding(let error, let response):
            // The decoder quotes the body (a key, an enum's raw value), where a server may repeat
            // what it was sent: the request's own secrets are hidden there.
            let redaction = response.redaction ?? .default
            let described = Self.describe(error) { response.hidingSecretsSent(in: $0, by: redaction) }
            return "The \(response.statusCode) response (\(response.data.count)-byte body) could not be decoded:"
                + " \(described)."
        case .download(let error):
            return error.errorDescription
        case .stream(let error):
            return error.errorDescription
        case .cache(let error):
            return error.errorDescription
        case .responseTooLarge(let limit):
            return "The response body is larger than the \(limit) bytes the transport keeps in memory:"
                + " raise its maximumResponseSize, or receive the body as a download or a stream."
        case .underlying(let error):
            return "The request failed: \(error.localizedDescription)"
        }
    }

    /// `5` for five seconds, `0.25` for a quarter; `inf` and numbers past `Int` as `Double`
    /// writes them (a plugin or a transport may make the error with any value).
    private static func format(_ seconds: TimeInterval) -> String {
        Int(exactly: seconds).map(String.init) ?? String(seconds)
    }

    /// A `DecodingError` as "what at which coding path". The path's keys and the decoder's own
    /// text come from the body (a key, an enum's raw value, every digit of a number too large):
    /// each is shown as an excerpt of at most 256 bytes (found from outside 2026-11-26: a
    /// 200 KB key, with escape sequences and line breaks, was quoted whole).
    ///
    /// - Parameter hiding: Applied to the text from the body before it is cut, so that a secret
    ///   it hides is never cut in two and half of it shown.
    static func describe(_ error: any Error, hiding: (String) -> String = { $0 }) -> String {
        guard let error = error as? DecodingError else { return hiding("\(error)") }
        func path(_ context: DecodingError.Context) -> String {
            let path = excerpt(hiding(context.codingPath.dottedPath), limit: 256)
            return path.isEmpty ? "at the top level" : "at \"\(path)\""
        }
        func detail(_ context: DecodingError.Context) -> String {
            excerpt(hiding(context.debugDescription), limit: 256)
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "expected \(type) \(path(context)): \(detail(context))"
        case .valueNotFound(let type, let context):
            return "missing \(type) value \(path(context))"
        case .keyNotFound(let key, let context):
            return "missing key \"\(key.stringValue)\" \(path(context))"
        case .dataCorrupted(let context):
            // The caller ends the sentence; JSONDecoder's own text already ends with a period.
            var shown = detail(context)
            while shown.hasSuffix(".") { shown.removeLast() }
            return "corrupted data \(path(context)): \(shown)"
        @unknown default:
            return excerpt(hiding("\(error)"), limit: 256)
        }
    }
}
