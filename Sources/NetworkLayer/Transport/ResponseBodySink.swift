import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a response body goes as it arrives chunk by chunk, with its rules written once for
/// ``URLSessionTransport``'s delegate-driven tasks and `CurlTransport`'s calls: a body kept in
/// memory stops at its limit (``ResponseSizeLimit``), a download's 2xx body goes to its file
/// (``DownloadFile``: a 206 appends, a 200 replaces), and any other body of a download stays in
/// memory so that the router can show the server's error.
///
/// Not thread-safe by itself: each call keeps its sink under the lock it already holds for its
/// other state, so that a cancellation and a chunk never interleave.
package struct ResponseBodySink {
    /// What the caller asked for; the head decides whether a download's body really goes to the file.
    package enum Target: Sendable, Equatable {
        /// Kept whole in memory: a plain request's or an upload's response.
        case memory
        /// A 2xx body written to this file as it arrives, so memory stays flat whatever its size.
        case file(URL)
    }

    private let target: Target
    /// The largest body kept in memory, in bytes: a download's 2xx body in its file is not limited.
    private let maximumBodySize: Int
    /// The download's file while this response's body is written to it; `nil` once closed, so
    /// that nothing is written after a failure, a cancellation or the end.
    private var file: (handle: FileHandle, url: URL)?
    /// Whether this response's body went to the file, so that its length is counted there.
    private var writesToFile = false
    private var body = Data()
    /// Bytes in the file, those a resumed download kept included: the progress a caller shows.
    private var received: Int64 = 0
    /// Where this response's body starts in the file, to tell its own length from what was kept.
    private var fileStart: Int64 = 0
    /// The whole file's expected size, for progress; `nil` when the server did not say.
    private var expected: Int64?
    /// Set by ``close()`` and ``finish()``: chunks that Foundation had queued before a
    /// cancellation must neither be written nor kept.
    private var isClosed = false

    /// The first failure (the file cannot be opened or written, or the body is too large): the
    /// transfer ends with it rather than with the transport's own "cancelled".
    package private(set) var failure: (any Error)?

    /// - Parameter maximumBodySize: The transport's limit on a body kept in memory.
    package init(target: Target, maximumBodySize: Int) {
        self.target = target
        self.maximumBodySize = maximumBodySize
    }

    /// Opens the download's file for a 2xx head, before any of its body arrives, so that a 206
    /// that does not continue the file is refused before a byte is written.
    ///
    /// - Throws: What ``DownloadFile/open(_:for:)`` throws; the sink keeps it as ``failure``.
    package mutating func begin(_ response: HTTPURLResponse) throws {
        try begin(.made(response))
    }

    /// As `begin(_:)` with an `HTTPURLResponse`, for a head whose response is made only for a
    /// download's file.
    package mutating func begin(_ head: ResponseHead) throws {
        guard failure == nil, !isClosed else { return }
        guard case .file(let url) = target, (200..<300).contains(head.statusCode) else { return }
        // One final head per response on both transports; a second one must not leak the first file.
        closeFile()
        do {
            let opened = try DownloadFile.open(url, for: head.httpResponse)
            file = (opened.handle, url)
            writesToFile = true
            received = opened.offset
            fileStart = opened.offset
            expected = opened.total
        } catch {
            fail(error)
            throw error
        }
    }

    /// Writes or keeps `chunk`, so that both transports stop a transfer at the same byte.
    ///
    /// - Returns: The file's progress after a write, bytes in the file and the whole file's
    ///   expected size; `nil` when the chunk was kept in memory (or dropped after ``close()``).
    /// - Throws: ``DownloadError/writeFailed(_:reason:)`` or the size limit's `URLError`, also
    ///   kept as ``failure``; a sink that failed throws that failure again and takes nothing more.
    package mutating func take(_ chunk: UnsafeRawBufferPointer) throws -> (received: Int64, expected: Int64?)? {
        if let failure { throw failure }
        guard !isClosed else { return nil }
        if let file {
            do {
                try DownloadFile.write(chunk, to: file.handle, at: file.url)
            } catch {
                // A full disk or a file-size limit: nothing after it is written or buffered.
                fail(error)
                throw error
            }
            received += Int64(chunk.count)
            return (received, expected)
        }
        guard !ResponseSizeLimit.isExceeded(holding: body.count, adding: chunk.count, limit: maximumBodySize) else {
            let error = ResponseSizeLimit.error(limit: maximumBodySize)
            fail(error)
            throw error
        }
        body.append(contentsOf: chunk)
        return nil
    }

    /// Takes `chunk` as the buffer form does: URLSession hands its body as `Data`.
    package mutating func take(_ chunk: Data) throws -> (received: Int64, expected: Int64?)? {
        try chunk.withUnsafeBytes { try take($0) }
    }

    /// Ends the body: the file is closed so that the router can move it into place.
    ///
    /// - Returns: The body kept in memory (empty for one written to the file), and the length
    ///   of this response's body as received, in the file or in memory, for ``BodyFraming``.
    package mutating func finish() -> (body: Data, bodyBytes: Int64) {
        closeFile()
        isClosed = true
        let bodyBytes = writesToFile ? received - fileStart : Int64(body.count)
        let kept = body
        body = Data()
        return (kept, bodyBytes)
    }

    /// Stops at once on a cancellation: the file is closed as it was left, for a resumption to
    /// find, and the memory is released.
    package mutating func close() {
        closeFile()
        body = Data()
        isClosed = true
    }

    /// Keeps the first failure and stops writing and keeping, so a failed transfer holds nothing.
    private mutating func fail(_ error: any Error) {
        if failure == nil { failure = error }
        closeFile()
        body = Data()
    }

    /// Closes the file once: a close error changes nothing for a body already written.
    private mutating func closeFile() {
        try? file?.handle.close()
        file = nil
    }
}
