import Foundation

/// Where a download goes, and what to do when something is already there.
///
/// The body is written to a temporary file and moved to ``url`` only when the whole body has
/// arrived with an acceptable status. A failed, cancelled or rejected download leaves ``url``
/// untouched and removes its temporary file, unless the download is ``resumable``.
///
/// ```swift
/// case .poster(let id, let file):
///     return .download(DownloadDestination(file, options: [.replaceExisting, .createIntermediateDirectories]))
/// case .export(let folder):
///     return .download(.directory(folder))   // named by Content-Disposition or the URL
/// ```
public struct DownloadDestination: Sendable, Equatable {
    /// What may be done to the file system at the destination.
    public struct Options: OptionSet, Sendable, Hashable {
        /// The raw bit mask.
        public let rawValue: Int
        /// Creates options from a raw bit mask.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Replace a file already at the destination (otherwise the download fails with
        /// ``DownloadError/destinationExists(_:)``).
        public static let replaceExisting = Options(rawValue: 1 << 0)
        /// Create missing folders on the way to the destination.
        public static let createIntermediateDirectories = Options(rawValue: 1 << 1)
    }

    /// The final location of the file; for a destination made with ``directory(_:options:)``,
    /// the folder it goes into.
    public var url: URL
    /// What may be done at the destination; none by default.
    public var options: Options
    /// Whether an interrupted download keeps what arrived in ``partialFileURL``, so that the next
    /// download to the same destination asks only for the rest (`Range: bytes=N-`). `false` by
    /// default.
    ///
    /// The request also sends `If-Range` with the validator of the part already kept (its
    /// response's strong `ETag`, else `Last-Modified`, kept on the partial file): the resumed
    /// part is appended when the server answers `206`, and a `200` (the file changed meanwhile)
    /// starts the file over. A partial file without a validator is discarded, not resumed.
    ///
    /// Only a partial file that a download of the package wrote is resumed from or removed (it
    /// carries the validator's extended attribute, empty when there was none). A file of your
    /// own at ``partialFileURL`` is left as it is: the download then works in a private
    /// temporary file, as a download that is not resumable does.
    ///
    /// A destination named by the response (``isNamedByResponse``) cannot resume: the name of
    /// its partial file would be known only once the response has started. It is ignored there.
    public var resumable: Bool

    /// Whether ``url`` is a folder and the file's name comes from the response
    /// (``directory(_:options:)``); `false` by default.
    public var isNamedByResponse: Bool

    /// Creates a destination.
    public init(_ url: URL, options: Options = [], resumable: Bool = false) {
        self.url = url
        self.options = options
        self.resumable = resumable
        self.isNamedByResponse = false
    }

    /// A file in `folder`, named by the response, as Moya's destination closure names it from
    /// the `HTTPURLResponse`: `Content-Disposition`'s `filename*` (RFC 8187, which wins) or
    /// `filename` (RFC 6266), or else the last path component of the response's URL.
    ///
    /// ```swift
    /// case .export(let folder):
    ///     return .download(.directory(folder, options: [.createIntermediateDirectories]))
    /// // response.fileURL is folder/report-2024.pdf
    /// ```
    ///
    /// The server cannot write outside `folder`: only what follows the name's last `/` or `\`
    /// is kept, control and invisible formatting characters (NUL, CR, LF, right-to-left
    /// overrides) are removed, and so are leading dots and spaces, so that no name is `.`,
    /// `..` or a hidden file; a name over 255 bytes is shortened, keeping its extension. A file
    /// already there is refused (``DownloadError/destinationExists(_:)``) unless the options
    /// say ``Options/replaceExisting``; since the name is known only once the response has
    /// arrived, that check happens after the download, not before.
    ///
    /// - Parameters:
    ///   - folder: Where the file goes.
    ///   - options: What may be done there; none by default.
    /// - Returns: A destination whose download fails with ``DownloadError/noFileName(_:)``
    ///   when neither the header nor the URL gives a usable name.
    public static func directory(_ folder: URL, options: Options = []) -> DownloadDestination {
        var destination = DownloadDestination(folder, options: options)
        destination.isNamedByResponse = true
        return destination
    }

    /// Whether the download keeps a partial file: ``resumable`` and not ``isNamedByResponse``.
    var resumes: Bool { resumable && !isNamedByResponse }

    /// Where a resumable download keeps what has arrived: the destination plus `.partial`.
    public var partialFileURL: URL { url.appendingPathExtension("partial") }
}
