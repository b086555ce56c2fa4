import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLError {
    /// `error` as Apple platforms would report it.
    ///
    /// FoundationNetworking reports a connection that closes before the body is complete
    /// (libcurl's CURLE_PARTIAL_FILE, "transfer closed with N bytes remaining to read") as
    /// `URLError(.unknown)`, where Apple platforms say `.networkConnectionLost`. Without this,
    /// `RetryPolicy` would not retry it and users matching `.networkConnectionLost` would miss it.
    static func normalized(_ error: any Error) -> any Error {
        guard let urlError = error as? URLError, urlError.code == .unknown else { return error }
        let description = (urlError as NSError).localizedDescription
        guard description.contains("transfer closed") || description.contains("Partial file") else { return error }
        return URLError(.networkConnectionLost, userInfo: urlError.userInfo)
    }
}
