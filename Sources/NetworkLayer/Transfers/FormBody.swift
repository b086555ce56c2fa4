import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A multipart form as a request's body, encoded once, off the caller's thread, when the request
/// is first sent: the form reads its file parts and a large one is written to a file, which took
/// a main-actor caller 104 ms inside `router.request` for a 64 MiB form (`Scripts/bench form`,
/// 2026-11-26). Up to ``MultipartFormData/streamingThreshold`` it is kept in memory; above, in a
/// file (0600, in the process's 0700 ``WorkingFolder``) so that memory stays flat. The file goes
/// with the request (``close()``), whenever it ends, even while the form is still being written.
final class FormBody: Sendable {
    let form: MultipartFormData

    private struct State {
        var body: UploadBody?
        var file: URL?
        var isClosed = false
    }

    private let state = Locked(State())

    init(_ form: MultipartFormData) {
        self.form = form
    }

    /// The form's length in bytes, known without encoding it.
    var length: Int64 { Int64(clamping: form.contentLength) }

    /// The body to upload: encoded on a queue of Dispatch the first time, not on the cooperative
    /// pool (the copy blocks its thread) nor on the caller's; the same body for every attempt.
    ///
    /// - Throws: ``MultipartFormDataError`` when a part cannot be read or the file cannot be
    ///   written (the file is then removed); `CancellationError` when the request ended
    ///   meanwhile.
    func encoded() async throws -> UploadBody {
        if let body = state.withLock({ $0.body }) { return body }
        let (body, file) = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try self.encode() }) }
        }
        let kept = state.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            state.body = body
            state.file = file
            return true
        }
        guard kept else {
            // The request ended while the form was written: nothing else will remove the file.
            if let file { try? FileManager.default.removeItem(at: file) }
            throw CancellationError()
        }
        return body
    }

    private func encode() throws -> (UploadBody, file: URL?) {
        guard form.contentLength > MultipartFormData.streamingThreshold else { return (.data(try form.encode()), nil) }
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
        return (.file(file), file)
    }

    /// Removes the form's file, if it was written, and any written later: the request is over.
    func close() {
        let file = state.withLock { state -> URL? in
            state.isClosed = true
            state.body = nil
            defer { state.file = nil }
            return state.file
        }
        if let file { try? FileManager.default.removeItem(at: file) }
    }
}
