import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request's body and files for the length of one request: a multipart form made ready to
/// upload, or a download's working file. Owns the clean-up, so that no temporary file
/// outlives its request, whatever the outcome.
enum TransferBody: Sendable {
    /// The body is in the `URLRequest` (or there is none).
    case inRequest
    /// An upload; the file is ours to remove afterwards when the URL is given.
    case upload(UploadBody, temporaryFile: URL?)
    /// A download into a working file, moved into place on success.
    case download(DownloadWork)

    init(_ transfer: RequestBuilder.Transfer) throws {
        switch transfer {
        case .inRequest:
            self = .inRequest
        case .upload(let body):
            self = .upload(body, temporaryFile: nil)
        case .multipart(let form):
            // Large forms go through a temporary file so that memory stays flat.
            if form.contentLength > MultipartFormData.streamingThreshold {
                let file = FileManager.default.temporaryDirectory
                    .appendingPathComponent("networklayer-multipart-\(UUID().uuidString)")
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
            if !destination.options.contains(.replaceExisting), FileManager.default.fileExists(atPath: destination.url.path) {
                throw DownloadError.destinationExists(destination.url.path)
            }
            self = .download(DownloadWork(destination: destination))
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

    /// The request succeeded: nothing of a download is to be kept for resuming.
    func succeeded() {
        if case .download(let work) = self { work.markSucceeded() }
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

/// A download's working file: a temporary file, or the destination's `.partial` file when the
/// download is resumable.
final class DownloadWork: Sendable {
    let destination: DownloadDestination
    let workFile: URL
    private let succeeded = Locked(false)

    init(destination: DownloadDestination) {
        self.destination = destination
        // A resumable download's working file sits beside the destination, so its folder must
        // exist before the first byte arrives.
        if destination.resumable, destination.options.contains(.createIntermediateDirectories) {
            try? FileManager.default.createDirectory(
                at: destination.url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        workFile =
            destination.resumable
            ? destination.partialFileURL
            : FileManager.default.temporaryDirectory.appendingPathComponent("networklayer-download-\(UUID().uuidString)")
    }

    /// `request`, asking only for the missing part when a resumable download has a partial file.
    func resumeRequest(_ request: URLRequest) -> URLRequest {
        guard destination.resumable else { return request }
        let have = TransferBody.size(of: workFile)
        guard have > 0 else { return request }
        var request = request
        request.setValue("bytes=\(have)-", forHTTPHeaderField: "Range")
        return request
    }

    /// Moves the complete working file to the destination, honouring its options; on failure the
    /// destination is as it was (see ``FilePlacement``).
    func moveIntoPlace() throws(DownloadError) -> URL {
        let manager = FileManager.default
        let target = destination.url
        if destination.options.contains(.createIntermediateDirectories) {
            let folder = target.deletingLastPathComponent()
            do {
                try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw .cannotWrite(folder.path)
            }
        }
        // A download with an empty body never created its working file.
        if !manager.fileExists(atPath: workFile.path) {
            guard manager.createFile(atPath: workFile.path, contents: nil) else { throw .cannotWrite(workFile.path) }
        }
        try FilePlacement.move(workFile, to: target, replacing: destination.options.contains(.replaceExisting))
        return target
    }

    /// Removes what a resumable download kept, so the next request fetches everything.
    func discardPartial() {
        try? FileManager.default.removeItem(at: workFile)
    }

    func markSucceeded() {
        succeeded.withLock { $0 = true }
    }

    /// A failed or cancelled download leaves nothing, unless it is resumable: then what arrived
    /// stays in the partial file for the next attempt.
    func cleanUp() {
        let done = succeeded.withLock { $0 }
        if !done && destination.resumable { return }
        try? FileManager.default.removeItem(at: workFile)
    }
}
