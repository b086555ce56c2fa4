import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Found from outside by helper-27 (2026-11-26): exactly-once, cancellation and "nothing leaked" when features
/// combine (plugins, retry, replay, sharing, cache, streams).
@Suite("Features combined: exactly once, real cancellation, nothing left", .serialized)
struct CombinedFeaturesTests {
    /// A user's transport that answers each request with the next status of `statuses` (the
    /// last one repeats) after `delay` seconds, and counts what it was asked to send.
    final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var sent: [URLRequest] = []
        private let statuses: [Int]
        private let delay: Double
        private let headers: [String: String]
        private let body: Data

        init(statuses: [Int], delay: Double = 0, headers: [String: String] = [:], body: Data = Data("ok".utf8)) {
            self.statuses = statuses
            self.delay = delay
            self.headers = headers
            self.body = body
        }

        func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws -> StreamedResponse {
            let index = lock.withLock { () -> Int in
                sent.append(request)
                return sent.count - 1
            }
            if delay > 0 { try await Task.sleep(nanoseconds: UInt64(delay * 1e9)) }
            let status = statuses[min(index, statuses.count - 1)]
            let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
            return StreamedResponse(response: response, body: BodyStream(self.body))
        }

        func headersAdded(to request: URLRequest) -> HTTPHeaders? { [:] }

        var count: Int { lock.withLock { sent.count } }
    }

    /// Counts every hook of a plugin, and runs `onWillSend` in `willSend`.
    final class HookCounter: PluginType, @unchecked Sendable {
        private let lock = NSLock()
        private var counts = (prepared: 0, willSend: 0, received: 0, replays: 0)
        let onWillSend: @Sendable () -> Void
        /// How long `shouldReplay` takes, without looking at cancellation (a refresh over a
        /// session of the user's own), and what it answers.
        let replayAfter: Double?

        init(replayAfter: Double? = nil, onWillSend: @escaping @Sendable () -> Void = {}) {
            self.replayAfter = replayAfter
            self.onWillSend = onWillSend
        }

        func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
            lock.withLock { counts.prepared += 1 }
            return request
        }

        func willSend(_ request: URLRequest, context: RequestContext) {
            lock.withLock { counts.willSend += 1 }
            onWillSend()
        }

        func didReceive(_ result: Result<Response, NetworkError>, context: RequestContext) {
            lock.withLock { counts.received += 1 }
        }

        func shouldReplay(after response: Response, context: RequestContext) async throws -> Bool {
            guard let replayAfter else { return false }
            lock.withLock { counts.replays += 1 }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + replayAfter) { done.resume() }
            }
            return true
        }

        var prepared: Int { lock.withLock { counts.prepared } }
        var willSend: Int { lock.withLock { counts.willSend } }
        var received: Int { lock.withLock { counts.received } }
        var replays: Int { lock.withLock { counts.replays } }
    }

    /// What a plugin can reach before the router exists.
    final class Box<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Value?
        var value: Value? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }

    static func waitForCompletion(
        _ router: Router<TestEndpoint>, _ endpoint: TestEndpoint, cancelAfter delay: Double? = nil
    ) async -> Result<Response, NetworkError> {
        await withCheckedContinuation { continuation in
            let handle = router.request(endpoint) { continuation.resume(returning: $0) }
            if let delay {
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) { handle.cancel() }
            }
        }
    }

    static func outcome(_ router: Router<TestEndpoint>, _ endpoint: TestEndpoint) async -> Result<Response, NetworkError> {
        do {
            return .success(try await router.request(endpoint))
        } catch {
            return .failure(error)
        }
    }

    // MARK: Finding 1: a willSend that cancels its request (router.cancel()) still sends it

    /// A plugin's `willSend` that cancels the request (re-entrant `router.cancel()`, or a
    /// completion-style policy that gives up) makes the caller hear `.cancelled`, and yet the
    /// request goes on to the transport: PluginStage calls `next` after `endAttempt()` without
    /// asking the handle whether it is still wanted. With sharing on, the cancelled caller even
    /// starts a shared transfer of its own.
    @Test(arguments: [false, true], [0, 2])
    func aRequestCancelledInWillSendIsNotSent(deduplicates: Bool, retries: Int) async throws {
        let transport = ScriptedTransport(statuses: [200])
        let routerBox = Box<Router<TestEndpoint>>()
        let plugin = HookCounter(onWillSend: { routerBox.value?.cancel() })
        let router = Router<TestEndpoint>(
            transport: transport, callbackQueue: DispatchQueue(label: "tests"), plugins: [plugin],
            retryPolicy: retries > 0 ? RetryPolicy(retryLimit: retries, backoffScale: 0.01) : .none,
            deduplicatesRequests: deduplicates)
        routerBox.value = router
        let result = await Self.waitForCompletion(router, .offline())
        #expect(result.isCancelled)
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(transport.count == 0, "the transport was asked to send a request its caller was told was cancelled")
        #expect(plugin.received == 1)
        #expect(router.inFlightCount == 0)
        routerBox.value = nil
    }

    // MARK: Finding 2: a replay decided after the cancellation still starts

    /// A plugin's `shouldReplay` that takes a while (a token refresh over its own session) and
    /// returns `true` after the caller cancelled: the caller was told `.cancelled` at once, and
    /// the replay still starts (the plugins' `prepare` runs again, a refresh plugin's token
    /// fetch with it). ReplayStage checks `Task.isCancelled` before asking each plugin, not
    /// after the answer.
    @Test(arguments: [false, true])
    func noReplayStartsAfterCancellation(deduplicates: Bool) async throws {
        let transport = ScriptedTransport(statuses: [401, 200])
        let plugin = HookCounter(replayAfter: 0.3)
        let router = Router<TestEndpoint>(
            transport: transport, callbackQueue: DispatchQueue(label: "tests"), plugins: [plugin],
            retryPolicy: RetryPolicy(retryLimit: 2, backoffScale: 0.01), deduplicatesRequests: deduplicates)
        let result = await Self.waitForCompletion(router, .offline(), cancelAfter: 0.1)
        #expect(result.isCancelled)
        #expect(plugin.replays == 1)
        // Past the moment shouldReplay answers.
        try await Task.sleep(nanoseconds: 600_000_000)
        #expect(plugin.prepared == 1, "prepare ran \(plugin.prepared) times: a replay started after the request was cancelled")
        #expect(transport.count == 1)
        #expect(plugin.willSend == 1)
        #expect(plugin.received == 1)
    }

    // MARK: Finding 3: a stream dropped without being read never ends

    /// `router.stream` whose head is read (`response()`, to look at the status) and which is
    /// then dropped without reading its body: the request stays in flight for ever
    /// (`inFlightCount` stays 1), the plugins never see `didReceive`, and over the network the
    /// transfer and its connection stay open. BodyStream stops its transfer when dropped
    /// unread, but the router's StreamState keeps the body alive, and the state is held by the
    /// handle that `inFlight` holds.
    @Test(arguments: [true, false])
    func aStreamDroppedUnreadEnds(readsTheHead: Bool) async throws {
        let plugin = HookCounter()
        let router = Router<TestEndpoint>(
            transport: StubTransport(StubResponse(headers: ["Content-Type": "application/x-ndjson"], data: Data("{}\n{}\n".utf8))),
            callbackQueue: DispatchQueue(label: "tests"), plugins: [plugin], retryPolicy: RetryPolicy(retryLimit: 1, backoffScale: 0.01))
        weak var released: StreamState?
        do {
            let stream = router.stream(.offline("feed"))
            released = stream.state
            if readsTheHead { #expect(try await stream.response().statusCode == 200) }
        }
        let ended = await eventually(within: 3) { router.inFlightCount == 0 }
        #expect(ended, "a dropped stream stays in flight: inFlightCount \(router.inFlightCount)")
        #expect(plugin.received == 1, "didReceive ran \(plugin.received) times")
        #expect(await eventually(within: 1) { released == nil })
    }

    /// The same over the network: a stream whose server goes on sending (`sse/stall` stalls
    /// after its first event) and that the caller drops after reading the head keeps its
    /// transfer open.
    @Test(.needsStreamServer, arguments: TestTransport.all)
    func aNetworkStreamDroppedUnreadStopsItsTransfer(_ transport: TestTransport) async throws {
        let plugin = HookCounter()
        let router = Router<TestEndpoint>(transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"), plugins: [plugin])
        do {
            let stream = router.stream(RouterStreamTests.endpoint("sse/stall"), options: StreamOptions(idleTimeout: 60))
            #expect(try await stream.response().statusCode == 200)
        }
        let ended = await eventually(within: 3) { router.inFlightCount == 0 }
        #expect(ended, "a dropped stream stays in flight: inFlightCount \(router.inFlightCount)")
        #expect(plugin.received == 1)
        router.cancel()
    }

    // MARK: Finding 4: a redirect answered before `start` returns leaves the old stop attached

    /// A callback transport (the package's own kind) that answers `/first` with a redirect to
    /// `/second` at once, before its `start` returns, as a transport does whose response
    /// arrives on another thread between starting the task and `Chain.start`'s `attach`; and
    /// keeps `/second` open until it is stopped.
    final class RedirectingAtOnce: CallbackTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var pending: [Completion] = []
        private var stopsOfSecond = 0

        func start(_ request: URLRequest, completion: @escaping Completion) -> @Sendable () -> Void {
            let url = request.url!
            if url.path.hasSuffix("/first") {
                let response = HTTPURLResponse(
                    url: url, statusCode: 302, httpVersion: "HTTP/1.1",
                    headerFields: ["Location": url.deletingLastPathComponent().appendingPathComponent("second").absoluteString])!
                completion(.success((Data(), .made(response))))
                return {}
            }
            lock.withLock { pending.append(completion) }
            return { [self] in
                let completions = lock.withLock { () -> [Completion] in
                    stopsOfSecond += 1
                    defer { pending = [] }
                    return pending
                }
                for completion in completions { completion(.failure(URLError(.cancelled))) }
            }
        }

        func upload(_ request: URLRequest, body: UploadBody, progress: @escaping TransferProgressHandler) async throws -> (Data, HTTPURLResponse) {
            throw URLError(.unsupportedURL)
        }

        func download(_ request: URLRequest, to file: URL, progress: @escaping TransferProgressHandler) async throws -> (Data, HTTPURLResponse) {
            throw URLError(.unsupportedURL)
        }

        func headersAdded(to request: URLRequest) -> HTTPHeaders? { [:] }

        var stopped: Int { lock.withLock { stopsOfSecond } }
        var open: Int { lock.withLock { pending.count } }
    }

    /// The plain path (no plugin, retry, cache or sharing) follows a redirect from the
    /// transport's callback and attaches the redirected transfer's stop; when that callback
    /// runs before the first `transport.start` has returned, `Chain.start` then attaches the
    /// first transfer's stop over it. Cancelling (or the deadline) then stops the finished first
    /// transfer, the caller hears `.cancelled`, and the redirected transfer runs on.
    @Test func cancellingAfterAQuickRedirectStopsTheRedirectedTransfer() async throws {
        let transport = RedirectingAtOnce()
        let router = Router<TestEndpoint>(transport: transport, callbackQueue: DispatchQueue(label: "tests"))
        #expect(router.chain.isPlain)
        let result = await Self.waitForCompletion(router, .offline("first"), cancelAfter: 0.1)
        #expect(result.isCancelled)
        #expect(transport.stopped == 1, "the redirected transfer was never stopped")
        #expect(transport.open == 0)
    }

    // MARK: Finding 5: router.cancel() during an event stream's reconnection delay

    /// `router.events` between two connections (the first ended cleanly, the stream waits its
    /// reconnection delay): `router.cancel()` finds no request in flight, so the stream connects
    /// again after the delay and goes on for ever, although the caller cancelled every request
    /// of the router (a log-out, a screen closed).
    @Test func routerCancelStopsAnEventStreamBetweenConnections() async throws {
        let transport = ScriptedTransport(
            statuses: [200], headers: ["Content-Type": "text/event-stream"], body: Data("id: 1\ndata: x\n\n".utf8))
        let router = Router<TestEndpoint>(transport: transport, callbackQueue: DispatchQueue(label: "tests"))
        let reader = Task { () -> (events: Int, error: (any Error)?) in
            var events = 0
            do {
                for try await _ in router.events(.offline("events"), reconnection: ReconnectionPolicy(delay: 1, minimumDelay: 1, jitter: 0)) {
                    events += 1
                    if events > 5 { break }
                }
                return (events, nil)
            } catch {
                return (events, error)
            }
        }
        // The first connection has ended by now, and the second is 1 s away.
        #expect(await eventually(within: 2) { transport.count == 1 })
        try await Task.sleep(nanoseconds: 300_000_000)
        router.cancel()
        try await Task.sleep(nanoseconds: 1_500_000_000)
        #expect(transport.count == 1, "the event stream connected \(transport.count - 1) more times after router.cancel()")
        reader.cancel()
        let outcome = await reader.value
        #expect(outcome.events == 1)
    }

    // MARK: Finding 6: two resumable downloads to one destination share its `.partial` file

    /// Two downloads of the same file to the same resumable destination at once (a double tap;
    /// downloads are never deduplicated): both take `<destination>.partial` as their working
    /// file, since neither finds one when it is built, and write, resume from, discard and move
    /// the same file. What ends at the destination must be the server's file whenever a
    /// download reports success.
    @Test(.needsFixtureServer, arguments: TestTransport.all)
    func twoResumableDownloadsToOneDestinationLeaveTheRightFile(_ transport: TestTransport) async throws {
        let size = 4_000_000
        let seed = "h27-\(transport)"
        let expected = try await fixtureDigest(bytes: size, seed: seed)
        let router = transport.router()
        var corrupted = 0
        var successes = 0
        let rounds = 8
        for _ in 0..<rounds {
            let folder = try scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = DownloadDestination(folder.appendingPathComponent("file.bin"), options: [.replaceExisting], resumable: true)
            let endpoint = {
                var endpoint = TestEndpoint.fixture("bytes/\(size)?seed=\(seed)", timeout: 30)
                endpoint.task = .download(destination)
                return endpoint
            }()
            async let first = Self.outcome(router, endpoint)
            async let second = Self.outcome(router, endpoint)
            let results = await [first, second]
            let succeeded = results.filter { (try? $0.get()) != nil }.count
            successes += succeeded
            if succeeded > 0 {
                let digest = (try? sha256(ofFile: destination.url)) ?? "missing"
                if digest != expected { corrupted += 1 }
            }
        }
        #expect(corrupted == 0, "\(corrupted) of \(rounds) rounds reported success and left a file that is not the server's (\(successes) successes)")
    }

    // MARK: Held: every feature at once, cancelled at random

    /// A user's transport that waits a random moment (honouring cancellation) and answers 200 or
    /// 503 at random, cacheable for a second.
    final class ChaosTransport: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var counts = (started: 0, cancelled: 0)

        func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws -> StreamedResponse {
            lock.withLock { counts.started += 1 }
            do {
                try await Task.sleep(nanoseconds: UInt64.random(in: 0...30_000_000))
            } catch {
                lock.withLock { counts.cancelled += 1 }
                throw URLError(.cancelled)
            }
            let status = Bool.random() ? 200 : 503
            let response = HTTPURLResponse(
                url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Cache-Control": "max-age=1"])!
            return StreamedResponse(response: response, body: BodyStream(Data("x".utf8)))
        }

        func headersAdded(to request: URLRequest) -> HTTPHeaders? { [:] }
    }

    /// Records each request's hooks in order, by its id.
    final class HookLog: PluginType, @unchecked Sendable {
        private let lock = NSLock()
        private var events: [UInt64: [String]] = [:]

        func willSend(_ request: URLRequest, context: RequestContext) { lock.withLock { events[context.id, default: []].append("willSend") } }
        func didReceive(_ result: Result<Response, NetworkError>, context: RequestContext) {
            lock.withLock { events[context.id, default: []].append("didReceive") }
        }

        var all: [UInt64: [String]] { lock.withLock { events } }
    }

    @Test func pluginsRetryCacheAndSharingCancelledAtRandomKeepEveryPromise() async throws {
        let log = HookLog()
        let router = Router<TestEndpoint>(
            transport: ChaosTransport(), callbackQueue: DispatchQueue(label: "tests", attributes: .concurrent), plugins: [log],
            retryPolicy: RetryPolicy(retryLimit: 2, backoffScale: 0.005, jitter: 0), cache: .inMemory(), deduplicatesRequests: true)
        let total = 300
        let completions = Locked([Int: Int]())
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let remaining = Locked(total)
            for index in 0..<total {
                let handle = router.request(.offline("r\(index % 4)")) { _ in
                    completions.withLock { $0[index, default: 0] += 1 }
                    let left = remaining.withLock { remaining in
                        remaining -= 1
                        return remaining
                    }
                    if left == 0 { done.resume() }
                }
                if index % 3 == 0 {
                    DispatchQueue.global().asyncAfter(deadline: .now() + Double.random(in: 0...0.05)) { handle.cancel() }
                }
                if index == total / 2 { router.cancel() }
            }
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(completions.withLock { $0.count } == total)
        #expect(completions.withLock { $0.values.allSatisfy { $0 == 1 } })
        #expect(router.inFlightCount == 0)
        let events = log.all
        #expect(events.count == total)
        for (id, hooks) in events {
            #expect(hooks.filter { $0 == "didReceive" }.count == 1, "request \(id): \(hooks)")
            #expect(hooks.last == "didReceive", "request \(id): \(hooks)")
        }
    }

    /// Two callers share a slow transfer; each one's deadline ends it for that caller only, and
    /// the last one to leave stops the transfer.
    @Test func deadlinesFireWhileATransferIsShared() async throws {
        let transport = ScriptedTransport(statuses: [200], delay: 3)
        let plugin = HookCounter()
        let router = Router<TestEndpoint>(
            transport: transport, callbackQueue: DispatchQueue(label: "tests"), plugins: [plugin],
            retryPolicy: RetryPolicy(retryLimit: 2, backoffScale: 0.01), cache: .inMemory(), deduplicatesRequests: true)
        let endpoint = {
            var endpoint = TestEndpoint.offline("slow")
            endpoint.timeout = 1
            return endpoint
        }()
        let started = Date()
        async let first = Self.outcome(router, endpoint)
        try await Task.sleep(nanoseconds: 400_000_000)
        async let second = Self.outcome(router, endpoint)
        let (a, b) = await (first, second)
        let elapsed = Date().timeIntervalSince(started)
        for result in [a, b] {
            guard case .failure(.timedOut) = result else {
                Issue.record("expected timedOut, got \(result)")
                continue
            }
        }
        #expect(elapsed < 2.5 * TestTiming.factor)
        #expect(transport.count == 1)
        #expect(plugin.received == 2)
        #expect(plugin.willSend == 2)
        #expect(router.inFlightCount == 0)
        #expect(router.sharedTransfers?.count == 0)
    }

    /// A download cancelled mid-way, with retries, plugins and sharing on: no progress event
    /// after its completion, and no working file left.
    @Test(.needsFixtureServer, arguments: TestTransport.all)
    func aDownloadCancelledMidwayReportsNothingAfterItsCompletion(_ transport: TestTransport) async throws {
        let plugin = HookCounter()
        let router = Router<TestEndpoint>(
            transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"), plugins: [plugin],
            retryPolicy: RetryPolicy(retryLimit: 2, backoffScale: 0.01), deduplicatesRequests: true)
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let late = Locked(0)
        let rounds = 12
        for round in 0..<rounds {
            let destination = DownloadDestination(folder.appendingPathComponent("f\(round).bin"))
            let endpoint = {
                var endpoint = TestEndpoint.fixture("bytes/40000000?seed=late\(round)", timeout: 30)
                endpoint.task = .download(destination)
                return endpoint
            }()
            let completed = Locked(false)
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let handle = router.request(endpoint) { _ in
                    if completed.withLock({ $0 }) { late.withLock { $0 += 1 } }
                } completion: { result in
                    completed.withLock { $0 = true }
                    done.resume()
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + Double.random(in: 0.02...0.2)) { handle.cancel() }
            }
            try await Task.sleep(nanoseconds: 100_000_000)
            #expect(!FileManager.default.fileExists(atPath: destination.url.path))
        }
        #expect(late.withLock { $0 } == 0, "progress events after the completion")
        #expect(await eventually { leftoverTemporaryFiles().isEmpty }, "\(leftoverTemporaryFiles())")
        #expect(router.inFlightCount == 0)
        #expect(plugin.received == rounds)
    }

    /// Streams through plugins and retries (a 500 retried), cancelled at random: before the
    /// head, in a retry's delay, while the body is read. Each ends once for its plugins.
    @Test(.needsStreamServer, arguments: TestTransport.all)
    func streamsWithPluginsAndRetriesCancelledAtRandomEndOnce(_ transport: TestTransport) async throws {
        let plugin = HookCounter()
        let router = Router<TestEndpoint>(
            transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"), plugins: [plugin],
            retryPolicy: RetryPolicy(retryLimit: 3, backoffScale: 0.05, jitter: 0))
        let rounds = 16
        for round in 0..<rounds {
            let path = round % 2 == 0 ? "sse/error" : "sse/stall"
            let stream = router.stream(RouterStreamTests.endpoint(path), options: StreamOptions(idleTimeout: 30))
            let reader = Task {
                do {
                    for try await _ in stream {}
                } catch {}
            }
            try await Task.sleep(nanoseconds: UInt64.random(in: 0...300_000_000))
            if round % 3 == 0 { router.cancel() } else if round % 3 == 1 { stream.cancel() } else { reader.cancel() }
            await reader.value
        }
        #expect(await eventually { router.inFlightCount == 0 })
        #expect(await eventually { plugin.received == rounds }, "didReceive \(plugin.received) for \(rounds) streams")
        #expect(plugin.willSend <= plugin.prepared, "prepare \(plugin.prepared), willSend \(plugin.willSend)")
    }
}
