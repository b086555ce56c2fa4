import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A `multipart/form-data` body (RFC 7578): text fields, in-memory data and files.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Weekend watchlist", name: "title")
/// form.append(jsonData, name: "meta", fileName: "meta.json", mimeType: "application/json")
/// form.append(fileAt: posterURL, name: "poster", mimeType: "image/jpeg")
/// // HTTPTask.uploadMultipart(form)
/// ```
///
/// The boundary is 32 random hex digits; it is regenerated if any in-memory part contains it
/// (file parts are not scanned: a collision has probability 2⁻¹²⁸). Parts are framed with CRLF
/// as RFC 7578 requires. Bodies larger than ``streamingThreshold`` are written to a temporary
/// file in 1 MiB chunks instead of being held in memory; the router removes that file afterwards.
public struct MultipartFormData: Sendable {
    /// What one part holds.
    enum Content: Sendable {
        case data(Data)
        case file(URL, size: UInt64)
    }

    struct Part: Sendable {
        let headers: String
        let content: Content
    }

    /// Bodies larger than this many bytes (10 MiB) are streamed from a temporary file.
    public static let streamingThreshold: UInt64 = 10 * 1024 * 1024

    /// The boundary between parts.
    public private(set) var boundary: String
    private(set) var parts: [Part] = []
    /// How many times a part has been scanned for the boundary: what appending costs, visible to
    /// tests so that they can prove it linear without timing it.
    private(set) var boundaryScans = 0

    /// Creates an empty form with a random boundary.
    public init() {
        boundary = Self.randomBoundary()
    }

    /// `multipart/form-data; boundary=…`, the request's `Content-Type`.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Appends a text field.
    public mutating func append(_ value: String, name: String) {
        append(Data(value.utf8), name: name, fileName: nil, mimeType: nil)
    }

    /// Appends in-memory data, as a file when `fileName` is given.
    ///
    /// - Parameters:
    ///   - mimeType: The part's `Content-Type`; `application/octet-stream` for a file part
    ///     without one, none for a plain field.
    public mutating func append(_ data: Data, name: String, fileName: String? = nil, mimeType: String? = nil) {
        let part = Part(headers: Self.headers(name: name, fileName: fileName, mimeType: mimeType), content: .data(data))
        parts.append(part)
        // Earlier parts were checked against the current boundary when they came: only the new
        // one needs scanning, unless it forces a new boundary. Rescanning every part on every
        // append made a form of n parts cost n²/2 scans (800 parts of 4 KiB took 2.4 s).
        boundaryScans += 1
        if Self.contains(boundary, part) { regenerateBoundary() }
    }

    /// Appends the file at `fileURL`, read when the body is written.
    ///
    /// - Parameters:
    ///   - fileName: The name the server sees; the file's own name by default.
    ///   - mimeType: `application/octet-stream` by default.
    /// - Throws: ``MultipartFormDataError/unreadableFile(_:)`` when the file does not exist or
    ///   is not a regular file.
    public mutating func append(fileAt fileURL: URL, name: String, fileName: String? = nil, mimeType: String? = nil) throws {
        let attributes = try? FileManager.default.attributesOfItem(atPath: fileURL.path)
        guard let attributes, attributes[.type] as? FileAttributeType == .typeRegular,
            let size = (attributes[.size] as? NSNumber)?.uint64Value
        else {
            throw MultipartFormDataError.unreadableFile(fileURL.path)
        }
        let headers = Self.headers(name: name, fileName: fileName ?? fileURL.lastPathComponent, mimeType: mimeType)
        parts.append(Part(headers: headers, content: .file(fileURL, size: size)))
    }

    /// The size of the encoded body in bytes; `UInt64.max` when the parts together are larger
    /// than that.
    ///
    /// Only file parts can get there (sparse files of exabytes on tmpfs or XFS, or one large file
    /// appended many times): the sum stops at `UInt64.max` rather than overflowing, which would
    /// end the process.
    public var contentLength: UInt64 {
        let boundaryLine = UInt64("--\(boundary)\r\n".utf8.count)
        var total = UInt64("--\(boundary)--\r\n".utf8.count)
        for part in parts {
            let content: UInt64
            switch part.content {
            case .data(let data): content = UInt64(data.count)
            case .file(_, let size): content = size
            }
            for length in [boundaryLine, UInt64(part.headers.utf8.count), content, 2] {
                let (sum, overflow) = total.addingReportingOverflow(length)
                guard !overflow else { return .max }
                total = sum
            }
        }
        return total
    }

    /// The whole body in memory. For large forms prefer ``writeBody(to:)``.
    ///
    /// - Throws: ``MultipartFormDataError/unreadableFile(_:)`` when a file part cannot be read.
    public func encode() throws -> Data {
        var body = Data()
        try write { body.append($0) }
        return body
    }

    /// Writes the body to a new file at `fileURL`, reading file parts in 1 MiB chunks.
    ///
    /// The file is created readable and writable by its owner only (0600): it holds the whole
    /// body. A file already at `fileURL` is replaced once the body is written whole: the body is
    /// written beside it first and renamed over it, so when the body cannot be written (a full
    /// disk, a part's file gone) the file already there is left as it was, nothing is left
    /// half-written, and the error is thrown. A symbolic link at `fileURL` is replaced the same
    /// way; the file it leads to is never written.
    ///
    /// - Throws: ``MultipartFormDataError/unwritableFile(_:)`` when the file cannot be created
    ///   or written, ``MultipartFormDataError/unreadableFile(_:)`` when a part cannot be read.
    public func writeBody(to fileURL: URL) throws {
        // A device (`/dev/full`, `/dev/null`) is written to itself, never renamed over. A link is
        // renamed over: written through, it truncated the file it leads to before the first part
        // was read. (The attributes are the link's own: they do not follow it.)
        let type = (try? FileManager.default.attributesOfItem(atPath: fileURL.path))?[.type] as? FileAttributeType
        guard type == nil || type == .typeRegular || type == .typeSymbolicLink else {
            return try writeBody(into: fileURL, reportedAs: fileURL)
        }
        let temporary = fileURL.deletingLastPathComponent().appendingPathComponent(".\(fileURL.lastPathComponent).\(UUID().uuidString).partial")
        try writeBody(into: temporary, reportedAs: fileURL)
        guard rename(temporary.path, fileURL.path) == 0 else {
            unlink(temporary.path)
            throw MultipartFormDataError.unwritableFile(fileURL.path)
        }
    }

    /// Writes the body to `fileURL`, named `shown` in errors; removes the file when the body
    /// cannot be written whole.
    private func writeBody(into fileURL: URL, reportedAs shown: URL) throws {
        let output: FileHandle
        do {
            output = try PrivateFile.openForWriting(fileURL, truncating: true)
        } catch {
            throw MultipartFormDataError.unwritableFile(shown.path)
        }
        do {
            defer { try? output.close() }
            try write { chunk in
                do {
                    try PrivateFile.write(chunk, to: output)
                } catch {
                    throw MultipartFormDataError.unwritableFile(shown.path)
                }
            }
        } catch {
            // Only a regular file: a path may lead to a device (/dev/full), never ours to remove.
            let type = (try? FileManager.default.attributesOfItem(atPath: fileURL.path))?[.type] as? FileAttributeType
            if type == .typeRegular { try? FileManager.default.removeItem(at: fileURL) }
            throw error
        }
    }

    private func write(_ emit: (Data) throws -> Void) throws {
        for part in parts {
            try emit(Data("--\(boundary)\r\n\(part.headers)".utf8))
            switch part.content {
            case .data(let data):
                try emit(data)
            case .file(let url, _):
                guard let input = try? FileHandle(forReadingFrom: url) else {
                    throw MultipartFormDataError.unreadableFile(url.path)
                }
                defer { try? input.close() }
                while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                    try emit(chunk)
                }
            }
            try emit(Data("\r\n".utf8))
        }
        try emit(Data("--\(boundary)--\r\n".utf8))
    }

    private static func headers(name: String, fileName: String?, mimeType: String?) -> String {
        var disposition = "Content-Disposition: form-data; name=\"\(quoted(name))\""
        if let fileName { disposition += "; filename=\"\(quoted(fileName))\"" }
        var headers = disposition + "\r\n"
        if let type = mimeType ?? (fileName == nil ? nil : "application/octet-stream") {
            headers += "Content-Type: \(quoted(type))\r\n"
        }
        return headers + "\r\n"
    }

    /// RFC 7578 §4.2: quotes, CR and LF in names are percent-encoded, as browsers do; for a
    /// MIME type this keeps a CR LF from starting a header of its own.
    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    private static func randomBoundary() -> String {
        let random = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        return "networklayer.boundary.\(random)"
    }

    /// Picks boundaries until one appears in no part: a new boundary is new to every part,
    /// so all of them are scanned again.
    private mutating func regenerateBoundary() {
        var clashes = true
        while clashes {
            boundary = Self.randomBoundary()
            clashes = false
            for part in parts {
                boundaryScans += 1
                if Self.contains(boundary, part) {
                    clashes = true
                    break
                }
            }
        }
    }

    /// Whether `boundary` occurs in `part`'s headers or in-memory content (file parts are not
    /// read: see the type's documentation).
    private static func contains(_ boundary: String, _ part: Part) -> Bool {
        guard case .data(let data) = part.content else { return false }
        return part.headers.contains(boundary) || data.range(of: Data(boundary.utf8)) != nil
    }
}

/// Why a multipart body could not be built.
public enum MultipartFormDataError: Error, Sendable, Equatable {
    /// A file part does not exist, is not a regular file, or could not be read.
    case unreadableFile(String)
    /// The body file could not be created or written whole (a missing folder, a full disk, a
    /// file-size limit); nothing is left at its path.
    case unwritableFile(String)
}

extension MultipartFormDataError: LocalizedError {
    /// A sentence naming the file.
    public var errorDescription: String? {
        switch self {
        case .unreadableFile(let path): return "The file \"\(path)\" cannot be read for a multipart body."
        case .unwritableFile(let path): return "The multipart body could not be written to \"\(path)\"."
        }
    }
}
