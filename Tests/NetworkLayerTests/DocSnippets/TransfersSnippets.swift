// Code of the DocC article "Uploads and downloads"; see GettingStartedSnippets.swift.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkLayer

// snippet.start transfer-api
enum MediaApi: EndPointType {
    case uploadPoster(URL)
    case uploadBackup(Data)
    case createList(MultipartFormData)
    case export(to: URL)

    var baseURL: URL { URL(string: "https://api.example.com")! }

    var path: String {
        switch self {
        case .uploadPoster: return "posters"
        case .uploadBackup: return "backups"
        case .createList: return "lists"
        case .export: return "export"
        }
    }

    var httpMethod: HTTPMethod {
        switch self {
        case .export: return .get
        default: return .post
        }
    }

    var task: HTTPTask {
        switch self {
        case .uploadPoster(let file):
            return .uploadFile(file, contentType: "image/jpeg")
        case .uploadBackup(let data):
            return .uploadData(data, contentType: "application/octet-stream")
        case .createList(let form):
            return .uploadMultipart(form)
        case .export(let destination):
            return .download(
                DownloadDestination(
                    destination,
                    options: [.replaceExisting, .createIntermediateDirectories]))
        }
    }

    var headers: HTTPHeaders? { nil }
    var timeout: TimeInterval { 600 }
}
// snippet.end

enum TransfersSnippets {
    static func transfers(posterURL: URL, file: URL) async throws {
        let router = Router<MediaApi>()
        // snippet.start multipart
        var form = MultipartFormData()
        form.append("Weekend", name: "title")
        try form.append(fileAt: posterURL, name: "poster", mimeType: "image/jpeg")
        let created = try await router.request(.createList(form))
        // snippet.end
        print(created.statusCode)

        // snippet.start progress-closure
        let response = try await router.request(.export(to: file)) { progress in
            print(progress.fractionCompleted ?? 0)  // nil while the total is unknown (chunked)
        }
        print(response.fileURL!)  // the destination; response.data is empty
        // snippet.end

        // snippet.start progress-stream
        let transfer = router.transfer(.uploadPoster(posterURL))
        for await progress in transfer.progress {
            print(progress.completedBytes, progress.totalBytes ?? -1)
        }
        let uploaded = try await transfer.response()
        // snippet.end
        print(uploaded.statusCode)

        // snippet.start resumable
        let resumable = DownloadDestination(file, resumable: true)
        print(resumable.partialFileURL)  // file.partial: what arrived so far
        // snippet.end
    }
}
