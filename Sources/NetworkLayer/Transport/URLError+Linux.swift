import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLError {
    /// `error` as Apple platforms would report it, with a message that says what happened.
    ///
    /// FoundationNetworking maps most libcurl errors to `URLError(.unknown)` and a few to codes
    /// that blame the wrong party:
    /// - a connection that closes before the body is complete (CURLE_PARTIAL_FILE, "transfer
    ///   closed with N bytes remaining to read") is `.unknown` where Apple platforms say
    ///   `.networkConnectionLost`, which `RetryPolicy` retries;
    /// - an invalid status line ("Unsupported HTTP version in response") is `.unsupportedURL`,
    ///   though the URL was fine (the request builder admits only http and https);
    /// - a header line over libcurl's 100 KiB limit is `.unknown`, "Out of memory";
    /// - other replies libcurl cannot parse ("Weird server reply") are `.unknown`.
    /// The last three are the server's fault: `.badServerResponse`. And a certificate that does not
    /// verify ("SSL certificate problem: unable to get local issuer certificate", an expired or
    /// self-signed one) is `.unknown` where Apple platforms say `.serverCertificateUntrusted`.
    static func normalized(_ error: any Error) -> any Error {
        guard let urlError = error as? URLError else { return error }
        let description = (urlError as NSError).localizedDescription
        switch urlError.code {
        case .unknown where description.contains("transfer closed") || description.contains("Partial file"):
            return URLError(.networkConnectionLost, userInfo: urlError.userInfo)
        case .unsupportedURL where description.contains("HTTP version") || description.contains("status line"):
            return badServerResponse(urlError, "its status line is not HTTP (\(description))")
        case .unsupportedURL where description.contains("HTTP/0.9"):
            // libcurl's word for a reply that is not HTTP at all (the request builder admits only
            // http and https, so the URL's scheme is not what was wrong).
            return badServerResponse(urlError, "its reply is not HTTP")
        case .unknown where description == "Out of memory":
            return badServerResponse(urlError, "a header line is longer than the 100 KiB libcurl accepts")
        case .unknown where description.hasPrefix("SSL certificate problem"):
            var userInfo = urlError.userInfo
            userInfo[NSLocalizedDescriptionKey] = "The server's certificate is not trusted (\(description))."
            return URLError(.serverCertificateUntrusted, userInfo: userInfo)
        case .unknown
        where description.contains("Weird server reply") || description.contains("Invalid Content-Length")
            || description.contains("header"):
            return badServerResponse(urlError, description)
        default:
            return error
        }
    }

    private static func badServerResponse(_ error: URLError, _ reason: String) -> URLError {
        var userInfo = error.userInfo
        userInfo[NSLocalizedDescriptionKey] = "The server's response could not be read: \(reason)."
        return URLError(.badServerResponse, userInfo: userInfo)
    }
}
