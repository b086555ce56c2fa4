import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport {
    /// Uploads with an upload task, streaming a file from disk and reporting bytes sent.
    ///
    /// With a session of your own (``init(session:)``) there is no delegate of ours to report
    /// progress, so the body is sent as ``HTTPTransport``'s default does.
    public func upload(_ request: URLRequest, body: UploadBody, progress: @escaping TransferProgressHandler) async throws -> (Data, HTTPURLResponse) {
        guard let (session, delegate) = ownedTransferSession else {
            return try await sendInMemory(request, body: body, progress: progress)
        }
        let task: URLSessionUploadTask
        switch body {
        case .data(let data): task = session.uploadTask(with: request, from: data)
        case .file(let url): task = session.uploadTask(with: request, fromFile: url)
        }
        return try await run(task, call: TransferCall(sink: .memory, progress: progress), delegate: delegate)
    }

    /// Downloads with a data task whose 2xx body is written to `file` as it arrives, so memory
    /// stays flat whatever the size; other statuses' bodies are returned in memory.
    ///
    /// A data task rather than a download task: on Linux `download(for:delegate:)` corrupts the
    /// file and download tasks leave Foundation's temporary files behind.
    public func download(_ request: URLRequest, to file: URL, progress: @escaping TransferProgressHandler) async throws -> (Data, HTTPURLResponse) {
        guard let (session, delegate) = ownedTransferSession else {
            return try await receiveInMemory(request, to: file, progress: progress)
        }
        let task = session.dataTask(with: request)
        return try await run(task, call: TransferCall(sink: .file(file), progress: progress), delegate: delegate)
    }

    func run(_ task: URLSessionTask, call: TransferCall, delegate: SessionDelegate) async throws -> (Data, HTTPURLResponse) {
        delegate.register(call, for: task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                call.start(continuation)
                task.resume()
            }
        } onCancel: {
            call.stop()
            task.cancel()
        }
    }

    // The protocol's defaults, callable from the overriding implementations above.
    private func sendInMemory(_ request: URLRequest, body: UploadBody, progress: @escaping TransferProgressHandler) async throws -> (Data, HTTPURLResponse) {
        try await InMemoryTransfers(transport: self).upload(request, body: body, progress: progress)
    }

    private func receiveInMemory(_ request: URLRequest, to file: URL, progress: @escaping TransferProgressHandler) async throws -> (Data, HTTPURLResponse) {
        try await InMemoryTransfers(transport: self).download(request, to: file, progress: progress)
    }
}

/// Wraps a transport so that only `send` is its own and uploads and downloads use
/// ``HTTPTransport``'s in-memory defaults.
private struct InMemoryTransfers: HTTPTransport {
    let transport: URLSessionTransport
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await transport.send(request)
    }
}
