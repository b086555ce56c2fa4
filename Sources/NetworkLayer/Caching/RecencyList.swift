/// Keys in order of last use, least recent first, with O(1) use, removal and oldest:
/// a doubly linked list whose links live in a dictionary, so that it stays a value type.
struct RecencyList<Key: Hashable & Sendable>: Sendable {
    private struct Links: Sendable {
        var older: Key?
        var newer: Key?
    }

    private var links: [Key: Links] = [:]
    /// The least recently used key.
    private(set) var oldest: Key?
    private var newest: Key?

    var count: Int { links.count }

    func contains(_ key: Key) -> Bool { links[key] != nil }

    /// Makes `key` the most recently used, adding it if it is not there.
    mutating func use(_ key: Key) {
        if newest == key { return }
        remove(key)
        links[key] = Links(older: newest, newer: nil)
        if let newest { links[newest]?.newer = key }
        newest = key
        if oldest == nil { oldest = key }
    }

    mutating func remove(_ key: Key) {
        guard let removed = links.removeValue(forKey: key) else { return }
        if let older = removed.older { links[older]?.newer = removed.newer } else { oldest = removed.newer }
        if let newer = removed.newer { links[newer]?.older = removed.older } else { newest = removed.older }
    }

    mutating func removeAll() {
        links.removeAll()
        oldest = nil
        newest = nil
    }

    /// The keys, least recent first (for consistency checks; O(n)).
    var orderedKeys: [Key] {
        var keys: [Key] = []
        var cursor = oldest
        while let key = cursor, keys.count <= links.count {
            keys.append(key)
            cursor = links[key]?.newer
        }
        return keys
    }
}
