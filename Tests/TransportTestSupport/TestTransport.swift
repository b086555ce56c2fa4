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

    /// Every transport, in a stable order.
    public static let all: [TestTransport] = allCases

    /// A new transport of this kind, with its own connections.
    public func make() -> any HTTPTransport {
        switch self {
        case .urlSession: return URLSessionTransport()
        case .curl: return CurlTransport()
        }
    }

    public var description: String { rawValue }
}
