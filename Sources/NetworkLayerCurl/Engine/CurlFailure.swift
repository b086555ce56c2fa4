import CCurl
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// libcurl's result codes as the `URLError`s Apple platforms report for the same failures, so
/// that `RetryPolicy`, `NetworkManager` and users' `catch` clauses treat both transports alike.
enum CurlFailure {
    /// The error for a transfer that ended with `code`.
    ///
    /// - Parameters:
    ///   - detail: libcurl's own message (its error buffer), added in parentheses unless it
    ///     repeats something of the request that may be secret.
    ///   - url: The request's URL reduced to `scheme://host:port/path`.
    ///   - headIsComplete: Whether the response's head had arrived whole: before that, two of
    ///     libcurl's codes mean a head that libcurl could not read (see ``malformedHead(_:detail:)``).
    static func error(for code: CURLcode, detail: String, url: URL?, secrets: [String], headIsComplete: Bool) -> URLError {
        let (urlCode, sentence) =
            (headIsComplete ? nil : malformedHead(code, detail: detail)) ?? malformedBody(code, detail: detail) ?? describe(code)
        var message = sentence
        let cleanDetail = detail.trimmingCharacters(in: .whitespacesAndNewlines)
        if !cleanDetail.isEmpty, !secrets.contains(where: { !$0.isEmpty && cleanDetail.contains($0) }) {
            message += " (libcurl: \(cleanDetail))"
        }
        return error(urlCode, message, url: url, curlCode: Int(code.rawValue))
    }

    /// A `URLError` with `message` and the redacted `url` in its user info.
    static func error(_ code: URLError.Code, _ message: String, url: URL?, curlCode: Int? = nil) -> URLError {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let url {
            userInfo[NSURLErrorFailingURLErrorKey] = url
        }
        if let curlCode {
            userInfo[curlCodeKey] = curlCode
        }
        return URLError(code, userInfo: userInfo)
    }

    /// The user-info key of libcurl's own result code (`CURLcode`), where there is one.
    static let curlCodeKey = "NetworkLayerCurlCode"

    /// A head libcurl could not read, which it reports as the request's fault or its own: the
    /// server's fault, `.badServerResponse`, as `URLSessionTransport` reports it.
    ///
    /// - An invalid status line ("Unsupported HTTP version in response") is
    ///   CURLE_UNSUPPORTED_PROTOCOL, though the URL was fine (``CurlRequest`` admits only http and
    ///   https).
    /// - A header line over libcurl's 100 KiB limit is CURLE_OUT_OF_MEMORY, with no message.
    private static func malformedHead(_ code: CURLcode, detail: String) -> (URLError.Code, String)? {
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL where detail.contains("in response"):
            return (.badServerResponse, "The server's response could not be read: its status line is not HTTP.")
        case CURLE_UNSUPPORTED_PROTOCOL:
            // CurlRequest admits only http and https URLs, so libcurl's "unsupported protocol"
            // before a head is the reply's: "Received HTTP/0.9 when not allowed" for bytes that
            // are not HTTP at all.
            return (.badServerResponse, "The server's response could not be read: its reply is not HTTP.")
        case CURLE_OUT_OF_MEMORY:
            return (.badServerResponse, "The server's response could not be read: a header line is longer than the 100 KiB libcurl accepts.")
        default:
            return nil
        }
    }

    /// A body libcurl could not read because the server framed it wrong, which it reports with
    /// the code of a lost connection: `.badServerResponse`, the server's fault, as a malformed
    /// head and a malformed `Content-Length` are. libcurl 7.88 says which in its message
    /// only ("Illegal or missing hexadecimal sequence in chunked-encoding", and the other
    /// chunk errors, all "… in chunked-encoding").
    private static func malformedBody(_ code: CURLcode, detail: String) -> (URLError.Code, String)? {
        guard code == CURLE_RECV_ERROR, detail.contains("in chunked-encoding") else { return nil }
        return (.badServerResponse, "The server's response could not be read: its chunked body is malformed.")
    }

    private static func describe(_ code: CURLcode) -> (URLError.Code, String) {
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            return (.unsupportedURL, "The URL's scheme is not supported.")
        case CURLE_URL_MALFORMAT:
            return (.badURL, "The URL is malformed.")
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return (.cannotFindHost, "The server's host name could not be resolved.")
        case CURLE_COULDNT_CONNECT:
            return (.cannotConnectToHost, "Could not connect to the server.")
        case CURLE_WEIRD_SERVER_REPLY, CURLE_RANGE_ERROR:
            return (.badServerResponse, "The server's reply is not valid HTTP.")
        case CURLE_GOT_NOTHING:
            return (.badServerResponse, "The server closed the connection without replying (empty reply).")
        case CURLE_PARTIAL_FILE:
            return (.networkConnectionLost, "The connection closed before the whole body arrived.")
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return (.networkConnectionLost, "The connection was lost.")
        case CURLE_SEND_FAIL_REWIND:
            return (.networkConnectionLost, "The connection was lost and the request body could not be sent again.")
        case CURLE_OPERATION_TIMEDOUT:
            return (.timedOut, "The request timed out.")
        case CURLE_PEER_FAILED_VERIFICATION:
            return (.serverCertificateUntrusted, "The server's certificate is not trusted.")
        case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return (.serverCertificateUntrusted, "The server's public key does not match any pinned key.")
        case CURLE_SSL_CERTPROBLEM:
            return (.clientCertificateRejected, "The client certificate could not be used.")
        case CURLE_SSL_CACERT_BADFILE:
            return (.secureConnectionFailed, "The configured certificate authority cannot be read.")
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CIPHER,
            CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_INVALIDCERTSTATUS,
            CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            return (.secureConnectionFailed, "The secure connection to the server failed.")
        case CURLE_TOO_MANY_REDIRECTS:
            return (.httpTooManyRedirects, "Too many redirects.")
        case CURLE_BAD_CONTENT_ENCODING:
            return (.cannotDecodeContentData, "The body's content encoding cannot be decoded.")
        case CURLE_FILESIZE_EXCEEDED:
            return (.dataLengthExceedsMaximum, "The body is larger than allowed.")
        case CURLE_OUT_OF_MEMORY:
            return (.unknown, "libcurl ran out of memory.")
        default:
            return (.unknown, "The transfer failed.")
        }
    }
}
