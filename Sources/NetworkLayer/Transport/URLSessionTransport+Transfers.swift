import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport {
    /// Uploads with an upload task, reporting bytes sent; the body goes with its
    /// `Content-Length`, except a file larger than ``largestFileSentWithItsLength`` on Linux,
    /// which goes chunked.
    ///
    /// With a session of your own (``init(session:)``) there is no delegate of ours to report
    /// progress: the body is sent from memory and reported once, at the end.
    public func upload(_ request: URLRequest, body: UploadBody, progress: @escaping TransferProgressHandler) async throws -> (Data, HTTPURLResponse) {
        let request = try readyForFoundation(request, body: body)
        guard let (session, delegate) = ownedTransferSession else {
            return try await TransportForms.collect(execute(request, body: body, progress: progress), limit: maximumResponseSize)
        }
        let limit = maximumResponseSize
        let source = try UploadSource(body)
        if let streamed = source.streamed {
            // Read from its start again whenever libcurl rewinds: never sent again as a new task.
            let call = SessionTaskCall(
                target: .memory, method: request.httpMethod, maximumBodySize: limit, progress: progress, upload: streamed)
            return try await run(call: call, delegate: delegate, make: keepingSessions { source.task(for: request, on: session) })
        }
        let makeTask = keepingSessions { source.task(for: request, on: session) }
        return try await run(delegate: delegate) {
            (SessionTaskCall(target: .memory, method: request.httpMethod, maximumBodySize: limit, progress: progress), makeTask)
        }
    }

    /// The largest file that ``upload(_:body:progress:)`` sends with its `Content-Length` on
    /// Linux, in bytes (16 MiB): FoundationNetworking can send a file's length only by holding
    /// the file in memory, or by reading it in a way that traps when the upload is cancelled. A
    /// larger file is streamed from disk and goes chunked, which servers in the S3 style refuse
    /// with `411 Length Required`; `CurlTransport` sends every file with its length. On Apple
    /// platforms every file goes with its length, from disk.
    public static let largestFileSentWithItsLength: Int64 = 16 << 20

    /// Downloads with a data task whose 2xx body is written to `file` as it arrives, so memory
    /// stays flat whatever the size; other statuses' bodies are returned in memory.
    ///
    /// A data task rather than a download task: on Linux `download(for:delegate:)` corrupts the
    /// file and download tasks leave Foundation's temporary files behind.
    public func download(_ request: URLRequest, to file: URL, progress: @escaping TransferProgressHandler) async throws -> (Data, HTTPURLResponse) {
        let request = try readyForFoundation(request)
        guard let (session, delegate) = ownedTransferSession else {
            return try await TransportForms.download(
                execute(request, body: nil, progress: { _, _ in }), to: file, limit: maximumResponseSize, progress: progress)
        }
        let limit = maximumResponseSize
        let makeTask = keepingSessions { session.dataTask(with: request) }
        return try await run(delegate: delegate) {
            (SessionTaskCall(target: .file(file), method: request.httpMethod, maximumBodySize: limit, progress: progress), makeTask)
        }
    }

    /// Runs the task that `make` returns, with a new one if FoundationNetworking cannot send its
    /// in-memory body again (``SendingAgainOnce``).
    func run(
        delegate: SessionDelegate, make: @escaping @Sendable () -> (call: SessionTaskCall, task: @Sendable () -> URLSessionTask)
    ) async throws -> (Data, HTTPURLResponse) {
        guard !Task.isCancelled else { throw URLError.cancelledBeforeSending }
        let (data, head) = try await awaitCallback { SendingAgainOnce(delegate: delegate, completion: $0, make: make).stop }.get()
        return (data, head.httpResponse)
    }

    /// Runs the task that `make` returns, once: its body is a stream (which the delegate opens
    /// again when libcurl asks), or a file read by Foundation.
    func run(
        call: SessionTaskCall, delegate: SessionDelegate, make: @escaping @Sendable () -> URLSessionTask
    ) async throws -> (Data, HTTPURLResponse) {
        guard !Task.isCancelled else { throw URLError.cancelledBeforeSending }
        let (data, head) = try await awaitCallback { completion in
            call.start(completion)
            return delegate.launch(call, making: make)
        }.get()
        return (data, head.httpResponse)
    }
}

/// How an upload's body goes through FoundationNetworking: from memory with its length, from a
/// file Foundation reads, or as a stream (chunked on the wire) opened anew whenever libcurl
/// rewinds.
struct UploadSource: Sendable {
    private enum Kind: Sendable {
        case bytes(Data)
        case file(URL)
        case stream(StreamedUpload)
    }

    private let kind: Kind

    /// How `body` is sent.
    ///
    /// - Throws: `URLError(.cannotOpenFile)` when a file cannot be read.
    init(_ body: UploadBody) throws {
        switch body {
        case .data(let data):
            kind = .bytes(data)
        case .file(let url):
            #if canImport(FoundationNetworking)
            // Not uploadTask(fromFile:): FoundationNetworking reads such a file with DispatchIO,
            // pauses libcurl while a read is pending and un-pauses it through a `try!` when the
            // read completes. A cancel in between has removed the handle, libcurl answers
            // CURLE_BAD_FUNCTION_ARGUMENT, and the process traps (EasyHandle.swift:484, about
            // once in 50-100 cancels). A file up to the limit is read into memory and goes with
            // its length (servers in the S3 style answer 411 to a chunked upload); a larger one
            // is a stream, read synchronously and never paused, which FoundationNetworking can
            // only send chunked; the delegate hands a new one whenever libcurl rewinds.
            let size = Payload.size(of: url)
            guard size > URLSessionTransport.largestFileSentWithItsLength else {
                kind = .bytes(try body.bytes())
                return
            }
            guard InputStream(url: url) != nil else { throw URLError(.cannotOpenFile) }
            kind = .stream(StreamedUpload(size: size) { InputStream(url: url) })
            #else
            kind = .file(url)
            #endif
        }
    }

    /// The body as a stream, when it goes as one.
    var streamed: StreamedUpload? {
        if case .stream(let upload) = kind { return upload }
        return nil
    }

    /// A new, unstarted task that sends `request` with this body.
    func task(for request: URLRequest, on session: URLSession) -> URLSessionTask {
        switch kind {
        case .bytes(let data): return session.uploadTask(with: request, from: data)
        case .file(let url): return session.uploadTask(with: request, fromFile: url)
        case .stream: return session.uploadTask(withStreamedRequest: request)
        }
    }
}
