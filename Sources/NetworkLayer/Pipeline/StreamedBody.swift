import Foundation

/// The body of a streamed request's latest response, handed from the transport stage to
/// whoever reads it: the validation stage (a bounded error body), the redirect stage (which
/// drops it), or the caller of ``Router/stream(_:options:)``.
final class StreamedBody: Sendable {
    private let body = Locked<BodyStream?>(nil)

    /// Keeps `stream`, stopping the transfer of one kept before.
    func keep(_ stream: BodyStream) {
        let previous = body.withLock { body -> BodyStream? in
            defer { body = stream }
            return body
        }
        previous?.buffer.cancel()
    }

    /// The body, which the caller reads from now on.
    func take() -> BodyStream? {
        body.withLock { body in
            defer { body = nil }
            return body
        }
    }

    /// Stops the transfer of the body kept, if any.
    func drop() {
        take()?.buffer.cancel()
    }
}
