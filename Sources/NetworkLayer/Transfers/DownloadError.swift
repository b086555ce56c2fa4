import Foundation

/// Why a download could not be put in place. Arrives as ``NetworkError/download(_:)``.
///
/// ```swift
/// do {
///     _ = try await router.request(.export(to: file))
/// } catch NetworkError.download(.destinationExists(let path)) {
///     print("\(path) is already there")
/// }
/// ```
public enum DownloadError: Error, Sendable, Equatable {
    /// A file is already at the destination and ``DownloadDestination/Options/replaceExisting``
    /// was not given. Checked before the request is sent, and again when the file is put in place.
    case destinationExists(String)
    /// The destination's folder does not exist (see ``DownloadDestination/Options/createIntermediateDirectories``)
    /// or cannot be written, or something that is not a file (a folder) is in the way. A file
    /// already at the destination is left as it was.
    case cannotWrite(String)
    /// A resumed download's `206` does not continue where the partial file ends: its
    /// `Content-Range` starts at the first value instead of the second.
    case unexpectedRange(start: Int64?, expected: Int64)
    /// A download to a folder (``DownloadDestination/directory(_:options:)``) got a response
    /// that names no file: no `Content-Disposition` file name and no last path component of its
    /// URL survived the destination's rules (say `filename=".."` from `https://example.com/`).
    /// The value is that URL, its query and fragment shown as `?…` and its user info removed.
    case noFileName(String)
    /// The body could not be written to the download's working file (the first value): the
    /// disk is full, a file-size limit was reached, or another write error, named by the second
    /// value. The transfer stops at once and nothing is put at the destination; a resumable
    /// download keeps what was written whole in its `.partial` file.
    case writeFailed(String, reason: String)
    /// A `206` whose part does not end the file, to a request that did not ask for a part with a
    /// `Range` header of its own: its `Content-Range` stops at byte `received` of a file of
    /// `expected` bytes (`nil` when the range is missing or gives no length). Nothing is put at
    /// the destination, so a complete file there is never replaced by a part of one; a resumable
    /// download keeps what it received in its `.partial` file and asks for the rest next time.
    case incomplete(received: Int64?, expected: Int64?)
}

extension DownloadError: LocalizedError {
    /// A sentence that says what went wrong and, where there is one, what to do about it.
    public var errorDescription: String? {
        switch self {
        case .destinationExists(let path):
            return "A file already exists at \(path); pass .replaceExisting to replace it."
        case .cannotWrite(let path):
            return "The download could not be written to \(path): its folder is missing or not writable, or a folder is in the way."
        case .unexpectedRange(let start, let expected):
            let start = start.map(String.init) ?? "no Content-Range"
            return "The server resumed the download at \(start) instead of byte \(expected), where the partial file ends."
        case .writeFailed(let path, let reason):
            return "The download could not be written to \(path): \(reason)."
        case .incomplete(let received, let expected):
            let part = received.map { "up to byte \($0)" } ?? "without a byte range"
            let whole = expected.map { " of \($0)" } ?? ""
            return "The server sent part of the file (206 Partial Content, \(part)\(whole)): the download is incomplete."
        case .noFileName(let url):
            return "The response from \(url) names no usable file: no Content-Disposition file name, and no last path component."
        }
    }
}
