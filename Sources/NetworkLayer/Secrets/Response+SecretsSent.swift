import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Response {
    /// The secrets of ``request`` as it reached the wire (``Redaction/secretsSent(in:)``): its
    /// own, and those of the credential headers its transport added without the router seeing
    /// them (a `Cookie` from the transport's storage, a session's `Authorization`), as the
    /// transport reports them now (``HTTPTransport/headersAdded(to:)``, or for a session of the
    /// caller's that cannot promise what it adds, what its configuration would add). A server
    /// may repeat any of them.
    func secretsSent(by redaction: Redaction) -> [String] {
        guard let transport = delivery?.sender else { return redaction.secretsSent(in: request) }
        let added = transport.headersAdded(to: request) ?? (transport as? URLSessionTransport)?.headersSessionAdds(to: request)
        return redaction.secretsSent(in: request, addedHeaders: added ?? [:])
    }

    /// `text` with ``secretsSent(by:)`` hidden: for what the server said about the request.
    func hidingSecretsSent(in text: String, by redaction: Redaction) -> String {
        redaction.hiding(secretsSent(by: redaction), in: text)
    }
}
