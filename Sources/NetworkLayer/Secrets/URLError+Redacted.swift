import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLError {
    /// This error with nothing secret left in it, for keeping in a ``NetworkError``.
    ///
    /// FoundationNetworking puts the whole URL, `user:password@` and query included, into the
    /// user info (`NSErrorFailingURLStringKey`, `NSErrorFailingURLKey`), and printing the error
    /// prints it. The copy keeps the code, the message (with any secret value of the URL taken
    /// out of it) and the failing URL as `redaction` shows it; nothing else, since another
    /// key, such as an underlying error, could hold the URL again.
    func redacted(with redaction: Redaction) -> URLError {
        var userInfo: [String: Any] = [:]
        let url = failingURL ?? (self.userInfo[Self.failingURLStringKey] as? String).flatMap(URL.init(string:))
        var message = (self as NSError).localizedDescription
        if let url {
            for secret in Self.secrets(in: url, redaction: redaction) where secret.count >= 3 {
                message = message.replacingOccurrences(of: secret, with: redaction.replacement)
            }
            let shown = redaction.url(url)
            userInfo[Self.failingURLStringKey] = shown
            if let shownURL = URL(string: shown) { userInfo[NSURLErrorFailingURLErrorKey] = shownURL }
        }
        userInfo[NSLocalizedDescriptionKey] = message
        return URLError(code, userInfo: userInfo)
    }

    /// `NSURLErrorFailingURLStringErrorKey`, deprecated in the SDK but still filled in by
    /// FoundationNetworking and read by whoever prints the error.
    private static let failingURLStringKey = "NSErrorFailingURLStringKey"

    /// The password and the secret query values of `url`, raw and percent-encoded.
    private static func secrets(in url: URL, redaction: Redaction) -> [String] {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return [] }
        let secrets =
            [components.password, components.percentEncodedPassword, components.user].compactMap { $0 }
            + redaction.secretParameterValues(in: components)
        return secrets.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    }
}
