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
        let start = try DownloadFile.open(file, for: response)
        defer { try? start.handle.close() }
        try DownloadFile.write(data, to: start.handle, at: file)
        let written = start.offset + Int64(data.count)
        progress(written, written)
        return (Data(), response)
    }
}

/// Opening and writing a download's file; shared with NetworkLayerCurl's transport, so that
/// both transports create it 0600 and report a failed write the same way.
package enum DownloadFile {
    /// Opens `url` for writing at its end (appending) or from empty, creating it 0600 if needed
    /// (``PrivateFile``).
    ///
    /// - Throws: ``DownloadError/cannotWrite(_:)`` when the file cannot be opened.
    package static func open(_ url: URL, appending: Bool) throws -> (handle: FileHandle, offset: Int64) {
        let handle: FileHandle
        let offset: Int64
        do {
            handle = try PrivateFile.openForWriting(url, truncating: !appending)
            offset = Int64(try handle.seekToEnd())
        } catch {
            throw DownloadError.cannotWrite(url.path)
        }
        return (handle, offset)
    }

    /// Writes `bytes` at the end of the download's file `url` opened as `handle`.
    ///
    /// - Throws: ``DownloadError/writeFailed(_:reason:)`` naming the cause (a full disk, a
    ///   file-size limit): the caller ends the transfer with it. Never traps.
    package static func write(_ bytes: UnsafeRawBufferPointer, to handle: FileHandle, at url: URL) throws {
        do {
            try PrivateFile.write(bytes, to: handle)
        } catch {
            throw writeFailure(error, at: url)
        }
    }

    /// Writes `data`, as the buffer form does.
    package static func write(_ data: Data, to handle: FileHandle, at url: URL) throws {
        do {
            try PrivateFile.write(data, to: handle)
        } catch {
            throw writeFailure(error, at: url)
        }
    }

    private static func writeFailure(_ error: any Error, at url: URL) -> DownloadError {
        let reason = (error as? POSIXError).map { String(cString: strerror($0.code.rawValue)) } ?? "\(error)"
        return .writeFailed(url.path, reason: reason)
    }

    /// Opens `url` for the 2xx body of `response`: appended when it is a 206 whose
    /// `Content-Range` continues the file, from empty otherwise (a 200 replaces what a resumed
    /// download kept). Keeps the response's validator on the file (``ResumeValidator``). Also returns the bytes already
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
        // What a resumption must send in If-Range to continue this same file.
        ResumeValidator.record(ResumeValidator.validator(of: response), on: opened.handle.fileDescriptor)
        // The server controls Content-Length: an overflowing total is reported as unknown.
        let total = opened.offset.addingReportingOverflow(response.expectedContentLength)
        let expected = response.expectedContentLength >= 0 && !total.overflow ? total.partialValue : nil
        return (opened.handle, opened.offset, expected)
    }
}
