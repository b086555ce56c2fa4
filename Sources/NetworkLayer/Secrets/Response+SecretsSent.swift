import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Response {
    /// The secrets of ``request`` as it reached the wire (``Redaction/secretsSent(in:)``): its
    /// own, and those of the credential headers its transport added without the router seeing
    /// them (a `Cookie` from the transport's storage, a session's `Authorization`), as the
    /// transport reports them now (``HTTPTransport/headersAdded(to:)``). A server may repeat
    /// any of them.
    func secretsSent(by redaction: Redaction) -> [String] {
        guard let added = delivery?.transport?.headersAdded(to: request), !added.isEmpty else {
            return redaction.secretsSent(in: request)
        }
        var sent = request
        for (name, value) in added where sent.value(forHTTPHeaderField: name) == nil {
            sent.setValue(value, forHTTPHeaderField: name)
        }
        return redaction.secretsSent(in: sent)
    }

    /// `text` with ``secretsSent(by:)`` hidden: for what the server said about the request.
    func hidingSecretsSent(in text: String, by redaction: Redaction) -> String {
        redaction.hiding(secretsSent(by: redaction), in: text)
    }
}
