import Foundation

/// The bytes of one cache file: versioned and self-checking, so that a file that is corrupt,
/// truncated, of another version or not ours at all is recognised as such and never read as a
/// wrong response.
///
///     offset  size  field
///     0       4     magic "NLHC"
///     4       2     format version (2), big-endian
///     6       2     reserved, zero
///     8       4     metadata length m, big-endian
///     12      8     body length b, big-endian
///     20      m     metadata: key, status, times, headers (length-prefixed, big-endian)
///     20+m    b     body
///     20+m+b  32    SHA-256 of every byte before it
///
/// The file's length must be exactly 52 + m + b. The metadata holds the entry's id, which must
/// match the file name; no URL, credential or `Vary` value in clear, only their digests.
enum DiskEntryFormat {
    static let magic: [UInt8] = Array("NLHC".utf8)
    /// 2 since 2026-11-27: version 1 files may hold a credential header of the response, which
    /// is a miss now, and is removed.
    static let version: UInt16 = 2
    static let headerSize = 20
    static let checksumSize = 32
    /// Bounds for what a file may declare, far above what the cache writes, so that a damaged
    /// length cannot make a reader allocate gigabytes.
    static let maximumMetadataSize = 4 * 1_048_576
    fileprivate static let maximumFieldSize = 1_048_576
    fileprivate static let maximumFieldCount = 10_000

    /// The file's bytes, or `nil` when a field is larger, or there are more fields, than
    /// ``decodeMetadata(_:)`` accepts (a server may send anything).
    static func encode(_ response: StoredResponse) -> Data? {
        guard response.key.varyNames.count <= maximumFieldCount, response.headers.fields.count <= maximumFieldCount else {
            return nil
        }
        var metadata = ByteWriter()
        let key = response.key
        metadata.append(key.id.bytes)
        guard metadata.appendString(key.primary.method) else { return nil }
        metadata.append(key.primary.url.bytes)
        metadata.append(key.primary.credential.bytes)
        metadata.append(key.varyValues.bytes)
        metadata.appendInteger(UInt32(key.varyNames.count))
        for name in key.varyNames {
            guard metadata.appendString(name) else { return nil }
        }
        guard let status = UInt32(exactly: response.statusCode) else { return nil }
        metadata.appendInteger(status)
        metadata.appendInteger(response.requestTime.timeIntervalSince1970.bitPattern)
        metadata.appendInteger(response.responseTime.timeIntervalSince1970.bitPattern)
        metadata.appendInteger(UInt32(response.headers.fields.count))
        for field in response.headers.fields {
            guard metadata.appendString(field.name), metadata.appendString(field.value) else { return nil }
        }
        guard metadata.bytes.count <= maximumMetadataSize else { return nil }

        var file = ByteWriter()
        file.append(magic)
        file.appendInteger(version)
        file.appendInteger(UInt16(0))
        file.appendInteger(UInt32(metadata.bytes.count))
        file.appendInteger(UInt64(response.body.count))
        file.append(metadata.bytes)
        var data = Data(file.bytes)
        data.append(response.body)
        var hasher = SHA256()
        hasher.update(data)
        data.append(contentsOf: hasher.finalize().bytes)
        return data
    }

    /// The lengths a file's first ``headerSize`` bytes declare, and the file length they imply;
    /// `nil` unless the magic and version are ours and the lengths within bounds.
    static func lengths(ofHeader header: some Collection<UInt8>) -> (metadata: Int, body: Int, file: Int)? {
        var reader = ByteReader(Array(header.prefix(headerSize)))
        guard reader.bytes(4) == magic, reader.integer(UInt16.self) == version, reader.integer(UInt16.self) == 0,
            let metadata = reader.integer(UInt32.self).map(Int.init), metadata <= maximumMetadataSize,
            let body = reader.integer(UInt64.self), body <= UInt64(Int.max / 2)
        else { return nil }
        return (metadata, Int(body), headerSize + metadata + Int(body) + checksumSize)
    }

    /// The entry in `file`, verified; `nil` when anything is wrong with it.
    static func decode(_ file: Data, heuristic: HTTPCache.HeuristicFreshness) -> StoredResponse? {
        guard let lengths = lengths(ofHeader: file.prefix(headerSize)), lengths.file == file.count else { return nil }
        let checked = file.count - checksumSize
        var hasher = SHA256()
        file.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<checked])) }
        guard hasher.finalize() == SHA256Digest(bytes: file.suffix(checksumSize)) else { return nil }
        let metadataStart = file.startIndex + headerSize
        let bodyStart = metadataStart + lengths.metadata
        guard let metadata = decodeMetadata(Array(file[metadataStart..<bodyStart])) else { return nil }
        return StoredResponse(
            key: metadata.key, statusCode: metadata.statusCode, headers: metadata.headers,
            body: Data(file[bodyStart..<bodyStart + lengths.body]), requestTime: metadata.requestTime,
            responseTime: metadata.responseTime, heuristic: heuristic)
    }

    struct Metadata {
        var key: EntryKey
        var statusCode: Int
        var requestTime: Date
        var responseTime: Date
        var headers: StoredHeaders
    }

    /// The metadata section; `nil` when it does not read exactly to its end.
    static func decodeMetadata(_ bytes: [UInt8]) -> Metadata? {
        var reader = ByteReader(bytes)
        guard let id = reader.bytes(32).flatMap(SHA256Digest.init(bytes:)),
            let method = reader.string(limit: maximumFieldSize),
            let url = reader.bytes(32).flatMap(SHA256Digest.init(bytes:)),
            let credential = reader.bytes(32).flatMap(SHA256Digest.init(bytes:)),
            let varyValues = reader.bytes(32).flatMap(SHA256Digest.init(bytes:)),
            let varyCount = reader.integer(UInt32.self), varyCount <= maximumFieldCount
        else { return nil }
        var varyNames: [String] = []
        for _ in 0..<varyCount {
            guard let name = reader.string(limit: maximumFieldSize) else { return nil }
            varyNames.append(name)
        }
        guard let status = reader.integer(UInt32.self), (100...999).contains(status),
            let requestTime = reader.integer(UInt64.self).map({ Double(bitPattern: $0) }), requestTime.isFinite,
            let responseTime = reader.integer(UInt64.self).map({ Double(bitPattern: $0) }), responseTime.isFinite,
            let headerCount = reader.integer(UInt32.self), headerCount <= maximumFieldCount
        else { return nil }
        var fields: [StoredHeaders.Field] = []
        for _ in 0..<headerCount {
            guard let name = reader.string(limit: maximumFieldSize), let value = reader.string(limit: maximumFieldSize)
            else { return nil }
            fields.append(.init(name: name, value: value))
        }
        let key = EntryKey(
            primary: PrimaryKey(method: method, url: url, credential: credential), varyNames: varyNames, varyValues: varyValues)
        guard reader.isAtEnd, key.id == id else { return nil }
        return Metadata(
            key: key, statusCode: Int(status), requestTime: Date(timeIntervalSince1970: requestTime),
            responseTime: Date(timeIntervalSince1970: responseTime), headers: StoredHeaders(fields))
    }
}

/// Big-endian integers and length-prefixed UTF-8 strings, appended to a byte array.
private struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func append(_ more: [UInt8]) {
        bytes.append(contentsOf: more)
    }

    mutating func appendInteger<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// `false` when the string is longer than a field may be.
    mutating func appendString(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count <= DiskEntryFormat.maximumFieldSize, let length = UInt32(exactly: utf8.count) else { return false }
        appendInteger(length)
        append(utf8)
        return true
    }
}

/// Reads what ``ByteWriter`` wrote; every read is bounds-checked and returns `nil` past the end.
private struct ByteReader {
    private let storage: [UInt8]
    private var offset = 0

    init(_ storage: [UInt8]) {
        self.storage = storage
    }

    var isAtEnd: Bool { offset == storage.count }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, count <= storage.count - offset else { return nil }
        defer { offset += count }
        return Array(storage[offset..<offset + count])
    }

    mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
        guard let raw = bytes(MemoryLayout<T>.size) else { return nil }
        return raw.reduce(T.zero) { $0 << 8 | T($1) }
    }

    /// A string of at most `limit` bytes that is valid UTF-8.
    mutating func string(limit: Int) -> String? {
        guard let length = integer(UInt32.self), Int(length) <= limit, let raw = bytes(Int(length)) else { return nil }
        // Foundation's initialiser, not String(validating:), which needs macOS 15.
        return String(bytes: raw, encoding: .utf8)
    }
}
