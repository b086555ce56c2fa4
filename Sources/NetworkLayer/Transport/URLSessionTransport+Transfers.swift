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
            return try await InMemoryTransfer.upload(request, body: body, progress: progress, send: send)
        }
        let task: URLSessionUploadTask
        let call: SessionTaskCall
        switch body {
        case .data(let data):
            task = session.uploadTask(with: request, from: data)
            call = SessionTaskCall(target: .memory, method: request.httpMethod, progress: progress)
        case .file(let url):
            #if canImport(FoundationNetworking)
            // Not uploadTask(fromFile:): FoundationNetworking reads such a file with DispatchIO,
            // pauses libcurl while a read is pending and un-pauses it through a `try!` when the
            // read completes. A cancel in between has removed the handle, libcurl answers
            // CURLE_BAD_FUNCTION_ARGUMENT, and the process traps (EasyHandle.swift:484, about
            // once in 50-100 cancels). A stream is read synchronously and never paused; the
            // delegate hands a new one whenever libcurl rewinds to send the body again.
            let size = Payload.size(of: url)
            guard InputStream(url: url) != nil else { throw URLError(.cannotOpenFile) }
            task = session.uploadTask(withStreamedRequest: request)
            call = SessionTaskCall(
                target: .memory, method: request.httpMethod, progress: progress,
                upload: StreamedUpload(size: size) { InputStream(url: url) })
            #else
            task = session.uploadTask(with: request, fromFile: url)
            call = SessionTaskCall(target: .memory, method: request.httpMethod, progress: progress)
            #endif
        }
        return try await run(task, call: call, delegate: delegate)
    }

    /// Downloads with a data task whose 2xx body is written to `file` as it arrives, so memory
    /// stays flat whatever the size; other statuses' bodies are returned in memory.
    ///
    /// A data task rather than a download task: on Linux `download(for:delegate:)` corrupts the
    /// file and download tasks leave Foundation's temporary files behind.
    public func download(_ request: URLRequest, to file: URL, progress: @escaping TransferProgressHandler) async throws -> (Data, HTTPURLResponse) {
        guard let (session, delegate) = ownedTransferSession else {
            return try await InMemoryTransfer.download(request, to: file, progress: progress, send: send)
        }
        let task = session.dataTask(with: request)
        return try await run(task, call: SessionTaskCall(target: .file(file), method: request.httpMethod, progress: progress), delegate: delegate)
    }

    func run(_ task: URLSessionTask, call: SessionTaskCall, delegate: SessionDelegate) async throws -> (Data, HTTPURLResponse) {
        guard !Task.isCancelled else { throw URLError.cancelledBeforeSending }
        delegate.register(call, for: task)
        return try await awaitCallback { completion in
            call.start(completion, cancelTask: { task.cancel() })
            task.resume()
            return {
                call.stop()
                task.cancel()
            }
        }.get()
    }
}
