import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What travels with a request besides its head, for the length of one request: a body kept
/// outside the `URLRequest` (an upload, a multipart form made ready to upload) or a download's
/// working file. Owns the clean-up, so that no temporary file outlives its request, whatever
/// the outcome.
enum Payload: Sendable {
    /// The body is in the `URLRequest` (or there is none).
    case inRequest
    /// An upload; the file is ours to remove afterwards when the URL is given.
    case upload(UploadBody, temporaryFile: URL?)
    /// A download into a working file, moved into place on success.
    case download(DownloadWork)

    init(_ kind: RequestBuilder.BodyKind) throws {
        switch kind {
        case .inRequest:
            self = .inRequest
        case .upload(let body):
            self = .upload(body, temporaryFile: nil)
        case .multipart(let form):
            // Large forms go through a file (0600, in the process's 0700 working folder) so
            // that memory stays flat. Written whole before anything is sent: a form that cannot
            // be written fails here, and leaves no file.
            if form.contentLength > MultipartFormData.streamingThreshold {
                let file: URL
                do {
                    file = try WorkingFolder.newFile(prefix: "networklayer-multipart")
                } catch {
                    throw MultipartFormDataError.unwritableFile(FileManager.default.temporaryDirectory.path)
                }
                do {
                    try form.writeBody(to: file)
                } catch {
                    try? FileManager.default.removeItem(at: file)
                    throw error
                }
                self = .upload(.file(file), temporaryFile: file)
            } else {
                self = .upload(.data(try form.encode()), temporaryFile: nil)
            }
        case .download(let destination):
            // Refused before anything is sent: the whole body would otherwise be downloaded for
            // nothing. The placement checks again, atomically, in case a file appears meanwhile.
            // A folder destination's file name is known only from the response.
            if !destination.options.contains(.replaceExisting), !destination.isNamedByResponse,
                FileManager.default.fileExists(atPath: destination.url.path)
            {
                throw DownloadError.destinationExists(destination.url.path)
            }
            self = .download(try DownloadWork(destination: destination))
        }
    }

    /// The bytes of the request body sent with `request`, for ``RequestMetrics``.
    func bodyBytes(of request: URLRequest) -> Int64 {
        switch self {
        case .inRequest, .download: return Int64(request.httpBody?.count ?? 0)
        case .upload(.data(let data), _): return Int64(data.count)
        case .upload(.file(let url), _): return Self.size(of: url)
        }
    }

    /// Bytes moved by a successful request, for the final progress event.
    func transferredBytes(of response: Response) -> Int64 {
        switch self {
        case .inRequest:
            return Int64(response.data.count)
        case .upload(.data(let data), _):
            return Int64(data.count)
        case .upload(.file(let url), _):
            return Self.size(of: url)
        case .download:
            return response.fileURL.map(Self.size(of:)) ?? Int64(response.data.count)
        }
    }

    /// Removes what must not outlive the request.
    func cleanUp() {
        switch self {
        case .inRequest, .upload(_, nil):
            break
        case .upload(_, let temporaryFile?):
            try? FileManager.default.removeItem(at: temporaryFile)
        case .download(let work):
            work.cleanUp()
        }
    }

    static func size(of url: URL) -> Int64 {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
