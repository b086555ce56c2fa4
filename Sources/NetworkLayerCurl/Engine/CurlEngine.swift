import CCurl
import Dispatch
import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One libcurl multi handle and the one thread that drives it.
///
/// Every transfer of a ``CurlTransport`` runs here: libcurl's callbacks, connection reuse and
/// HTTP/2 multiplexing all happen on this thread, which sleeps in `curl_multi_poll` while no
/// socket is ready. Other threads never touch the multi handle or an easy handle once started:
/// they put a ``Command`` in a lock-guarded queue and wake the thread with `curl_multi_wakeup`,
/// so nothing here blocks a Swift concurrency thread beyond taking that lock.
///
/// The thread ends, every transfer still running completes with `URLError(.cancelled)` and
/// every handle is freed after ``shutdown()``, which the transport's owner calls when the last
/// copy of the transport goes away, or ``CurlTransport/shutdown()`` earlier. The thread frees
/// the multi handle, the share and OpenSSL's state for the thread itself before it reports its
/// end (``waitUntilEnded()``): nothing of the engine's touches TLS after that, so a process may
/// exit then, while OpenSSL's exit-time cleanup runs.
///
/// One engine per transport, not one per core: two engines taking requests in turn were slower
/// on the 2-core machine, where the server shares the cores (`Benchmarks load curl`, 16 in
/// flight, six interleaved runs each: 20,800 requests/s median with one engine, 18,100 with two,
/// and 58 against 70 µs of CPU a request), and over TLS HTTP/1.1 they opened 25 connections for
/// 3,200 requests where one engine opens 16 (`Scripts/bench peers`, 2026-11-26).
///
/// `@unchecked Sendable`: what other threads touch is in ``Shared``, behind its lock; the fields
/// under "Engine thread" are used only on the engine's thread; the rest are constants.
final class CurlEngine: @unchecked Sendable {
    /// What every transfer of this engine is given, from ``CurlTransport/Configuration``.
    struct Settings: Sendable {
        var totalTimeoutMilliseconds: Int?
        var certificateAuthorityFile: String?
        var certificateAuthorityPEM: Data?
        var pinnedPublicKeys: String?
        var maximumConnectionsPerHost: Int?
    }

    /// What other threads ask of the engine's thread.
    enum Command {
        case start(CurlEasyTransfer)
        case cancel(UInt64)
        case resume(UInt64)
    }

    let settings: Settings
    private let multi: UnsafeMutableRawPointer
    /// The TLS sessions of every transfer. libcurl keeps them in each easy handle, freed with it,
    /// and we use one handle per transfer: without this share every new connection made a full
    /// handshake where it could resume a session (against nginx closing connections after 3
    /// requests, about 0.4 ms of CPU more per connection). No lock callbacks: only the engine's
    /// thread attaches handles to it and frees them.
    private let share: UnsafeMutableRawPointer

    /// What other threads and the engine's thread both use.
    private struct Shared {
        var commands: [Command] = []
        var nextID: UInt64 = 0
        var isShuttingDown = false
        /// Set by the engine's thread once every transfer has completed and every idle handle is
        /// freed, just before it frees the multi handle. (No one wakes the thread after
        /// ``isShuttingDown``: that is what keeps the multi handle safe to free.)
        var isClosed = false
        /// Set by the engine's thread as its last act, after it freed everything.
        var hasThreadEnded = false
        /// Callers of ``waitUntilEnded()`` waiting for the thread's end.
        var endWaiters: [CheckedContinuation<Void, Never>] = []
        /// The number of transfers in the multi handle, for diagnostics and tests.
        var runningCount = 0
    }

    private let shared = Locked(Shared())

    /// Easy handles of finished transfers, reset and detached from the share, for the next
    /// transfers: libcurl advises reusing them, and a new one cost every request 4 allocations and
    /// about 5.5 KB (`peers allocations`: 125.1 → 121.1 allocations and 33.0 → 27.5 KB a request,
    /// 2026-11-26). Any thread takes one (``makeEasyHandle()``); only the engine's thread puts one
    /// back (``recycle(_:)``), after removing it from the multi handle.
    private let idleHandles = Locked<[UnsafeMutableRawPointer]>([])
    /// At most this many idle handles are kept; more are freed.
    static let idleHandleLimit = 32

    // Engine thread.
    private var transfers: [UInt64: CurlEasyTransfer] = [:]
    private var transferByHandle: [UnsafeMutableRawPointer: CurlEasyTransfer] = [:]
    /// The idle connections libcurl may keep (CURLMOPT_MAXCONNECTS), which only grows.
    private var connectionCacheSize = 0

    /// libcurl's global set-up, once per process, before the first handle (curl_global_init is
    /// not safe to race with other libcurl calls).
    private static let globalInit: CURLcode = curl_global_init(nlcurl_global_default)

    /// Creates the multi handle and starts the engine's thread.
    ///
    /// - Throws: `URLError(.unknown)` if libcurl cannot be initialised.
    init(settings: Settings) throws {
        guard Self.globalInit == CURLE_OK, let multi = curl_multi_init() else {
            throw URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "libcurl could not be initialised."])
        }
        guard let share = curl_share_init() else {
            curl_multi_cleanup(multi)
            throw URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "libcurl could not be initialised."])
        }
        // A libcurl built without TLS refuses it, and then has no session to keep anyway.
        _ = nlcurl_share_setopt_data(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION)
        self.multi = multi
        self.share = share
        self.settings = settings
        if let perHost = settings.maximumConnectionsPerHost {
            _ = nlcurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, perHost)
        }
        // The thread keeps the engine alive until it has freed everything.
        let thread = Thread { [self] in
            run()
            reportThreadEnd()
        }
        thread.name = "NetworkLayerCurl"
        thread.start()
    }

    // MARK: From any thread

    /// Prepares a transfer of `request` whose events go to `delegate`; nothing is sent until
    /// ``start(_:)``.
    ///
    /// - Throws: `URLError` when the body's file cannot be opened or libcurl refuses an option.
    func prepare(_ request: CurlRequest, delegate: any CurlTransferDelegate) throws -> CurlEasyTransfer {
        let id = shared.withLock { shared in
            shared.nextID &+= 1
            return shared.nextID
        }
        guard let easy = makeEasyHandle() else {
            throw CurlFailure.error(.unknown, "libcurl could not create a transfer.", url: request.redactedURL)
        }
        return try CurlEasyTransfer(id: id, request: request, easy: easy, settings: settings, delegate: delegate)
    }

    /// Hands `transfer` to the engine's thread.
    /// An easy handle for a new transfer: an idle one, reset, or a new one; `nil` when libcurl
    /// cannot make one.
    func makeEasyHandle() -> UnsafeMutableRawPointer? {
        idleHandles.withLock { $0.popLast() } ?? curl_easy_init()
    }

    func start(_ transfer: CurlEasyTransfer) -> CurlTransferHandle {
        send(.start(transfer))
        return CurlTransferHandle(engine: self, id: transfer.id)
    }

    /// Queues `command` and wakes the engine's thread. After shutdown a start completes at once
    /// with `URLError(.cancelled)` and other commands do nothing.
    func send(_ command: Command) {
        let accepted = shared.withLock { shared -> Bool in
            guard !shared.isShuttingDown else { return false }
            shared.commands.append(command)
            // Only the first command of a batch wakes the thread: it takes them all at once, and
            // a wake-up is a system call made with the lock held, which every sender and the
            // thread wait for (at 16 in flight, about 2 % of a request's CPU in lock waits).
            // Under the lock, so that the thread cannot free the multi handle meanwhile.
            if shared.commands.count == 1 { curl_multi_wakeup(multi) }
            return true
        }
        if !accepted, case .start(let transfer) = command {
            transfer.cleanUp()
            transfer.delegate.transferDidComplete(error: Self.shutDownError(transfer))
        }
    }

    /// Ends the engine: running transfers complete with `URLError(.cancelled)`, the thread
    /// frees every handle and ends. Returns at once; ``waitUntilEnded()`` waits for the end.
    func shutdown() {
        shared.withLock { shared in
            guard !shared.isShuttingDown else { return }
            shared.isShuttingDown = true
            curl_multi_wakeup(multi)
        }
    }

    /// The number of transfers started and not yet completed.
    var activeTransferCount: Int {
        shared.withLock { $0.runningCount }
    }

    /// Whether the engine's thread has completed every transfer and freed the idle handles;
    /// the multi handle and the share go right after.
    var hasEnded: Bool {
        shared.withLock { $0.isClosed }
    }

    /// Whether the engine's thread has done its last act: everything freed, OpenSSL's state for
    /// the thread too (for tests).
    var hasThreadEnded: Bool {
        shared.withLock { $0.hasThreadEnded }
    }

    /// Returns once the engine's thread has freed every handle and OpenSSL's state for itself,
    /// after ``shutdown()``.
    func waitUntilEnded() async {
        await withCheckedContinuation { continuation in
            let ended = shared.withLock { shared -> Bool in
                if !shared.hasThreadEnded { shared.endWaiters.append(continuation) }
                return shared.hasThreadEnded
            }
            if ended { continuation.resume() }
        }
    }

    private static func shutDownError(_ transfer: CurlEasyTransfer) -> URLError {
        CurlFailure.error(.cancelled, "The transport was shut down before the transfer ended.", url: transfer.request.redactedURL)
    }

    // MARK: The engine's thread

    private func run() {
        var running: Int32 = 0
        while true {
            let (pending, shuttingDown) = shared.withLock { shared -> ([Command], Bool) in
                defer { shared.commands.removeAll(keepingCapacity: true) }
                return (shared.commands, shared.isShuttingDown)
            }
            for command in pending { apply(command) }
            if shuttingDown { break }

            curl_multi_perform(multi, &running)
            collectFinishedTransfers()
            let now = DispatchTime.now().uptimeNanoseconds
            expireIdleTransfers(at: now)
            curl_multi_poll(multi, nil, 0, pollTimeout(at: now), nil)
        }
        for transfer in Array(transfers.values) {
            finish(transfer, error: Self.shutDownError(transfer))
        }
        let idle = idleHandles.withLock { handles in
            defer { handles = [] }
            return handles
        }
        for easy in idle { curl_easy_cleanup(easy) }
        shared.withLock { $0.isClosed = true }
        // Every handle that used the share has left it: finished transfers' handles were
        // detached when recycled, and a transfer that never started never joined it. The multi
        // handle closes its idle connections here, on the thread that made them.
        curl_multi_cleanup(multi)
        curl_share_cleanup(share)
    }

    /// The thread's last act: frees OpenSSL's state for this thread, which OpenSSL would free at
    /// the thread's exit only if its own exit-time cleanup had not run yet (a process exiting as
    /// the thread ended leaked it: 2 of 40 AddressSanitizer runs of `CurlConnectionReuseTests`,
    /// and 9 of 30 child processes exiting right after releasing a transport that had used TLS),
    /// then wakes ``waitUntilEnded()``.
    private func reportThreadEnd() {
        nlcurl_release_thread_tls_state()
        let waiters = shared.withLock { shared in
            shared.hasThreadEnded = true
            defer { shared.endWaiters = [] }
            return shared.endWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func apply(_ command: Command) {
        switch command {
        case .start(let transfer):
            guard let easy = transfer.easy else { return }
            // Here rather than with the other options: attaching writes to the share, which only
            // this thread may touch. Refused only by a libcurl without shares; the transfer then
            // goes without resumption.
            _ = nlcurl_easy_setopt_pointer(easy, CURLOPT_SHARE, share)
            let code = curl_multi_add_handle(multi, easy)
            guard code == CURLM_OK else {
                transfer.cleanUp()
                let message = "libcurl could not start the transfer: \(String(cString: curl_multi_strerror(code)))."
                transfer.delegate.transferDidComplete(error: CurlFailure.error(.unknown, message, url: transfer.request.redactedURL))
                return
            }
            transfers[transfer.id] = transfer
            transferByHandle[easy] = transfer
            shared.withLock { $0.runningCount = transfers.count }
            growConnectionCache()
        case .cancel(let id):
            guard let transfer = transfers[id] else { return }
            finish(transfer, error: CurlFailure.error(.cancelled, "The transfer was cancelled.", url: transfer.request.redactedURL))
        case .resume(let id):
            transfers[id]?.resumeReceiving()
        }
    }

    /// Keeps libcurl's default of four idle connections per transfer, counted at the most
    /// transfers ever running rather than at the moment a connection comes back. libcurl counts
    /// at that moment, and between one request's end and the next one's start (a hop through
    /// the caller's task) the multi handle may hold a single transfer: every connection returned
    /// then closed the oldest idle one, and 16 requests in flight opened 50 connections for 3,200
    /// requests instead of 16 (issue 26).
    private func growConnectionCache() {
        let wanted = transfers.count * 4
        guard wanted > connectionCacheSize else { return }
        connectionCacheSize = wanted
        _ = nlcurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, wanted)
    }

    private func collectFinishedTransfers() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let transfer = transferByHandle[easy]
            else { continue }
            let code = message.pointee.data.result
            finish(transfer, error: transfer.completionError(for: code))
        }
    }

    /// Removes and frees `transfer`'s handle, then tells its delegate: no callback of the
    /// transfer can run after its completion.
    private func finish(_ transfer: CurlEasyTransfer, error: URLError?) {
        transfers[transfer.id] = nil
        shared.withLock { $0.runningCount = transfers.count }
        if let easy = transfer.easy {
            transferByHandle[easy] = nil
            curl_multi_remove_handle(multi, easy)
        }
        transfer.cleanUp(recycling: recycle)
        transfer.delegate.transferDidComplete(error: error)
    }

    /// Keeps `easy`, which has left the multi handle, for a later transfer. Detached from the
    /// share first, so that an idle handle freed on another thread (a transfer that never
    /// started) does not touch the share, which only this thread may.
    private func recycle(_ easy: UnsafeMutableRawPointer) {
        _ = nlcurl_easy_setopt_pointer(easy, CURLOPT_SHARE, nil)
        curl_easy_reset(easy)
        let kept = idleHandles.withLock { handles -> Bool in
            guard handles.count < Self.idleHandleLimit else { return false }
            handles.append(easy)
            return true
        }
        if !kept { curl_easy_cleanup(easy) }
    }

    /// The number of idle easy handles kept (for tests).
    var idleHandleCount: Int {
        idleHandles.withLock { $0.count }
    }

    private func expireIdleTransfers(at now: UInt64) {
        for transfer in transfers.values { transfer.stampActivity(at: now) }
        for transfer in transfers.values where transfer.isIdle(at: now) {
            let seconds = Double(transfer.idleTimeout ?? 0) / 1e9
            let message = String(format: "The request timed out: no byte moved for %.3f s.", seconds)
            finish(transfer, error: CurlFailure.error(.timedOut, message, url: transfer.request.redactedURL))
        }
    }

    /// How long to sleep: until the nearest idle deadline, at most a second. libcurl shortens it
    /// further to its own timers, and a command wakes it at once.
    private func pollTimeout(at now: UInt64) -> Int32 {
        var timeout: UInt64 = 1_000
        for transfer in transfers.values {
            guard let deadline = transfer.idleDeadline else { continue }
            let milliseconds = deadline > now ? (deadline - now + 999_999) / 1_000_000 : 0
            timeout = min(timeout, milliseconds)
        }
        return Int32(timeout)
    }
}
