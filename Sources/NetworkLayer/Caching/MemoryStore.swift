import Foundation

/// Stored responses in memory, at most `capacity` bytes, least recently used evicted first.
///
/// Every access goes through one lock; nothing slow happens under it (no I/O, a few dictionary
/// operations and, for `Vary`, one SHA-256 of a few header values).
final class MemoryStore: Sendable {
    private let index: Locked<CacheIndex<StoredResponse>>

    init(capacity: Int) {
        index = Locked(CacheIndex(capacity: capacity))
    }

    /// The most recently received variant of `request`'s primary key whose `Vary` matches it
    /// (RFC 9111 §4.1), marked as used.
    func lookup(_ request: RequestKey) -> StoredResponse? {
        index.withLock { index in
            let found = index.matches(of: request).max { $0.payload.responseTime < $1.payload.responseTime }
            if let found { index.use(found.key.id) }
            return found?.payload
        }
    }

    /// Stores `response`, replacing the entry with its key and, given `request`, every other
    /// variant that matches that request: a new response to a request supersedes them all.
    func store(_ response: StoredResponse, supersedingMatchesOf request: RequestKey? = nil) {
        index.withLock { index in
            if let request {
                for id in Self.matches(of: request, in: index) where id != response.key.id { index.remove(id) }
            }
            _ = index.insert(.init(key: response.key, size: response.byteCount, payload: response))
        }
    }

    /// Removes the variants that match `request`.
    func removeMatches(of request: RequestKey) {
        index.withLock { index in
            for id in Self.matches(of: request, in: index) { index.remove(id) }
        }
    }

    private static func matches(of request: RequestKey, in index: CacheIndex<StoredResponse>) -> [SHA256Digest] {
        index.matches(of: request).map(\.key.id)
    }

    func remove(_ id: SHA256Digest) {
        index.withLock { _ = $0.remove(id) }
    }

    func removeAll(url: SHA256Digest) {
        index.withLock { _ = $0.removeAll(url: url) }
    }

    func removeAll() {
        index.withLock { _ = $0.removeAll() }
    }

    var totalBytes: Int { index.withLock { $0.totalBytes } }
    var count: Int { index.withLock { $0.count } }

    /// The keys, least recently used first (for tests).
    var keysByRecency: [EntryKey] { index.withLock { $0.recordsByRecency.map(\.key) } }

    func inconsistencies() -> [String] {
        index.withLock { $0.inconsistencies() }
    }
}
