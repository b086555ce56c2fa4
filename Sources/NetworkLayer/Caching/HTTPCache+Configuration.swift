import Foundation

extension HTTPCache {
    /// Where an ``HTTPCache`` keeps responses, how many bytes, and what it treats as a credential.
    ///
    /// By default: 8 MiB in memory, no disk, entries up to 2 MiB, `Authorization`,
    /// `Proxy-Authorization`, `Cookie` and `X-Api-Key` as credentials, heuristic freshness of
    /// 10 % of the time since `Last-Modified` (at most a day), and the system clock.
    ///
    /// ```swift
    /// let folder = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
    ///     .appendingPathComponent("api-cache")
    /// let cache = try HTTPCache(configuration: .init(directory: folder, diskCapacity: 50 * 1_048_576))
    /// ```
    public struct Configuration: Sendable {
        /// The most bytes kept in memory (bodies, headers and bookkeeping); 8 MiB by default.
        /// Zero keeps nothing in memory, which makes sense only with a ``directory``.
        public var memoryCapacity: Int
        /// The folder of the disk cache, created if needed; `nil` (the default) for no disk cache.
        /// One process at a time may use a folder. It holds response bodies, so it is made (or
        /// narrowed to) 0700, and its files are 0600: give the cache a folder of its own.
        public var directory: URL?
        /// The most bytes of files kept in ``directory``; 64 MiB by default.
        public var diskCapacity: Int
        /// The largest body stored; larger responses are passed through and not stored.
        /// 2 MiB by default.
        public var maximumEntrySize: Int
        /// Request headers that carry a credential, compared case-insensitively. Responses to
        /// requests that carry any of them are stored per value (as a SHA-256 fingerprint, never
        /// the value), so an authenticated response is never served for another credential.
        /// `Authorization`, `Proxy-Authorization`, `Cookie` and `X-Api-Key` by default.
        public var credentialHeaders: Set<String>
        /// Freshness for responses that state none; ``HeuristicFreshness/default`` by default.
        public var heuristicFreshness: HeuristicFreshness
        /// The current time; `Date()` by default. Tests inject a clock they move by hand.
        public var clock: @Sendable () -> Date

        /// Creates a configuration; every parameter has the default described above.
        public init(
            memoryCapacity: Int = 8 * 1_048_576,
            directory: URL? = nil,
            diskCapacity: Int = 64 * 1_048_576,
            maximumEntrySize: Int = 2 * 1_048_576,
            credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "x-api-key"],
            heuristicFreshness: HeuristicFreshness = .default,
            clock: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.memoryCapacity = memoryCapacity
            self.directory = directory
            self.diskCapacity = diskCapacity
            self.maximumEntrySize = maximumEntrySize
            self.credentialHeaders = credentialHeaders
            self.heuristicFreshness = heuristicFreshness
            self.clock = clock
        }
    }
}
