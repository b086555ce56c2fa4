import Foundation

/// Why the cache could not answer or could not be opened.
public enum HTTPCacheError: Error, Sendable, Equatable {
    /// The policy forbids the network (``HTTPCache/Policy/returnCacheDataDontLoad``, or a
    /// request's `Cache-Control: only-if-cached`) and the cache holds no usable response.
    case notCached

    /// The disk cache's folder cannot be used: it cannot be created or listed, or it is a file.
    case unusableDirectory(path: String, reason: String)
}

extension HTTPCacheError: LocalizedError {
    /// A sentence that says what was wrong.
    public var errorDescription: String? {
        switch self {
        case .notCached:
            return "The response is not in the cache, and the cache policy does not allow loading it."
        case .unusableDirectory(let path, let reason):
            return "The cache folder \"\(path)\" cannot be used: \(reason)."
        }
    }
}
