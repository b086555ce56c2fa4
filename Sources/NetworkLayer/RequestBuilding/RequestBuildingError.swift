import Foundation

/// Why an endpoint could not be turned into a `URLRequest`. Nothing was sent.
public enum RequestBuildingError: Error, Sendable, Equatable {
    /// The base URL has no host or a scheme other than `http` or `https` (in any letter case),
    /// or base URL and path do not form a valid URL. The URL is shown without its user info,
    /// query and fragment, which may hold a secret.
    case invalidURL(String)

    /// The path cannot be used as it is: it carries a `#` fragment, which is never sent, or a
    /// `.` or `..` segment, which would leave the base URL's path (use ``PathSegment`` for values
    /// that may be dots).
    /// The path is shown without its query and fragment, which may hold a secret.
    case invalidPath(String, reason: String)

    /// A header name with characters RFC 9110 does not allow in a field name (CR, LF, space,
    /// `:` and other separators, non-ASCII), or an empty name. The name is shown escaped.
    case invalidHeaderName(String)

    /// A header value containing CR, LF, NUL or another control character. The value itself is
    /// not repeated, because it may be a secret.
    case invalidHeaderValue(name: String)

    /// A body on a method that must not carry one (`GET`, `HEAD`).
    case bodyNotAllowed(HTTPMethod)

    /// The task's parameters could not be encoded.
    case parameterEncoding(ParameterEncodingError)

    /// The body encoding wrote no body for non-empty body parameters: a custom
    /// ``ParameterEncoder`` that writes elsewhere (a `URLParameterEncoder` with its default
    /// `.queryString` destination) or nothing. The associated value is the encoder's type name.
    case bodyNotWritten(encoder: String)

    /// The endpoint's timeout is zero, negative or NaN. (Infinity means "no deadline".)
    case invalidTimeout(Double)

    /// The method is not an RFC 9110 token (it would be sent verbatim on the request line).
    case invalidMethod(String)

    /// An ``HTTPTask/uploadFile(_:contentType:urlParameters:)`` URL that is not a readable
    /// regular file on this machine.
    case unreadableUploadFile(String)

    /// A `Content-Length` or `Transfer-Encoding` header set by the endpoint, a plugin or the
    /// caller of a transport. The transport writes the body's framing from the body itself; a
    /// value that disagrees with it makes the server read the rest of the body as another
    /// request (request smuggling), whose response the next request on that connection gets.
    /// The associated value is the header's name, as it was written.
    case framingHeader(String)

    /// The URL, query included, is longer than `limit` bytes (1 MiB): no server accepts it.
    /// Large data belongs in a body (``HTTPTask/requestParameters(bodyParameters:bodyEncoding:urlParameters:)``).
    case urlTooLong(length: Int, limit: Int)
}

extension RequestBuildingError {
    /// A sentence that says what was wrong.
    public var message: String {
        switch self {
        case .invalidURL(let url):
            // The URL may carry an API key: redacted, like everything that reaches a log.
            let shown = URL(string: url).map { Redaction.default.url($0) } ?? url
            return "\"\(shown)\" is not a valid http or https URL."
        case .invalidPath(let path, let reason):
            return "The path \"\(path)\" cannot be used: \(reason)."
        case .invalidHeaderName(let name):
            return "\"\(name)\" is not a valid header name."
        case .invalidHeaderValue(let name):
            return "The value of header \"\(name)\" contains CR, LF or another control character."
        case .bodyNotAllowed(let method):
            return "A \(method) request cannot have a body; send the parameters as URL parameters."
        case .parameterEncoding(let error):
            return error.errorDescription ?? "\(error)"
        case .invalidMethod(let method):
            return "\"\(method)\" is not a valid HTTP method."
        case .urlTooLong(let length, let limit):
            return "The URL is \(length) bytes long, over the \(limit) bytes any request may have: send large parameters in the body."
        case .unreadableUploadFile(let url):
            return "\"\(url)\" is not a readable file to upload."
        case .bodyNotWritten(let encoder):
            return "The body encoder \(encoder) wrote no body for the body parameters. A body encoding must write the body:"
                + " use .urlForm, or URLParameterEncoder(destination: .httpBody), for a form."
        case .invalidTimeout(let timeout):
            return "The timeout \(timeout) is not a positive number of seconds."
        case .framingHeader(let name):
            return "The header \"\(name)\" is written by the transport from the body; remove it from the request."
        }
    }
}
