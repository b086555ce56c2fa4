import Foundation

/// The server-sent events of an endpoint, across reconnections: what
/// ``Router/events(_:options:reconnection:)`` returns.
///
/// ```swift
/// for try await event in router.events(.scores) {
///     print(event.type, event.data)      // "goal", "{\"team\":\"home\"}"
/// }
/// ```
///
/// Each connection is a ``Router/stream(_:options:)`` of the endpoint, with `Last-Event-ID`
/// from the second on; events are parsed by the WHATWG rules (``ServerSentEventParser``) and
/// the last event id and `retry` carry over. Reading throws ``NetworkError``, or
/// ``StreamError`` for a line or event past its limit.
public struct ServerSentEventStream<EndPoint: EndPointType>: AsyncSequence, Sendable {
    /// One event; comments are not delivered.
    public typealias Element = ServerSentEvent

    let router: Router<EndPoint>
    let route: EndPoint
    let options: StreamOptions
    let reconnection: ReconnectionPolicy

    /// Connects, and reconnects as the policy says.
    public func makeAsyncIterator() -> Iterator {
        Iterator(connection: Connection(router: router, route: route, options: options, reconnection: reconnection))
    }

    /// Reads a ``ServerSentEventStream``.
    public struct Iterator: AsyncIteratorProtocol {
        let connection: Connection

        /// The next event; `nil` once the stream has ended for good.
        public mutating func next() async throws -> ServerSentEvent? {
            try await connection.next()
        }
    }

    /// The connections of one reader, one after the other. A class, so that a reader that stops
    /// (leaves the loop) stops the connection it has open.
    final class Connection: @unchecked Sendable {
        // Used by one reader at a time, as an iterator is.
        private let router: Router<EndPoint>
        private let route: EndPoint
        private let options: StreamOptions
        private let reconnection: ReconnectionPolicy
        private var parser = ServerSentEventParser()
        private var stream: ResponseStream?
        private var chunks: ResponseStream.Iterator?
        private var pending: [ServerSentEvent] = []
        private var attemptsWithoutEvent = 0
        private var isOver = false

        init(router: Router<EndPoint>, route: EndPoint, options: StreamOptions, reconnection: ReconnectionPolicy) {
            self.router = router
            self.route = route
            self.options = options
            self.reconnection = reconnection
        }

        deinit {
            stream?.cancel()
        }

        func next() async throws -> ServerSentEvent? {
            while true {
                if !pending.isEmpty {
                    attemptsWithoutEvent = 0
                    return pending.removeFirst()
                }
                guard !isOver else { return nil }
                if chunks == nil { try await connect() }
                guard !isOver else { return nil }
                do {
                    if let chunk = try await chunks?.next() {
                        try parser.append(chunk) { pending.append($0) }
                        continue
                    }
                    // The connection ended cleanly.
                } catch let error as StreamError {
                    stop()
                    throw error
                } catch {
                    // A dropped or silent connection is reconnected, as a clean end is; anything
                    // else (a status, a cancellation) ends the stream.
                    switch error as? NetworkError {
                    case .transport?, .timedOut?:
                        break
                    default:
                        stop()
                        throw error
                    }
                }
                // Whatever was not dispatched belongs to the lost connection (WHATWG: the event
                // being built is dropped); the last event id and retry carry over.
                parser.finish()
                try await reconnectLater()
            }
        }

        /// Opens a connection, with `Last-Event-ID` once there is one.
        private func connect() async throws {
            let headers: HTTPHeaders = parser.lastEventID.isEmpty ? [:] : ["Last-Event-ID": parser.lastEventID]
            let stream = router.startStream(route, options: options, headers: headers)
            self.stream = stream
            let head = try await stream.response()
            // 204 No Content: the server says there is nothing more, ever.
            if head.statusCode == 204 {
                stop()
                return
            }
            chunks = stream.makeAsyncIterator()
        }

        /// Waits for the next connection, or ends the stream when the policy says so.
        private func reconnectLater() async throws {
            stream = nil
            chunks = nil
            if let maximum = reconnection.maximumAttempts, attemptsWithoutEvent >= maximum {
                isOver = true
                return
            }
            attemptsWithoutEvent += 1
            do {
                try await Task.sleep(nanoseconds: Seconds.nanoseconds(reconnection.wait(retry: parser.retry)))
            } catch {
                stop()
                throw NetworkError.cancelled
            }
        }

        private func stop() {
            isOver = true
            stream?.cancel()
            stream = nil
            chunks = nil
        }
    }
}

extension Router {
    /// The server-sent events of `route` (a `text/event-stream` endpoint), read by the WHATWG
    /// rules, reconnecting as `reconnection` says (see ``ReconnectionPolicy``).
    ///
    /// ```swift
    /// for try await event in router.events(.notifications) {
    ///     if event.type == "message" { show(event.data) }
    /// }
    /// ```
    public func events(
        _ route: EndPoint, options: StreamOptions = StreamOptions(), reconnection: ReconnectionPolicy = ReconnectionPolicy()
    ) -> ServerSentEventStream<EndPoint> {
        ServerSentEventStream(router: self, route: route, options: options, reconnection: reconnection)
    }
}
