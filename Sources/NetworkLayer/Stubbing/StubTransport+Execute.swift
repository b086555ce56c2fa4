import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubTransport {
    /// Answers as ``send(_:)`` does, the body in the chunks the stub names
    /// (``StubResponse/chunkLengths``), so that stream handling can be tested without a server.
    /// A `body` is put in the request the responder sees, and reported sent whole once answered.
    ///
    /// - Throws: `URLError(.cancelled)` when the calling task is cancelled during the delay;
    ///   `URLError(.cannotOpenFile)` when a body's file cannot be read; whatever the responder throws.
    public func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws
        -> StreamedResponse
    {
        var request = request
        if let body { request.httpBody = try body.bytes() }
        if delay > 0 {
            do {
                try await Task.sleep(nanoseconds: Seconds.nanoseconds(delay))
            } catch {
                throw URLError(.cancelled)
            }
        }
        let stub = try await respond(to: request)
        let (data, head) = try Self.answer(stub, to: request).get()
        let response = head.httpResponse
        if body != nil {
            let sent = Int64(request.httpBody?.count ?? 0)
            progress(sent, sent)
        }
        guard let lengths = stub.chunkLengths, !lengths.isEmpty else {
            return StreamedResponse(response: response, body: BodyStream(data))
        }
        let buffer = BodyBuffer()
        var offset = 0
        for length in lengths where offset < data.count {
            // `length` is the caller's: `Int.max` means the rest, not an overflow.
            let end = offset + min(max(1, length), data.count - offset)
            _ = buffer.write(data.subdata(in: offset..<end))
            offset = end
        }
        if offset < data.count { _ = buffer.write(data.subdata(in: offset..<data.count)) }
        buffer.finish(throwing: nil)
        return StreamedResponse(response: response, body: BodyStream(buffer))
    }
}
