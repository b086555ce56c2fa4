import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension CurlTransport {
    /// Sends `request` with `body`, read as it is sent (a file is never loaded whole), reporting
    /// the bytes handed to the connection.
    ///
    /// If libcurl must send the request again on a new connection (a kept-alive connection the
    /// server had closed), the body is read again from its start.
    ///
    /// - Throws: As ``send(_:)``; `URLError(.fileDoesNotExist)` or `.noPermissionsToReadFile`
    ///   when the file cannot be opened, before anything is sent.
    public func upload(_ request: URLRequest, body: UploadBody, progress: @escaping TransferProgressHandler) async throws -> (Data, HTTPURLResponse) {
        guard !Task.isCancelled else { throw URLError.cancelledBeforeSending }
        let request = try prepare(request, body: body)
        let call = CurlCall(
            target: .memory, maximumBodySize: configuration.maximumResponseSize, url: request.originalURL,
            sendProgress: progress)
        let (data, head) = try await awaitCallback { start(request, call: call, completion: $0) }.get()
        return (data, head.httpResponse)
    }

    /// Sends `request` and writes a 2xx body into `file` as it arrives: appended when the status
    /// is 206 and its `Content-Range` continues the file, replacing what is there otherwise.
    /// Any other status's body is returned in memory and `file` is left alone.
    ///
    /// - Throws: As ``send(_:)``; `DownloadError` when the file cannot be written or a 206 does
    ///   not continue it.
    public func download(_ request: URLRequest, to file: URL, progress: @escaping TransferProgressHandler) async throws -> (Data, HTTPURLResponse) {
        guard !Task.isCancelled else { throw URLError.cancelledBeforeSending }
        let request = try prepare(request)
        let call = CurlCall(
            target: .file(file), maximumBodySize: configuration.maximumResponseSize, url: request.originalURL,
            receiveProgress: progress)
        let (data, head) = try await awaitCallback { start(request, call: call, completion: $0) }.get()
        return (data, head.httpResponse)
    }
}
