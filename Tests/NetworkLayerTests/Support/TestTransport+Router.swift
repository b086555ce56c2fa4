import Foundation
import NetworkLayer
import TransportTestSupport

extension TestTransport {
    /// A router over a new transport of this kind, so that a wire test runs the same way over
    /// each transport (`@Test(arguments: TestTransport.all)`); the other settings are
    /// `Router.init`'s, except a serial callback queue of its own instead of `.main`.
    func router(
        callbackQueue: DispatchQueue = DispatchQueue(label: "tests"), plugins: [any PluginType] = [],
        retryPolicy: RetryPolicy = .none, redaction: Redaction = .default, redirects: RedirectPolicy = .follow
    ) -> Router<TestEndpoint> {
        Router(
            transport: make(), callbackQueue: callbackQueue, plugins: plugins, retryPolicy: retryPolicy,
            redaction: redaction, redirects: redirects)
    }
}
