import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one owner of a download's file: asks only for the missing part of a resumable download,
/// starts over when what was kept no longer fits (416), and puts the complete file in place
/// once the outcome is decided (``RequestHandle/commit()``). The transport only writes bytes.
struct DownloadStage: RequestStage {
    func send(_ exchange: Exchange, next: @escaping Next) async throws(NetworkError) -> Response {
        guard case .download(let work) = exchange.payload else { return try await next(exchange) }
        do {
            return try await download(exchange, into: work, next: next)
        } catch {
            // The handle removes the working file when the caller hears "cancelled" or "timed
            // out", but a transfer that runs on until it sees the cancellation writes the file
            // again afterwards: 1 to 22 of 300 downloads cancelled within their first 40 ms left
            // theirs behind. Nothing comes of a download that fails here, so its file goes now,
            // after the transfer has stopped (a resumable download keeps its partial file).
            work.cleanUp(endingTheRequest: false)
            throw error
        }
    }

    private func download(_ exchange: Exchange, into work: DownloadWork, next: Next) async throws(NetworkError) -> Response {
        var resumed = exchange
        resumed.request = work.resumeRequest(exchange.request)
        var response: Response
        do {
            response = try await next(resumed)
        } catch .unacceptableStatusCode(let refused) where refused.statusCode == 416 && work.isResuming(resumed.request) {
            // What was kept no longer fits the resource (complete, or the resource shrank):
            // start over rather than ask for the impossible range forever.
            work.discardPartial()
            response = try await next(exchange)
        }
        guard (200..<300).contains(response.statusCode) else { return response }
        if response.statusCode == 206, exchange.request.headerValue(named: "Range") == nil {
            // A part that does not end the file must not replace a complete one at the
            // destination, unless the endpoint asked for a part itself (its own `Range`).
            let range = ContentRange(response.header("Content-Range"))
            guard let range, range.endsTheFile else {
                throw .download(.incomplete(received: range.map { $0.last + 1 }, expected: range?.length))
            }
        }
        let target: URL
        do {
            target = try work.target(for: response)
        } catch {
            throw .download(error)
        }
        // A caller told "cancelled" or "timed out" must not find the destination replaced, and
        // a caller told "success" must find it: the move happens only once the outcome is decided.
        guard exchange.handle.commit() else { throw .cancelled }
        do {
            let file = try work.moveIntoPlace(at: target)
            response = Response(request: response.request, head: response.head, data: Data(), fileURL: file)
        } catch {
            throw .download(error)
        }
        return response
    }
}
