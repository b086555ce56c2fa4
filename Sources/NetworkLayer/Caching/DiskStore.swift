import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Stored responses in files of one folder, at most `capacity` bytes, least recently used
/// evicted first; one file per entry in ``DiskEntryFormat``, named by the entry's id.
///
/// - Writes are atomic: the file is written under a temporary name in the same folder and
///   renamed over the old one (rename(2)), so a reader sees the old entry or the new, whole.
///   A crash before the rename leaves a temporary file, removed by the next start. Files are
///   not fsync'ed: after a power loss a damaged file fails its checksum and is a miss.
/// - A file that is corrupt, truncated or of another format version is a miss, and is removed.
/// - The index is rebuilt by reading each file's metadata when a store opens its folder, so it
///   survives the process; the order of use starts as the order in which responses arrived.
/// - Names are hexadecimal digests: nothing secret in them. Other files in the folder are left
///   alone. One process per folder: two would each evict without telling the other.
///
/// The index is guarded by a lock; reading a file happens outside it, renames and removals
/// under it, so the index and the folder agree whenever the lock is free.
final class DiskStore: Sendable {
    struct FileInfo: Sendable {
        /// Distinguishes successive files of the same entry, so that a reader that found a file
        /// corrupt removes that one and not a newer one written meanwhile.
        let generation: UInt64
        let responseTime: Date
    }

    private struct State: Sendable {
        var index: CacheIndex<FileInfo>
        var nextGeneration: UInt64 = 0
    }

    let directory: URL
    private let state: Locked<State>
    private let maximumFileSize: Int
    private let heuristic: HTTPCache.HeuristicFreshness

    static let fileExtension = "nlcache"

    /// Opens (and creates) `directory` and indexes the entries already in it.
    init(directory: URL, capacity: Int, maximumEntrySize: Int, heuristic: HTTPCache.HeuristicFreshness) throws(HTTPCacheError) {
        self.directory = directory.standardizedFileURL
        self.heuristic = heuristic
        // `Int.max` is the caller's "no limit", not an overflow.
        let framing = DiskEntryFormat.maximumMetadataSize + 64
        maximumFileSize = min(max(0, maximumEntrySize), Int.max - framing) + framing
        state = Locked(State(index: CacheIndex(capacity: capacity)))
        let path = self.directory.path
        do {
            // 0700: the folder holds response bodies, often of authenticated requests (issue 23).
            try PrivateFile.makeFolder(self.directory)
        } catch {
            throw .unusableDirectory(path: path, reason: "it cannot be created (\(error.localizedDescription))")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .unusableDirectory(path: path, reason: "it is not a folder")
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            throw .unusableDirectory(path: path, reason: "it cannot be listed")
        }
        rebuildIndex(from: names)
    }

    private func rebuildIndex(from names: [String]) {
        var found: [(key: EntryKey, size: Int, responseTime: Date)] = []
        for name in names {
            if Self.isTemporaryFileName(name) {
                // A write that never reached its rename: the process died in between.
                unlink(filePath(name))
                continue
            }
            guard Self.entryID(fromFileName: name) != nil else { continue }
            if let entry = readMetadata(name) {
                found.append(entry)
            } else {
                unlink(filePath(name))
            }
        }
        found.sort { $0.responseTime < $1.responseTime }
        state.withLock { state in
            for entry in found {
                state.nextGeneration += 1
                let record = CacheIndex<FileInfo>.Record(
                    key: entry.key, size: entry.size,
                    payload: FileInfo(generation: state.nextGeneration, responseTime: entry.responseTime))
                for evicted in state.index.insert(record) {
                    unlink(path(of: evicted.key.id))
                }
            }
        }
    }

    /// The key, file size and arrival time in a file's metadata, read without its body; `nil`
    /// when the header or metadata are not valid or the file's length is not the declared one.
    private func readMetadata(_ name: String) -> (key: EntryKey, size: Int, responseTime: Date)? {
        guard let (descriptor, size) = Self.openEntry(filePath(name)) else { return nil }
        defer { close(descriptor) }
        guard let header = Self.read(descriptor, count: DiskEntryFormat.headerSize, at: 0),
            let lengths = DiskEntryFormat.lengths(ofHeader: header),
            lengths.file == size, lengths.file <= maximumFileSize,
            let metadata = Self.read(descriptor, count: lengths.metadata, at: DiskEntryFormat.headerSize),
            let decoded = DiskEntryFormat.decodeMetadata(metadata),
            Self.entryID(fromFileName: name) == decoded.key.id
        else { return nil }
        return (decoded.key, lengths.file, decoded.responseTime)
    }

    /// The most recently received variant of `request`'s primary key whose `Vary` matches it,
    /// read and verified; a file that fails verification is removed and the lookup is a miss.
    func lookup(_ request: RequestKey) -> StoredResponse? {
        let candidate: CacheIndex<FileInfo>.Record? = state.withLock { state in
            let found = state.index.matches(of: request).max { $0.payload.responseTime < $1.payload.responseTime }
            if let found { state.index.use(found.key.id) }
            return found
        }
        guard let candidate else { return nil }
        let id = candidate.key.id
        if let data = Self.readFile(path(of: id), limit: maximumFileSize),
            let response = DiskEntryFormat.decode(data, heuristic: heuristic), response.key == candidate.key
        {
            return response
        }
        state.withLock { state in
            guard state.index[id]?.payload.generation == candidate.payload.generation else { return }
            state.index.remove(id)
            unlink(path(of: id))
        }
        return nil
    }

    /// Writes `response` atomically, replacing the entry with its key and, given `request`, every
    /// other variant that matches that request. Returns `false` when it could not be written
    /// (too large for the format or the capacity, disk full); the superseded entries are removed
    /// all the same, since they are out of date.
    @discardableResult
    func store(_ response: StoredResponse, supersedingMatchesOf request: RequestKey? = nil) -> Bool {
        let id = response.key.id
        guard let data = DiskEntryFormat.encode(response), data.count <= state.withLock({ $0.index.capacity }) else {
            if let request { removeMatches(of: request) }
            return false
        }
        let temporary = filePath(Self.temporaryFileName())
        guard Self.writeNewFile(temporary, data) else {
            unlink(temporary)
            if let request { removeMatches(of: request) }
            return false
        }
        return state.withLock { state in
            if let request {
                for old in Self.matches(of: request, in: state.index) where old != id {
                    state.index.remove(old)
                    unlink(path(of: old))
                }
            }
            guard rename(temporary, path(of: id)) == 0 else {
                unlink(temporary)
                return false
            }
            state.nextGeneration += 1
            let record = CacheIndex<FileInfo>.Record(
                key: response.key, size: data.count,
                payload: FileInfo(generation: state.nextGeneration, responseTime: response.responseTime))
            // The replaced file of the same id is already gone: the rename put the new one there.
            for removed in state.index.insert(record) where removed.key.id != id {
                unlink(path(of: removed.key.id))
            }
            return true
        }
    }

    /// Removes the variants that match `request`.
    func removeMatches(of request: RequestKey) {
        state.withLock { state in
            for id in Self.matches(of: request, in: state.index) {
                state.index.remove(id)
                unlink(path(of: id))
            }
        }
    }

    private static func matches(of request: RequestKey, in index: CacheIndex<FileInfo>) -> [SHA256Digest] {
        index.matches(of: request).map(\.key.id)
    }

    func remove(_ ids: [SHA256Digest]) {
        guard !ids.isEmpty else { return }
        state.withLock { state in
            for id in ids where state.index.remove(id) != nil {
                unlink(path(of: id))
            }
        }
    }

    func removeAll(url: SHA256Digest) {
        state.withLock { state in
            for removed in state.index.removeAll(url: url) {
                unlink(path(of: removed.key.id))
            }
        }
    }

    func removeAll() {
        state.withLock { state in
            for removed in state.index.removeAll() {
                unlink(path(of: removed.key.id))
            }
        }
    }

    var totalBytes: Int { state.withLock { $0.index.totalBytes } }
    var count: Int { state.withLock { $0.index.count } }

    /// The index's own inconsistencies, and any disagreement between it and the folder.
    func inconsistencies() -> [String] {
        state.withLock { state in
            var problems = state.index.inconsistencies()
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            let files = Set(names.compactMap(Self.entryID(fromFileName:)))
            let indexed = Set(state.index.recordsByRecency.map(\.key.id))
            if files != indexed {
                problems.append("\(files.subtracting(indexed).count) files without an entry, \(indexed.subtracting(files).count) entries without a file")
            }
            for id in indexed {
                var info = stat()
                if stat(path(of: id), &info) == 0, Int(info.st_size) != state.index[id]?.size {
                    problems.append("the file of an entry does not have the size the index says")
                }
            }
            if names.contains(where: Self.isTemporaryFileName) {
                problems.append("a temporary file is left in the folder")
            }
            return problems
        }
    }
}
