import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request body that lives outside the `URLRequest`, for uploads with progress.
public enum UploadBody: Sendable, Equatable {
    /// Bytes in memory.
    case data(Data)
    /// A file, read as it is sent.
    case file(URL)
}

/// Receives bytes done and the expected total (`nil` when unknown).
public typealias TransferProgressHandler = @Sendable (_ completed: Int64, _ total: Int64?) -> Void

extension HTTPTransport {
    /// Sends `request` with `body`, reporting bytes sent.
    ///
    /// The default puts the body in memory and calls ``send(_:)``, reporting progress once at the
    /// end: right for stubs and small bodies. ``URLSessionTransport`` streams and reports as it goes.
    public func upload(_ request: URLRequest, body: UploadBody, progress: @escaping TransferProgressHandler) async throws -> (Data, HTTPURLResponse) {
        try await InMemoryTransfer.upload(request, body: body, progress: progress, send: send)
    }

    /// Sends `request` and writes a 2xx body into `file`: appended when the status is 206
    /// (a resumed download), replacing what is there otherwise. Any other status's body is
    /// returned in memory instead and `file` is left alone.
    ///
    /// The default receives the body in memory through ``send(_:)``; ``URLSessionTransport``
    /// streams it to disk.
    public func download(_ request: URLRequest, to file: URL, progress: @escaping TransferProgressHandler) async throws -> (Data, HTTPURLResponse) {
        try await InMemoryTransfer.download(request, to: file, progress: progress, send: send)
    }
}

/// Uploads and downloads over a plain `send`, with the body in memory: the protocol's defaults,
/// and what ``URLSessionTransport`` does on a session it does not own.
enum InMemoryTransfer {
    typealias Send = (URLRequest) async throws -> (Data, HTTPURLResponse)

    static func upload(
        _ request: URLRequest, body: UploadBody, progress: TransferProgressHandler, send: Send
    ) async throws -> (Data, HTTPURLResponse) {
        var request = request
        switch body {
        case .data(let data): request.httpBody = data
        case .file(let url): request.httpBody = try Data(contentsOf: url)
        }
        let total = Int64(request.httpBody?.count ?? 0)
        let result = try await send(request)
        progress(total, total)
        return result
    }

    static func download(
        _ request: URLRequest, to file: URL, progress: TransferProgressHandler, send: Send
    ) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await send(request)
        guard (200..<300).contains(response.statusCode) else { return (data, response) }
        let start = try DownloadFile.open(file, appending: response.statusCode == 206)
        defer { try? start.handle.close() }
        start.handle.write(data)
        let written = start.offset + Int64(data.count)
        progress(written, written)
        return (Data(), response)
    }
}

/// Opening a download's file for writing; shared with NetworkLayerCurl's transport.
package enum DownloadFile {
    /// Opens `url` for writing at its end (appending) or from empty, creating it if needed.
    package static func open(_ url: URL, appending: Bool) throws -> (handle: FileHandle, offset: Int64) {
        let manager = FileManager.default
        if !appending || !manager.fileExists(atPath: url.path) {
            guard manager.createFile(atPath: url.path, contents: nil) else {
                throw DownloadError.cannotWrite(url.path)
            }
        }
        let handle = try FileHandle(forWritingTo: url)
        let offset = Int64(try handle.seekToEnd())
        return (handle, offset)
    }

    /// Opens `url` for the 2xx body of `response`: appended when it is a 206 whose
    /// `Content-Range` continues the file, from empty otherwise. Also returns the bytes already
    /// in the file and the expected size of the whole file (`nil` when unknown).
    ///
    /// - Throws: ``DownloadError/unexpectedRange(start:expected:)`` for a 206 that does not start
    ///   where the file ends; ``DownloadError/cannotWrite(_:)`` when the file cannot be opened.
    package static func open(_ url: URL, for response: HTTPURLResponse) throws -> (handle: FileHandle, offset: Int64, total: Int64?) {
        let opened = try open(url, appending: response.statusCode == 206)
        if response.statusCode == 206 {
            // Append only what continues the file: "Content-Range: bytes START-END/TOTAL".
            let start = (response.value(forHTTPHeaderField: "Content-Range"))
                .flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "-" }).dropFirst().first }
                .flatMap { Int64($0) }
            guard start == opened.offset else {
                try? opened.handle.close()
                throw DownloadError.unexpectedRange(start: start, expected: opened.offset)
            }
        }
        // The server controls Content-Length: an overflowing total is reported as unknown.
        let total = opened.offset.addingReportingOverflow(response.expectedContentLength)
        let expected = response.expectedContentLength >= 0 && !total.overflow ? total.partialValue : nil
        return (opened.handle, opened.offset, expected)
    }
}
