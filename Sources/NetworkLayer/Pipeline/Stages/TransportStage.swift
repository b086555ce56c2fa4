import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The end of the chain: the exchange's transport sends the request, with its body in memory,
/// as an upload, or into a download's working file; a streamed request's body is left in the
/// exchange's ``StreamedBody`` for the caller to read. The package's own transports do these
/// directly (``CallbackTransport``); any other goes through the forms over its one call,
/// ``HTTPTransport/execute(_:body:progress:)``. No redirect is followed and no status judged
/// here; what the transport throws becomes a ``NetworkError``.
enum TransportStage {
    static func send(_ exchange: Exchange) async throws(NetworkError) -> Response {
        let transport = exchange.transport
        let request = exchange.request
        let progress = exchange.progress
        let metrics = exchange.metrics
        let report: TransferProgressHandler = { completed, total in progress?.report(completed: completed, total: total) }
        metrics.didSend(bodyBytes: exchange.payload.bodyBytes(of: request))
        func upload(_ body: UploadBody) async throws -> (Data, HTTPURLResponse) {
            if let callbackTransport = exchange.callbackTransport {
                return try await callbackTransport.upload(request, body: body, progress: report)
            }
            return try await transport.upload(request, body: body, progress: report)
        }
        do {
            let (data, head): (Data, ResponseHead)
            switch exchange.payload {
            case .inRequest:
                if let streamed = exchange.streamedBody {
                    let response = try await transport.stream(request)
                    metrics.didReceiveFirstByte()
                    streamed.keep(response.body)
                    return Response(request: request, httpResponse: response.response, data: Data())
                }
                if let callbackTransport = exchange.callbackTransport {
                    (data, head) = try await callbackTransport.sendKeepingHead(request)
                } else {
                    let (body, response) = try await transport.send(request)
                    (data, head) = (body, .made(response))
                }
            case .upload(let body):
                let (received, response) = try await upload(body)
                (data, head) = (received, .made(response))
            case .form(let form):
                // Encoded already (``Chain/run(_:)``): this is the body kept then.
                let (received, response) = try await upload(try await form.encoded())
                (data, head) = (received, .made(response))
            case .download(let work):
                // The first progress event is the first byte of the body.
                let before = Payload.size(of: work.workFile)
                let received: TransferProgressHandler = { completed, total in
                    metrics.didReceiveFirstByte()
                    report(completed, total)
                }
                let (body, response) =
                    if let callbackTransport = exchange.callbackTransport {
                        try await callbackTransport.download(request, to: work.workFile, progress: received)
                    } else {
                        try await transport.download(request, to: work.workFile, progress: received)
                    }
                (data, head) = (body, .made(response))
                metrics.didReceive(bodyBytes: max(0, Payload.size(of: work.workFile) - before))
            }
            metrics.didReceiveFirstByte()
            metrics.didReceive(bodyBytes: Int64(data.count))
            return Response(request: request, head: head, data: data)
        } catch {
            throw failure(error, redaction: exchange.context.redaction)
        }
    }

    /// What a transport's error means to the caller: a cancellation, or the error redacted.
    static func failure(_ error: any Error, redaction: Redaction) -> NetworkError {
        Task.isCancelled ? .cancelled : NetworkError(error, redaction: redaction)
    }
}
