import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transfers of one router that identical requests share while they are in flight (Moya's
/// `trackInflights`): the first request of a kind starts the transfer, later identical ones
/// join it, and each leaves on its own.
///
/// A transfer runs in a task of its own, not in any caller's: the caller that started it may be
/// cancelled while others still wait. It is cancelled only when the last caller leaves, and a
/// request that comes after it finished starts a new one.
final class SharedTransfers: Sendable {
    /// What makes two requests identical: method, URL, idle timeout, and every header on the
    /// wire, names compared case-insensitively: the request's own and those its transport adds
    /// (a cookie from its storage), so that callers with different credentials never share.
    struct Key: Hashable, Sendable {
        let method: String
        let url: String
        let headers: [String]
        /// The transfer runs with the first caller's request: a caller that allows a longer
        /// silence must not be failed by a shorter one's idle timeout.
        let timeout: TimeInterval

        /// - Parameter added: What the transport adds on the wire
        ///   (``HTTPTransport/headersAdded(to:)``).
        init(_ request: URLRequest, added: HTTPHeaders) {
            method = request.httpMethod ?? "GET"
            url = request.url?.absoluteString ?? ""
            let own = (request.allHTTPHeaderFields ?? [:]).map { "\($0.key.lowercased()):\($0.value)" }
            headers = (own + added.map { "+\($0.key.lowercased()):\($0.value)" }).sorted()
            timeout = request.timeoutInterval
        }
    }

    typealias Outcome = Result<Response, NetworkError>

    private struct Transfer {
        /// Tells a transfer from a later one under the same key.
        let generation: UInt64
        var waiters: [UInt64: @Sendable (Outcome) -> Void] = [:]
        var task: Task<Void, Never>?
    }

    private struct State {
        var transfers: [Key: Transfer] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())

    /// The number of transfers in flight (for tests).
    var count: Int { state.withLock { $0.transfers.count } }

    /// The outcome of the transfer for `key`: one already in flight, or one that `send` starts.
    /// Cancelling the calling task makes this caller leave with ``NetworkError/cancelled``; the
    /// transfer goes on for the others.
    ///
    /// - Returns: The outcome, and whether it came from another caller's transfer.
    func outcome(
        for key: Key, send: @escaping @Sendable () async throws(NetworkError) -> Response
    ) async -> (Outcome, joined: Bool) {
        await awaitCallback { callback in
            let (generation, waiter, isFirst) = state.withLock { state -> (UInt64, UInt64, Bool) in
                state.nextID += 1
                let waiter = state.nextID
                if var transfer = state.transfers[key] {
                    transfer.waiters[waiter] = { callback(($0, true)) }
                    state.transfers[key] = transfer
                    return (transfer.generation, waiter, false)
                }
                var transfer = Transfer(generation: waiter)
                transfer.waiters[waiter] = { callback(($0, false)) }
                state.transfers[key] = transfer
                return (waiter, waiter, true)
            }
            if isFirst { start(key, generation: generation, send: send) }
            return { [self] in leave(key, generation: generation, waiter: waiter) }
        }
    }

    private func start(_ key: Key, generation: UInt64, send: @escaping @Sendable () async throws(NetworkError) -> Response) {
        let task = Task.startingNow { [self] in
            let outcome: Outcome
            do throws(NetworkError) {
                outcome = .success(try await send())
            } catch {
                outcome = .failure(error)
            }
            finish(key, generation: generation, with: outcome)
        }
        // Everyone may have left, or the transfer finished, before the task was stored.
        let isCurrent = state.withLock { state -> Bool in
            guard state.transfers[key]?.generation == generation else { return false }
            state.transfers[key]?.task = task
            return true
        }
        if !isCurrent { task.cancel() }
    }

    private func finish(_ key: Key, generation: UInt64, with outcome: Outcome) {
        let waiters = state.withLock { state -> [@Sendable (Outcome) -> Void] in
            guard let transfer = state.transfers[key], transfer.generation == generation else { return [] }
            state.transfers[key] = nil
            return Array(transfer.waiters.values)
        }
        for waiter in waiters { waiter(outcome) }
    }

    private func leave(_ key: Key, generation: UInt64, waiter: UInt64) {
        let (callback, orphaned) = state.withLock { state -> ((@Sendable (Outcome) -> Void)?, Task<Void, Never>?) in
            guard var transfer = state.transfers[key], transfer.generation == generation,
                let callback = transfer.waiters.removeValue(forKey: waiter)
            else { return (nil, nil) }
            if transfer.waiters.isEmpty {
                state.transfers[key] = nil
                return (callback, transfer.task)
            }
            state.transfers[key] = transfer
            return (callback, nil)
        }
        callback?(.failure(.cancelled))
        orphaned?.cancel()
    }
}
