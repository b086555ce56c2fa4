import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A download's working file: a file in the process's private ``WorkingFolder``, or the
/// destination's `.partial` file when the download is resumable. Either is created 0600
/// (``PrivateFile``).
final class DownloadWork: Sendable {
    let destination: DownloadDestination
    let workFile: URL
    /// Whether ``workFile`` is the destination's `.partial` file, kept for the next attempt.
    /// Not when a file the package did not write is already there (``ResumeValidator/isMarked(_:)``):
    /// that file is someone's own, and this download works in the private folder instead.
    let keepsPartial: Bool

    /// - Throws: ``DownloadError/cannotWrite(_:)`` when the working folder cannot be made.
    init(destination: DownloadDestination) throws(DownloadError) {
        self.destination = destination
        // A resumable download's working file sits beside the destination, so its folder must
        // exist before the first byte arrives.
        if destination.resumes, destination.options.contains(.createIntermediateDirectories) {
            try? FileManager.default.createDirectory(
                at: destination.url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        let partial = destination.partialFileURL
        // Another download of this process working in the same partial file (a double tap)
        // would write, resume from, discard and move it under this one: the first download
        // keeps it, a second one works in a private file.
        keepsPartial =
            destination.resumes && (!Self.exists(partial) || ResumeValidator.isMarked(partial))
            && Self.claim(partial)
        holdsClaim = Locked(keepsPartial)
        if keepsPartial {
            workFile = partial
        } else {
            do {
                workFile = try WorkingFolder.newFile(prefix: "networklayer-download")
            } catch {
                throw .cannotWrite(FileManager.default.temporaryDirectory.path)
            }
        }
    }

    /// Whether this download still holds its claim on the partial file (``claim(_:)``): until
    /// its request ends (``cleanUp()``, which the request's delivery runs), or the download goes.
    private let holdsClaim: Locked<Bool>

    deinit {
        releaseClaim()
    }

    private func releaseClaim() {
        let held = holdsClaim.withLock { held in
            defer { held = false }
            return held
        }
        if held { Self.release(workFile) }
    }

    /// The partial files that downloads of this process work in.
    private static let claimed = Locked(Set<String>())

    /// Claims `partial` for one download; `false` when another one works in it.
    private static func claim(_ partial: URL) -> Bool {
        claimed.withLock { $0.insert(partial.standardizedFileURL.path).inserted }
    }

    private static func release(_ partial: URL) {
        _ = claimed.withLock { $0.remove(partial.standardizedFileURL.path) }
    }

    /// Whether anything is at `url`, a link that leads nowhere included.
    private static func exists(_ url: URL) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: url.path)) != nil
    }

    /// `request`, asking only for the missing part when a resumable download has a partial file,
    /// and only of the file that part came from: `If-Range` with its validator
    /// (``ResumeValidator``), so that a file changed on the server is sent whole (a `200`) and
    /// replaces the partial file. A partial file without a validator is removed, not resumed.
    func resumeRequest(_ request: URLRequest) -> URLRequest {
        guard keepsPartial else { return request }
        let have = Payload.size(of: workFile)
        guard have > 0 else { return request }
        guard let validator = ResumeValidator.read(from: workFile) else {
            discardPartial()
            return request
        }
        var request = request
        request.setValue("bytes=\(have)-", forHTTPHeaderField: "Range")
        request.setValue(validator, forHTTPHeaderField: "If-Range")
        return request
    }

    /// Whether `request` asks for only the missing part (see ``resumeRequest(_:)``).
    func isResuming(_ request: URLRequest) -> Bool {
        keepsPartial && request.value(forHTTPHeaderField: "Range") != nil
    }

    /// Where `response`'s file goes: the destination's URL, or a file in its folder named by the
    /// response (``DownloadFileName``).
    func target(for response: Response) throws(DownloadError) -> URL {
        guard destination.isNamedByResponse else { return destination.url }
        return try DownloadFileName.destination(in: destination.url, for: response)
    }

    /// Moves the complete working file to `target`, honouring the destination's options; on
    /// failure `target` is as it was (see ``FilePlacement``).
    func moveIntoPlace(at target: URL) throws(DownloadError) -> URL {
        let manager = FileManager.default
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
            do {
                try PrivateFile.openForWriting(workFile, truncating: false).close()
            } catch {
                throw .cannotWrite(workFile.path)
            }
        }
        try FilePlacement.move(workFile, to: target, replacing: destination.options.contains(.replaceExisting))
        ResumeValidator.unmark(target)
        return target
    }

    /// Removes what a resumable download kept, so the next request fetches everything.
    func discardPartial() {
        try? FileManager.default.removeItem(at: workFile)
    }

    /// A failed or cancelled download leaves nothing, unless it is resumable: then what arrived
    /// stays in the partial file for the next attempt. A partial file this download wrote that
    /// carries no mark (a file system without extended attributes) goes too: no attempt could
    /// resume from it, and the next one would take it for someone else's and leave it for ever.
    ///
    /// - Parameter endingTheRequest: Whether the request ends here (its delivery), when the next
    ///   download to this destination may take the partial file over; `false` for an attempt
    ///   that failed, which a retry may follow.
    func cleanUp(endingTheRequest: Bool = true) {
        defer { if endingTheRequest { releaseClaim() } }
        guard !keepsPartial || !ResumeValidator.isMarked(workFile) else { return }
        try? FileManager.default.removeItem(at: workFile)
    }
}
