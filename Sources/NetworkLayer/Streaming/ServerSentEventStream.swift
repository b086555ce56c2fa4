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
/// the last event id and `retry` carry over. When and how soon it connects again is the
/// ``ReconnectionPolicy``'s to say: after a clean end or a network error (a connection that
/// fails to open, drops or goes silent), for GET and HEAD only by default.
///
/// Reading throws ``NetworkError``: ``NetworkError/unacceptableStatusCode(_:)`` for a status the
/// endpoint does not accept, ``NetworkError/stream(_:)`` with
/// ``StreamError/notAnEventStream(_:)`` for an answer that is not `200` and `text/event-stream`,
/// a network error when the policy does not reconnect (a POST, the attempts used up: the stream
/// then ends with the error that ended its last connection), ``NetworkError/cancelled``. A line
/// or event past its limit throws ``NetworkError/stream(_:)`` itself. None of these reconnects.
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
        /// Whether this endpoint's method reconnects (``ReconnectionPolicy/reconnectableMethods``).
        private let reconnects: Bool
        private var parser = ServerSentEventParser()
        private var stream: ResponseStream?
        private var chunks: ResponseStream.Iterator?
        /// The events of the last chunk, last first: `popLast()` hands each over without moving
        /// the others (`removeFirst()` made a body of 100,000 events in one chunk take 3.8 s).
        private var pending: [ServerSentEvent] = []
        /// Reconnections since the last event delivered, for ``ReconnectionPolicy/maximumAttempts``.
        private var attemptsWithoutEvent = 0
        /// Connections in a row that ended without an event, for the backoff.
        private var consecutiveFailures = 0
        private var deliveredOnThisConnection = false
        private var isOver = false
        /// ``Router/cancel()`` calls when this reader began: one more, between two connections,
        /// ends the stream instead of a reconnection.
        private let cancellations: UInt64

        init(router: Router<EndPoint>, route: EndPoint, options: StreamOptions, reconnection: ReconnectionPolicy) {
            self.router = router
            self.route = route
            self.options = options
            self.reconnection = reconnection
            self.reconnects = reconnection.reconnects(router.method(of: route))
            self.cancellations = router.inFlight.cancellations
        }

        deinit {
            stream?.cancel()
        }

        func next() async throws -> ServerSentEvent? {
            while true {
                if let event = pending.popLast() {
                    attemptsWithoutEvent = 0
                    consecutiveFailures = 0
                    deliveredOnThisConnection = true
                    return event
                }
                guard !isOver else { return nil }
                var failure: (any Error)?
                do {
                    if chunks == nil { try await connect() }
                    guard !isOver else { return nil }
                    if let chunk = try await chunks?.next() {
                        // Also when the parser throws, so that what is pending stays last-first.
                        defer { pending.reverse() }
                        try parser.append(chunk) { pending.append($0) }
                        continue
                    }
                    // The connection ended cleanly.
                } catch NetworkError.stream(let error) {
                    stop()
                    throw NetworkError.stream(error)
                } catch {
                    // WHATWG: a network error, before the head (a connection that fails to open)
                    // or after it (one that drops or goes silent), is followed by a new
                    // connection; anything else ends the stream. So does any error when the
                    // method does not reconnect: the caller learns that the answer was cut.
                    guard reconnects, Self.isNetworkFailure(error) else {
                        stop()
                        throw error
                    }
                    failure = error
                }
                // Whatever was not dispatched belongs to the lost connection (WHATWG: the event
                // being built is dropped); the last event id and retry carry over.
                parser.finish()
                guard reconnects else {
                    stop()
                    return nil
                }
                try await reconnectLater(after: failure)
            }
        }

        /// Opens a connection, with `Last-Event-ID` once there is one, and checks that what
        /// answers is an event stream.
        private func connect() async throws {
            let headers: HTTPHeaders = parser.lastEventID.isEmpty ? [:] : ["Last-Event-ID": parser.lastEventID]
            let stream = router.startStream(route, options: options, headers: headers)
            self.stream = stream
            deliveredOnThisConnection = false
            let head = try await stream.response()
            // 204 No Content: the server says there is nothing more, ever.
            if head.statusCode == 204 {
                stop()
                return
            }
            var chunks = stream.makeAsyncIterator()
            // WHATWG: a status other than 200 or another Content-Type fails the connection, for
            // good. What the server said instead is kept for the caller.
            guard head.statusCode == 200, Self.isEventStream(head.header("Content-Type")) else {
                var body = Data()
                while body.count < ValidationStage.streamedErrorBodyLimit, let chunk = try? await chunks.next() {
                    body.append(chunk.prefix(ValidationStage.streamedErrorBodyLimit - body.count))
                }
                stop()
                let response = head.withBody(body)
                throw NetworkError.stream(.notAnEventStream(response))
            }
            self.chunks = chunks
        }

        /// Waits for the next connection, or ends the stream when the policy says so: with
        /// `failure`, the network error that ended the last connection, when there was one.
        private func reconnectLater(after failure: (any Error)?) async throws {
            stream = nil
            chunks = nil
            if !deliveredOnThisConnection { consecutiveFailures += 1 }
            if let maximum = reconnection.maximumAttempts, attemptsWithoutEvent >= maximum {
                isOver = true
                if let failure { throw failure }
                return
            }
            attemptsWithoutEvent += 1
            let wait = reconnection.reconnectionDelay(retry: parser.retry, consecutiveFailures: consecutiveFailures)
            do {
                try await Task.sleep(nanoseconds: Seconds.nanoseconds(wait))
            } catch {
                stop()
                throw NetworkError.cancelled
            }
            // `router.cancel()` found no request of this stream in flight while it waited.
            if router.inFlight.cancellations != cancellations {
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

        /// Whether `error` is a network error that WHATWG answers with a new connection: the
        /// transport failed or the connection went silent (``StreamOptions``). Failures that
        /// another try cannot mend are not: a URL no transport supports, an untrusted
        /// certificate, a credential the server wants.
        static func isNetworkFailure(_ error: any Error) -> Bool {
            switch error as? NetworkError {
            case .timedOut?:
                return true
            case .transport(let error)?:
                return !futileURLErrors.contains(error.code)
            default:
                return false
            }
        }

        private static var futileURLErrors: Set<URLError.Code> {
            [
                .badURL, .unsupportedURL, .serverCertificateUntrusted, .serverCertificateHasBadDate,
                .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
                .clientCertificateRequired, .userAuthenticationRequired, .userCancelledAuthentication,
            ]
        }

        /// Whether a `Content-Type` is `text/event-stream`: its MIME type essence, parameters
        /// (`; charset=utf-8`) aside, compared without regard to case.
        static func isEventStream(_ contentType: String?) -> Bool {
            guard let contentType else { return false }
            let essence = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return essence.trimmingCharacters(in: .whitespaces).lowercased() == "text/event-stream"
        }
    }
}

extension Router {
    /// The server-sent events of `route` (a `text/event-stream` endpoint), read by the WHATWG
    /// rules, reconnecting as `reconnection` says (see ``ReconnectionPolicy``: by default after
    /// a wait of the server's `retry`, at least 1 s, with backoff, and for GET and HEAD only).
    ///
    /// ```swift
    /// for try await event in router.events(.notifications) {
    ///     if event.type == "message" { show(event.data) }
    /// }
    /// ```
    ///
    /// A POST that streams its answer, such as an LLM API's chat completion, is read once:
    /// its stream ends with its connection, whatever the policy, unless the policy's
    /// ``ReconnectionPolicy/reconnectableMethods`` include POST.
    ///
    /// - Parameters:
    ///   - route: the endpoint.
    ///   - options: the idle timeout and deadline of each connection; ``StreamOptions``'s
    ///     defaults unless given.
    ///   - reconnection: when to connect again; ``ReconnectionPolicy``'s defaults unless given.
    /// - Returns: the events, across connections; see ``ServerSentEventStream`` for its errors.
    public func events(
        _ route: EndPoint, options: StreamOptions = StreamOptions(), reconnection: ReconnectionPolicy = ReconnectionPolicy()
    ) -> ServerSentEventStream<EndPoint> {
        ServerSentEventStream(router: self, route: route, options: options, reconnection: reconnection)
    }
}

extension Router {
    /// The method `route` is sent with, after the router's mapping.
    func method(of route: EndPoint) -> HTTPMethod {
        mapping.map.map { $0(route).httpMethod } ?? route.httpMethod
    }
}
