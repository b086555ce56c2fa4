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

    /// The final location of the file.
    public var url: URL
    /// What may be done at the destination; none by default.
    public var options: Options
    /// Whether an interrupted download keeps what arrived in ``partialFileURL``, so that the next
    /// download to the same destination asks only for the rest (`Range: bytes=N-`). `false` by
    /// default.
    ///
    /// The resumed part is appended when the server answers `206`; a `200` starts the file
    /// over. No `If-Range` validator is sent yet, so resume only resources that do not change
    /// between the two downloads (versioned or content-addressed URLs).
    public var resumable: Bool

    /// Creates a destination.
    public init(_ url: URL, options: Options = [], resumable: Bool = false) {
        self.url = url
        self.options = options
        self.resumable = resumable
    }

    /// Where a resumable download keeps what has arrived: the destination plus `.partial`.
    public var partialFileURL: URL { url.appendingPathExtension("partial") }
}
