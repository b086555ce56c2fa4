import Foundation

extension HTTPCache {
    /// Where an ``HTTPCache`` keeps responses, how many bytes, and what it treats as a credential.
    ///
    /// By default: 8 MiB in memory, no disk, entries up to 2 MiB, heuristic freshness of 10 % of
    /// the time since `Last-Modified` (at most a day), and the system clock. Which headers are
    /// credentials is not the cache's to say: the package has one list,
    /// ``Redaction/credentialHeaders``, extended by the redaction a lookup is given (a router
    /// gives its ``Router/redaction``).
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
        /// Request headers the cache treats as credentials besides ``Redaction/credentialHeaders``
        /// and the names of the redaction a lookup is given; empty by default.
        @available(
            *, deprecated,
            message: "Name credential headers in the router's Redaction, or pass one to lookup(_:policy:redaction:addedHeaders:)."
        )
        public var credentialHeaders: Set<String> {
            get { extraCredentialHeaders }
            set { extraCredentialHeaders = newValue }
        }
        /// What the deprecated ``credentialHeaders`` holds.
        var extraCredentialHeaders: Set<String> = []
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
            heuristicFreshness: HeuristicFreshness = .default,
            clock: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.memoryCapacity = memoryCapacity
            self.directory = directory
            self.diskCapacity = diskCapacity
            self.maximumEntrySize = maximumEntrySize
            self.heuristicFreshness = heuristicFreshness
            self.clock = clock
        }

        /// Creates a configuration that also treats `credentialHeaders` as credentials.
        @available(
            *, deprecated,
            message: "Name credential headers in the router's Redaction, or pass one to lookup(_:policy:redaction:addedHeaders:)."
        )
        public init(
            memoryCapacity: Int = 8 * 1_048_576,
            directory: URL? = nil,
            diskCapacity: Int = 64 * 1_048_576,
            maximumEntrySize: Int = 2 * 1_048_576,
            credentialHeaders: Set<String>,
            heuristicFreshness: HeuristicFreshness = .default,
            clock: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.init(
                memoryCapacity: memoryCapacity, directory: directory, diskCapacity: diskCapacity,
                maximumEntrySize: maximumEntrySize, heuristicFreshness: heuristicFreshness, clock: clock)
            extraCredentialHeaders = credentialHeaders
        }
    }
}
