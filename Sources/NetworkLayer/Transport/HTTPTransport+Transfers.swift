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

extension UploadBody {
    /// The body read into memory: what a transport that cannot send it from its file sends.
    ///
    /// - Throws: `URLError(.cannotOpenFile)` when a file cannot be read.
    package func bytes() throws -> Data {
        switch self {
        case .data(let data):
            return data
        case .file(let url):
            do {
                return try Data(contentsOf: url)
            } catch {
                throw URLError(.cannotOpenFile)
            }
        }
    }
}

/// Receives bytes done and the expected total (`nil` when unknown).
public typealias TransferProgressHandler = @Sendable (_ completed: Int64, _ total: Int64?) -> Void

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
    /// - Throws: ``DownloadError/unexpectedRange(start:expected:)`` for a 206 whose
    ///   `Content-Range` does not parse (``ContentRange``) or does not start where the file
    ///   ends; ``DownloadError/cannotWrite(_:)`` when the file cannot be opened.
    package static func open(_ url: URL, for response: HTTPURLResponse) throws -> (handle: FileHandle, offset: Int64, total: Int64?) {
        let opened = try open(url, appending: response.statusCode == 206)
        if response.statusCode == 206 {
            // Append only what continues the file; a range that does not parse continues nothing.
            let start = ContentRange(response.value(forHTTPHeaderField: "Content-Range"))?.first
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
