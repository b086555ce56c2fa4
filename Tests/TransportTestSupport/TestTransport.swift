import Foundation
import NetworkLayer
import NetworkLayerCurl

/// The transports a wire test can run over, for `@Test(arguments: TestTransport.all)`.
///
/// A suite parameterized with it runs each test once per transport, so that a behaviour that
/// differs between them shows as a failure of one argument:
///
/// ```swift
/// @Test(arguments: TestTransport.all)
/// func basicAuthReturnsAt401AtOnce(_ transport: TestTransport) async throws {
///     let router = Router<TestEndpoint>(transport: transport.make(), callbackQueue: queue)
///     …
/// }
/// ```
public enum TestTransport: String, CaseIterable, Sendable, CustomStringConvertible {
    /// ``URLSessionTransport``, FoundationNetworking's engine.
    case urlSession
    /// ``CurlTransport``, libcurl directly.
    case curl

    /// Every transport, in a stable order; only those named in `NETWORKLAYER_TEST_TRANSPORTS`
    /// (comma-separated raw values) when it is set. The AddressSanitizer run of Scripts/test
    /// sets it to `curl`: FoundationNetworking never frees its libcurl handles before exit.
    public static let all: [TestTransport] = {
        guard let names = ProcessInfo.processInfo.environment["NETWORKLAYER_TEST_TRANSPORTS"], !names.isEmpty else {
            return allCases
        }
        let chosen = names.split(separator: ",").compactMap { TestTransport(rawValue: String($0)) }
        return chosen.isEmpty ? allCases : chosen
    }()

    /// A new transport of this kind, with its own connections.
    public func make() -> any HTTPTransport {
        switch self {
        case .urlSession: return URLSessionTransport()
        case .curl: return CurlTransport()
        }
    }

    /// A new transport of this kind that keeps cookies in a new, empty, in-memory storage of
    /// its own, returned with it: an ephemeral session's `httpCookieStorage`, given to
    /// `CurlTransport` as its `cookieStorage`.
    public func makeWithCookies() -> (transport: any HTTPTransport, cookies: HTTPCookieStorage)? {
        let configuration = URLSessionConfiguration.ephemeral
        guard let storage = configuration.httpCookieStorage else { return nil }
        switch self {
        case .urlSession: return (URLSessionTransport(configuration: configuration), storage)
        case .curl: return (CurlTransport(configuration: .init(cookieStorage: storage)), storage)
        }
    }

    public var description: String { rawValue }
}
