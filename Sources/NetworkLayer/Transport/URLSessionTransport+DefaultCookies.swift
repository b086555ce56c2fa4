import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport {
    /// Where a transport made without a configuration (`URLSessionTransport()`, a router's
    /// default) keeps its cookies: `HTTPCookieStorage.shared` on Apple platforms, where each app
    /// has its own; on Linux, a storage in memory that every such transport of the process
    /// shares.
    ///
    /// On Linux, FoundationNetworking's `HTTPCookieStorage.shared` writes every cookie with an
    /// expiry, in clear text, to `~/.local/share/<name>/.cookies.shared` (under
    /// `XDG_DATA_HOME` when set), where `<name>` is the name of the executable's directory:
    /// `release` or `debug` for every program SwiftPM builds. Each of them loads that file and
    /// sends its cookies, so a login cookie with an expiry that one program received reached
    /// the servers of another. (Reading `URLSessionConfiguration.default` still makes
    /// FoundationNetworking create that folder and load the file; nothing from it is sent.)
    ///
    /// To keep cookies across launches on Linux, give a configuration whose
    /// `httpCookieStorage` is `HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier:)`
    /// with a name of your app's.
    ///
    /// ```swift
    /// // Signing out: forget every cookie the default transports hold.
    /// let storage = URLSessionTransport.defaultCookieStorage
    /// for cookie in storage.cookies ?? [] { storage.deleteCookie(cookie) }
    /// ```
    public static let defaultCookieStorage: HTTPCookieStorage = {
        #if canImport(FoundationNetworking)
        URLSessionConfiguration.ephemeral.httpCookieStorage ?? .shared
        #else
        .shared
        #endif
    }()

    /// `URLSessionConfiguration.default`, its cookies in ``defaultCookieStorage``.
    static func defaultConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.httpCookieStorage = defaultCookieStorage
        return configuration
    }
}
