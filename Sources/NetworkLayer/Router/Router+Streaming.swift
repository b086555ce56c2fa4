import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Router {
    /// Sends `route` and returns its response as it arrives: the head first, then the body's
    /// chunks (see ``ResponseStream``).
    ///
    /// The request goes through the same chain as any other: request building, the plugins'
    /// `prepare` and `willSend`, retries and a plugin's replay before the head arrives,
    /// redirects, and the endpoint's acceptable status codes. The endpoint's
    /// ``EndPointType/timeout`` does not apply: `options` say how long the stream may be idle
    /// and how long it may last. An endpoint that uploads a file or a multipart form, or
    /// downloads to a file, is sent as ``request(_:completion:)`` sends it, and its response
    /// comes whole: the stream yields the body as one chunk, or none for a download, whose body
    /// is in the file at the head's ``Response/fileURL``.
    ///
    /// ```swift
    /// for try await line in router.stream(.logs).lines {
    ///     print(line)
    /// }
    /// ```
    public func stream(_ route: EndPoint, options: StreamOptions = StreamOptions()) -> ResponseStream {
        startStream(route, options: options, headers: [:])
    }

    /// Sends `route` as a stream for a caller without `async`: `onChunk` gets each chunk in
    /// order, one at a time, on ``callbackQueue`` (the next chunk is read when it returns), then
    /// `completion` runs exactly once with the response head or the error.
    ///
    /// ```swift
    /// let handle = router.stream(.logs, onChunk: { chunk in append(chunk) }) { result in
    ///     if case .failure(let error) = result { show(error) }
    /// }
    /// handle.cancel()
    /// ```
    ///
    /// - Returns: A handle that stops the stream.
    @discardableResult
    public func stream(
        _ route: EndPoint, options: StreamOptions = StreamOptions(),
        onChunk: @escaping @Sendable (Data) -> Void,
        completion: @escaping @Sendable (Result<Response, NetworkError>) -> Void
    ) -> any Cancellable {
        let stream = self.stream(route, options: options)
        let queue = callbackQueue
        Task {
            var result: Result<Response, NetworkError>
            do throws(NetworkError) {
                for try await chunk in stream {
                    await withCheckedContinuation { continuation in
                        queue.async {
                            onChunk(chunk)
                            continuation.resume()
                        }
                    }
                }
                result = .success(try await stream.response())
            } catch {
                result = .failure(error)
            }
            let outcome = result
            queue.async { completion(outcome) }
        }
        return stream.state.handle
    }

    /// Starts a streamed request: the chain up to the head in a task, then the body for the
    /// reader of the returned stream. `headers` are added to the request (a reconnecting event
    /// stream's `Last-Event-ID`).
    func startStream(_ route: EndPoint, options: StreamOptions, headers: HTTPHeaders) -> ResponseStream {
        let reader = Locked<StreamState?>(nil)
        let opened = open(route, timeout: options.deadline ?? .infinity, headers: headers, progress: nil) { result in
            // Taken out, not read: the state holds this handle, and the handle this closure.
            let state = reader.withLock { state in
                defer { state = nil }
                return state
            }
            state?.finish(result)
        }
        let handle = opened.handle
        let state = StreamState(
            handle: handle, redaction: redaction, idleTimeout: options.idleTimeout, scheduler: scheduler, metrics: opened.metrics)
        reader.withLock { $0 = state }
        inFlight.insert(handle)

        var exchange: Exchange
        switch opened.exchange {
        case .success(let opened):
            exchange = opened
        case .failure(let error):
            handle.finish(.failure(error))
            return ResponseStream(state: state)
        }
        exchange.streamedBody = StreamedBody()
        handle.arm(timeout: options.deadline ?? .infinity)
        state.watchIdleness()

        let chain = self.chain
        let prepared = exchange
        // The head the reader gets is described with the router's redaction, as a delivered
        // response is: it had `Redaction.default`, which knows no plugin's secret.
        let described = Response.Delivery(metrics: nil, redaction: redaction, sender: exchange.sender)
        let task = Task.startingNow {
            let exchange = prepared
            switch await chain.run(exchange) {
            case .success(let head):
                guard let body = exchange.streamedBody?.take() else {
                    // Not streamed after all (an upload or download task): the response is whole,
                    // and its body is read as one chunk. Without a head the reader waited forever.
                    state.didReceive(head.withBody(Data()).attaching(described), body: BodyStream(head.data))
                    handle.finish(.success(head))
                    return
                }
                state.didReceive(head.attaching(described), body: body)
            case .failure(let error):
                exchange.streamedBody?.drop()
                handle.finish(.failure(error))
            }
        }
        handle.attach {
            task.cancel()
            state.stop()
        }
        return ResponseStream(state: state)
    }
}
