import Foundation
import Testing
import TestSupport
@testable import NetworkLayer

/// The disk store: persistence across processes, byte limit and LRU eviction, and files that
/// are damaged, left half-written or not ours.
@Suite("HTTP cache: disk storage")
final class CacheDiskStoreTests {
    let clock = TestClock()
    let folder: URL
    let origin = countingOrigin(["Cache-Control": "max-age=600", "X-Kept": "yes"])

    /// A folder of its own for each test (a new instance runs each one), removed afterwards.
    init() throws {
        folder = try scratchFolder()
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A disk-only cache (no memory store, so that every lookup reads a file) on `folder`.
    private func diskCache(capacity: Int = 1_048_576) throws -> HTTPCache {
        try HTTPCache(configuration: .init(memoryCapacity: 0, directory: folder, diskCapacity: capacity, clock: clock.read))
    }

    private func url(_ number: Int) -> String { "https://api.example.com/items/\(number)" }

    private func fileNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// The file of the GET entry for `url`, which must be the only entry of the folder.
    private func onlyFile() throws -> URL {
        let names = fileNames()
        try #require(names.count == 1, "expected one file, found \(names)")
        return folder.appendingPathComponent(names[0])
    }

    /// Whether the cache still holds something for `url`, without going to the network.
    private func isStored(_ cache: HTTPCache, _ url: String) -> Bool {
        !exchange(cache, makeRequest(url), policy: .returnCacheDataDontLoad, origin: origin).notCached
    }

    /// A FIFO named like an entry blocked `open(2)`, and so `HTTPCache.init`, until a writer
    /// came (found from outside, 2026-11-26). It is not an entry: the cache opens without it.
    @Test func aFIFONamedLikeAnEntryDoesNotBlockOpeningTheCache() async throws {
        let fifo = folder.appendingPathComponent(String(repeating: "ab", count: 32) + "." + DiskStore.fileExtension)
        try #require(mkfifo(fifo.path, 0o600) == 0)
        let opened = Locked(false)
        let folder = self.folder
        let clock = self.clock
        Thread {
            _ = try? HTTPCache(configuration: .init(memoryCapacity: 0, directory: folder, clock: clock.read))
            opened.withLock { $0 = true }
        }.start()
        let done = await eventually { opened.withLock { $0 } }
        if !done {
            // Lets the blocked open(2) return, so the thread ends with the test.
            let writer = open(fifo.path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        #expect(done, "HTTPCache.init still waits on the FIFO after 5 s")
    }

    @Test func aStoredResponseSurvivesANewCacheOnTheSameFolder() throws {
        exchange(try diskCache(), makeRequest(), origin: origin)
        clock.advance(by: 30)
        let reopened = try diskCache()
        let hit = exchange(reopened, makeRequest(), origin: origin)
        #expect(hit.outcome == .hit)
        #expect(hit.body == "response 1")
        #expect(hit.response?.header("X-Kept") == "yes")
        #expect(hit.response?.header("Age") == "30")
        #expect(reopened.inconsistencies().isEmpty)
    }

    @Test func aDiskOnlyCacheServesFromItsFiles() throws {
        let cache = try diskCache()
        exchange(cache, makeRequest(), origin: origin)
        #expect(cache.memoryUsage == 0)
        #expect(exchange(cache, makeRequest(), origin: origin).outcome == .hit)
        #expect(cache.diskUsage == (try onlyFile().resourceValues(forKeys: [.fileSizeKey]).fileSize))
    }

    @Test func theLeastRecentlyUsedFileIsEvictedFirstAndDeleted() throws {
        exchange(try diskCache(), makeRequest(url(0)), origin: origin)
        let size = try diskCache().diskUsage
        try FileManager.default.removeItem(at: folder)
        let cache = try diskCache(capacity: 3 * size)
        for number in 1...3 { exchange(cache, makeRequest(url(number)), origin: origin) }
        #expect(exchange(cache, makeRequest(url(1)), origin: origin).outcome == .hit)
        exchange(cache, makeRequest(url(4)), origin: origin)
        #expect(fileNames().count == 3)
        #expect(cache.diskUsage == 3 * size)
        #expect(!isStored(cache, url(2)))
        #expect(isStored(cache, url(1)) && isStored(cache, url(3)) && isStored(cache, url(4)))
        #expect(cache.inconsistencies().isEmpty)
    }

    @Test func aNewCacheWithASmallerCapacityEvictsDownToIt() throws {
        let cache = try diskCache()
        for number in 1...5 { exchange(cache, makeRequest(url(number)), origin: origin) }
        let smaller = try diskCache(capacity: cache.diskUsage / 5 * 2)
        #expect(fileNames().count == 2)
        #expect(smaller.inconsistencies().isEmpty)
    }

    /// Byte offsets to damage: in the header, the metadata, the body and the checksum.
    @Test(arguments: [0, 5, 9, 40, -40, -33, -1])
    func aCorruptFileIsAMissAndIsRemoved(offset: Int) throws {
        let cache = try diskCache()
        exchange(cache, makeRequest(), origin: origin)
        let file = try onlyFile()
        var bytes = try Data(contentsOf: file)
        let index = offset >= 0 ? offset : bytes.count + offset
        bytes[index] ^= 0x20
        try bytes.write(to: file)
        #expect(!isStored(cache, url(1)))
        #expect(exchange(cache, makeRequest(), policy: .returnCacheDataDontLoad, origin: origin).notCached)
        #expect(fileNames().isEmpty)
        #expect(cache.inconsistencies().isEmpty)
    }

    @Test(arguments: [0, 10, 100, -1])
    func aTruncatedFileIsAMissAndIsRemoved(length: Int) throws {
        let cache = try diskCache()
        exchange(cache, makeRequest(), origin: origin)
        let file = try onlyFile()
        let bytes = try Data(contentsOf: file)
        try bytes.prefix(length >= 0 ? length : bytes.count + length).write(to: file)
        #expect(exchange(cache, makeRequest(), policy: .returnCacheDataDontLoad, origin: origin).notCached)
        #expect(fileNames().isEmpty)
    }

    @Test func aDamagedFileIsRemovedWhenTheFolderIsOpened() throws {
        exchange(try diskCache(), makeRequest(), origin: origin)
        let file = try onlyFile()
        var bytes = try Data(contentsOf: file)
        bytes[5] = 9  // format version 9
        try bytes.write(to: file)
        let reopened = try diskCache()
        #expect(fileNames().isEmpty)
        #expect(reopened.diskUsage == 0)
    }

    @Test func aValidFileUnderAnotherEntrysNameIsNeverServedForIt() throws {
        let cache = try diskCache()
        exchange(cache, makeRequest(url(1)), origin: origin)
        let first = try onlyFile()
        exchange(cache, makeRequest(url(2)), origin: origin)
        let second = try #require(fileNames().map { folder.appendingPathComponent($0) }.first { $0 != first })
        try FileManager.default.removeItem(at: second)
        try FileManager.default.copyItem(at: first, to: second)
        // Entry 2's file now holds entry 1's response: its key does not match, so it is a miss.
        let answer = exchange(cache, makeRequest(url(2)), origin: origin)
        #expect(answer.outcome == .network)
        #expect(answer.body == "response 3")
    }

    @Test func aCrashBetweenWriteAndRenameLeavesTheOldEntryReadable() throws {
        let cache = try diskCache()
        exchange(cache, makeRequest(), origin: origin)
        let file = try onlyFile()
        // What a process that died before its rename(2) leaves: half of a newer file under a
        // temporary name in the same folder.
        let newer = try Data(contentsOf: file)
        let temporary = folder.appendingPathComponent(DiskStore.temporaryFileName())
        try newer.prefix(newer.count / 2).write(to: temporary)
        #expect(exchange(cache, makeRequest(), origin: origin).body == "response 1")
        let reopened = try diskCache()
        #expect(exchange(reopened, makeRequest(), origin: origin).body == "response 1")
        #expect(!FileManager.default.fileExists(atPath: temporary.path))
        #expect(reopened.inconsistencies().isEmpty)
    }

    @Test func filesThatAreNotTheCachesAreLeftAlone() throws {
        let foreign = ["notes.txt", "README", String(repeating: "a", count: 64) + ".json"]
        for name in foreign { try Data("mine".utf8).write(to: folder.appendingPathComponent(name)) }
        let cache = try diskCache()
        exchange(cache, makeRequest(), origin: origin)
        cache.removeAll()
        #expect(fileNames() == foreign.sorted())
    }

    /// Found from outside (2026-11-26): opening a folder removed every file whose name began
    /// with "partial-", the prefix of the cache's own unfinished writes.
    @Test func aFileOfTheCallersNamedLikeATemporaryOneIsLeftAlone() throws {
        let mine = ["partial-report.txt", "partial-\(UUID().uuidString).txt", "partial-.nlcache", "partial-x.nlcache"]
        for name in mine { try Data("mine".utf8).write(to: folder.appendingPathComponent(name)) }
        let cache = try diskCache()
        exchange(cache, makeRequest(), origin: origin)
        _ = try diskCache()
        cache.removeAll()
        #expect(fileNames() == mine.sorted())
    }

    @Test func fileNamesAndFilesHoldNoCredentialOrSecretQuery() throws {
        let cache = try diskCache()
        let request = makeRequest(
            "https://api.example.com/items?api_key=k3y-value", headers: ["Authorization": "Bearer s3cret-token", "Cookie": "sid=c00kie"])
        exchange(cache, request, origin: origin)
        let file = try onlyFile()
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        for secret in ["k3y-value", "s3cret-token", "c00kie", "api.example.com"] {
            #expect(!file.lastPathComponent.contains(secret))
            #expect(!text.contains(secret), "the file holds \(secret)")
        }
        #expect(exchange(cache, request, origin: origin).outcome == .hit)
    }

    @Test func aRevalidationIsWrittenToDisk() throws {
        let etagOrigin = FakeOrigin { request, number in
            number == 1
                ? makeResponse(to: request, headers: ["Cache-Control": "max-age=10", "ETag": #""v1""#, "X-Version": "1"], body: "body")
                : makeResponse(to: request, status: 304, headers: ["X-Version": "2"])
        }
        let cache = try diskCache()
        exchange(cache, makeRequest(), origin: etagOrigin)
        clock.advance(by: 11)
        #expect(exchange(cache, makeRequest(), origin: etagOrigin).outcome == .revalidated)
        let reopened = try diskCache()
        let hit = exchange(reopened, makeRequest(), policy: .returnCacheDataDontLoad, origin: etagOrigin)
        #expect(hit.response?.header("X-Version") == "2")
        #expect(hit.body == "body")
    }

    @Test func aResponseTheFileFormatCannotHoldIsKeptInMemoryOnly() throws {
        let cache = try HTTPCache(configuration: .init(directory: folder, clock: clock.read))
        let huge = FakeOrigin { request, _ in
            makeResponse(to: request, headers: ["Cache-Control": "max-age=600", "X-Huge": String(repeating: "h", count: 1_100_000)])
        }
        exchange(cache, makeRequest(), origin: huge)
        #expect(fileNames().isEmpty)
        #expect(exchange(cache, makeRequest(), origin: huge).outcome == .hit)
    }

    @Test func invalidationRemovesTheFiles() throws {
        let cache = try diskCache()
        exchange(cache, makeRequest(), origin: origin)
        exchange(cache, makeRequest(method: "DELETE"), origin: origin)
        #expect(fileNames().isEmpty)
    }

    @Test func aFileWhereTheFolderShouldBeIsATypedError() throws {
        let file = folder.appendingPathComponent("plain-file")
        try Data().write(to: file)
        #expect(throws: NetworkError.self) {
            try HTTPCache(configuration: .init(directory: file))
        }
        do {
            _ = try HTTPCache(configuration: .init(directory: file))
        } catch {
            guard case .cache(.unusableDirectory(let path, _)) = error else { throw error }
            #expect(path == file.path)
        }
    }
}
