import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The file name a response gives a download (``DownloadDestination/directory(_:options:)``),
/// made safe to put in a folder: a name the server sends can never reach outside it.
///
/// Where the name comes from, first found wins:
/// 1. `Content-Disposition`'s `filename*` (RFC 8187, UTF-8 or ISO-8859-1), then its `filename`;
/// 2. the last path component of the response's URL (after redirects), percent-decoded.
///
/// What is done to it:
/// - only what follows the last `/` or `\` is kept (`../../etc/passwd` is `passwd`);
/// - control and invisible formatting characters are removed (NUL, CR, LF, DEL, and
///   right-to-left overrides that disguise an extension);
/// - leading dots and spaces and trailing spaces are removed, so no name is `.`, `..`, or
///   hidden (`.bashrc` is `bashrc`);
/// - a name longer than 255 UTF-8 bytes (the file systems' limit) is shortened, keeping its
///   extension.
///
/// A name that is empty after this does not count, and the next source is tried.
enum DownloadFileName {
    /// The longest file name, in bytes, of the common file systems (`NAME_MAX`).
    static let maximumLength = 255

    /// Where `response`'s body goes in `folder`.
    ///
    /// - Throws: ``DownloadError/noFileName(_:)`` when neither the header nor the URL gives a
    ///   usable name.
    static func destination(in folder: URL, for response: Response) throws(DownloadError) -> URL {
        let url = response.httpResponse.url ?? response.request.url
        guard let name = name(contentDisposition: response.header("Content-Disposition"), url: url) else {
            throw .noFileName(url.map { ErrorText.url($0.absoluteString) } ?? "-")
        }
        let destination = folder.appendingPathComponent(name, isDirectory: false)
        // The rules above leave no separator and no dot-dot; this says so once more, cheaply.
        guard destination.deletingLastPathComponent().standardizedFileURL.path == folder.standardizedFileURL.path else {
            throw .noFileName(url.map { ErrorText.url($0.absoluteString) } ?? "-")
        }
        return destination
    }

    /// The first usable name of the header's and the URL's.
    static func name(contentDisposition: String?, url: URL?) -> String? {
        if let header = contentDisposition {
            let disposition = ContentDisposition(header)
            for candidate in [disposition.extendedFileName, disposition.fileName] {
                if let name = candidate.flatMap(sanitize) { return name }
            }
        }
        return url.flatMap { sanitize($0.lastPathComponent) }
    }

    /// `name` as a safe file name, or `nil` when nothing is left of it.
    static func sanitize(_ name: String) -> String? {
        let lastComponent = name.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }.last ?? ""
        let visible = String(String.UnicodeScalarView(lastComponent.unicodeScalars.filter { !isInvisible($0) }))
        let trimmed = visible.drop { $0 == "." || $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
        let result = String(trimmed)
        guard !result.isEmpty else { return nil }
        return shortened(result)
    }

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator:
            return true
        default:
            return false
        }
    }

    /// At most ``maximumLength`` UTF-8 bytes, cut between characters, with the extension kept
    /// when it is short.
    private static func shortened(_ name: String) -> String {
        guard name.utf8.count > maximumLength else { return name }
        var stem = Substring(name)
        var suffix = ""
        if let dot = name.lastIndex(of: "."), dot != name.startIndex, name[dot...].utf8.count <= 32 {
            stem = name[..<dot]
            suffix = String(name[dot...])
        }
        var kept = ""
        for character in stem {
            guard kept.utf8.count + character.utf8.count + suffix.utf8.count <= maximumLength else { break }
            kept.append(character)
        }
        return kept + suffix
    }
}
