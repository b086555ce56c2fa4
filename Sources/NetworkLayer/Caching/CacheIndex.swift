/// The bookkeeping shared by the memory and the disk store: which entries exist, the variants of
/// each primary key, the entries of each URL, their order of use, and the bytes they hold
/// against a capacity, evicting the least recently used beyond it.
///
/// A value type, mutated only under its store's lock.
struct CacheIndex<Payload: Sendable>: Sendable {
    struct Record: Sendable {
        let key: EntryKey
        /// Bytes the entry counts for against the capacity.
        let size: Int
        let payload: Payload
    }

    /// The most variants one primary key keeps; beyond it, the one stored first goes. RFC 9111
    /// §4.1 sets no limit, but a `Vary` on a header that differs per request (a request ID)
    /// made every response a variant of its own, and every lookup of that URL compared them all
    /// under the store's lock: 27 ms a request at 5,000 variants (found from outside,
    /// 2026-11-26). Browsers keep one.
    static var maximumVariants: Int { 16 }

    /// The most bytes the entries may hold together.
    let capacity: Int
    private(set) var totalBytes = 0
    private var records: [SHA256Digest: Record] = [:]
    private var variants: [PrimaryKey: [SHA256Digest]] = [:]
    private var primaries: [SHA256Digest: Set<PrimaryKey>] = [:]
    private var recency = RecencyList<SHA256Digest>()

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var count: Int { records.count }

    subscript(id: SHA256Digest) -> Record? { records[id] }

    /// Every stored variant of `primary`.
    func variants(of primary: PrimaryKey) -> [Record] {
        (variants[primary] ?? []).compactMap { records[$0] }
    }

    /// The variants of `request`'s primary key whose `Vary` values are the request's (RFC 9111
    /// §4.1). The request's values are computed once for each list of names the variants vary on.
    func matches(of request: RequestKey) -> [Record] {
        var requestValues: [[String]: SHA256Digest] = [:]
        return variants(of: request.primary).filter { record in
            let names = record.key.varyNames
            if let values = requestValues[names] { return values == record.key.varyValues }
            let values = request.varyValues(for: names)
            requestValues[names] = values
            return values == record.key.varyValues
        }
    }

    /// Marks an entry as just used.
    mutating func use(_ id: SHA256Digest) {
        if records[id] != nil { recency.use(id) }
    }

    /// Adds `record`, replacing an entry with the same key, then evicts the least recently used
    /// entries until the total fits the capacity. Returns what left the index: the replaced
    /// entry and the evicted ones. A record larger than the capacity is not added; it is
    /// returned as if evicted.
    mutating func insert(_ record: Record) -> [Record] {
        guard record.size <= capacity else { return [record] }
        var removed: [Record] = []
        if let replaced = remove(record.key.id) { removed.append(replaced) }
        records[record.key.id] = record
        variants[record.key.primary, default: []].append(record.key.id)
        primaries[record.key.primary.url, default: []].insert(record.key.primary)
        recency.use(record.key.id)
        totalBytes += record.size
        if let ids = variants[record.key.primary], ids.count > Self.maximumVariants, let first = ids.first,
            let evicted = remove(first)
        {
            removed.append(evicted)
        }
        while totalBytes > capacity, let oldest = recency.oldest, let evicted = remove(oldest) {
            removed.append(evicted)
        }
        return removed
    }

    /// Removes one entry; returns it, or `nil` when it was not there.
    @discardableResult
    mutating func remove(_ id: SHA256Digest) -> Record? {
        guard let record = records.removeValue(forKey: id) else { return nil }
        recency.remove(id)
        totalBytes -= record.size
        let primary = record.key.primary
        variants[primary]?.removeAll { $0 == id }
        if variants[primary]?.isEmpty == true {
            variants.removeValue(forKey: primary)
            primaries[primary.url]?.remove(primary)
            if primaries[primary.url]?.isEmpty == true { primaries.removeValue(forKey: primary.url) }
        }
        return record
    }

    /// Removes every entry of the URL with digest `url`: every method, credential and variant.
    mutating func removeAll(url: SHA256Digest) -> [Record] {
        var removed: [Record] = []
        for primary in primaries[url] ?? [] {
            for id in variants[primary] ?? [] {
                if let record = remove(id) { removed.append(record) }
            }
        }
        return removed
    }

    /// Removes every entry.
    mutating func removeAll() -> [Record] {
        let removed = Array(records.values)
        records.removeAll()
        variants.removeAll()
        primaries.removeAll()
        recency.removeAll()
        totalBytes = 0
        return removed
    }

    /// The entries, least recently used first.
    var recordsByRecency: [Record] {
        recency.orderedKeys.compactMap { records[$0] }
    }

    /// What does not add up, in words; empty when the index is consistent (for tests).
    func inconsistencies() -> [String] {
        var problems: [String] = []
        let sum = records.values.reduce(0) { $0 + $1.size }
        if sum != totalBytes { problems.append("totalBytes \(totalBytes) but the entries hold \(sum)") }
        if totalBytes > capacity { problems.append("totalBytes \(totalBytes) over the capacity \(capacity)") }
        let ordered = recency.orderedKeys
        if ordered.count != records.count || Set(ordered) != Set(records.keys) {
            problems.append("the order of use lists \(ordered.count) entries, the index holds \(records.count)")
        }
        let listed = variants.values.flatMap { $0 }
        if listed.count != records.count || Set(listed) != Set(records.keys) {
            problems.append("the variants list \(listed.count) entries, the index holds \(records.count)")
        }
        for (primary, ids) in variants {
            if !(primaries[primary.url]?.contains(primary) ?? false) { problems.append("a primary key is missing from its URL") }
            if ids.contains(where: { records[$0]?.key.primary != primary }) { problems.append("a variant is filed under another key") }
        }
        if primaries.values.reduce(0, { $0 + $1.count }) != variants.count {
            problems.append("the URL table lists primary keys without entries")
        }
        return problems
    }
}
