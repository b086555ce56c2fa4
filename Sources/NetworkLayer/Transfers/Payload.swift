import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What travels with a request besides its head, for the length of one request: a body kept
/// outside the `URLRequest` (an upload, a multipart form) or a download's working file. Owns the
/// clean-up, so that no temporary file outlives its request, whatever the outcome.
enum Payload: Sendable {
    /// The body is in the `URLRequest` (or there is none).
    case inRequest
    /// An upload of the caller's data or file.
    case upload(UploadBody)
    /// A multipart form, encoded when the request is first sent (``Chain/run(_:)``).
    case form(FormBody)
    /// A download into a working file, moved into place on success.
    case download(DownloadWork)

    init(_ kind: RequestBuilder.BodyKind) throws {
        switch kind {
        case .inRequest:
            self = .inRequest
        case .upload(let body):
            self = .upload(body)
        case .multipart(let form):
            self = .form(FormBody(form))
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

    /// Whether the body is sent as an upload: the caller's data or file, or a form.
    var isUpload: Bool {
        switch self {
        case .upload, .form: return true
        case .inRequest, .download: return false
        }
    }

    /// The bytes of the request body sent with `request`, for ``RequestMetrics``.
    func bodyBytes(of request: URLRequest) -> Int64 {
        switch self {
        case .inRequest, .download: return Int64(request.httpBody?.count ?? 0)
        case .upload(.data(let data)): return Int64(data.count)
        case .upload(.file(let url)): return Self.size(of: url)
        case .form(let form): return form.length
        }
    }

    /// Bytes moved by a successful request, for the final progress event.
    func transferredBytes(of response: Response) -> Int64 {
        switch self {
        case .inRequest:
            return Int64(response.data.count)
        case .upload(.data(let data)):
            return Int64(data.count)
        case .upload(.file(let url)):
            return Self.size(of: url)
        case .form(let form):
            return form.length
        case .download:
            return response.fileURL.map(Self.size(of:)) ?? Int64(response.data.count)
        }
    }

    /// Removes what must not outlive the request.
    func cleanUp() {
        switch self {
        case .inRequest, .upload:
            break
        case .form(let form):
            form.close()
        case .download(let work):
            work.cleanUp()
        }
    }

    static func size(of url: URL) -> Int64 {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
